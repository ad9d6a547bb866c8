/*
 * firebase/variant.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::Variant: a value that is null, a 64-bit integer, a double, a bool, a string (static: a
 * pointer the caller keeps alive; mutable: a copy the Variant owns), a vector or map of Variants, or a
 * blob (static or owned bytes). AdditionalUserInfo::profile is a std::map<Variant, Variant> of the
 * identity provider's profile, with JSON strings as mutable strings, whole numbers as Int64, other
 * numbers as Double, and objects and arrays as maps and vectors.
 *
 * As in the Firebase C++ SDK, reading a Variant as a type it does not hold (int64_value() of a
 * string, vector() of a map, ...) is a programming error: it prints an "ASSERT:" line naming both
 * types and aborts the process. The As*() conversions never fail.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_VARIANT_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_VARIANT_H_

#include <stdint.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "firebase/internal/common.h"
#include "hearth_compat/assert.h"

namespace firebase {
namespace internal {
class VariantInternal;
}  // namespace internal
}  // namespace firebase

namespace firebase {

class Variant {
 public:
  /// What a Variant holds. Values are the Firebase SDK's.
  enum Type {
    kTypeNull,
    kTypeInt64,
    kTypeDouble,
    kTypeBool,
    kTypeStaticString,   ///< a const char* the Variant does not own
    kTypeMutableString,  ///< a std::string the Variant owns
    kTypeVector,
    kTypeMap,
    kTypeStaticBlob,     ///< bytes the Variant does not own
    kTypeMutableBlob,    ///< bytes the Variant owns
  };

  Variant() : type_(kTypeNull) { value_.int64_value = 0; }

  /// From int64_t, int, int16_t, int8_t, uint8_t, char (Int64); double, float (Double); bool;
  /// const char* (a static string: the pointer is kept); char* (a mutable copy). Other types do not
  /// compile.
  template <typename T>
  Variant(T value)  // NOLINT: implicit on purpose, as in the SDK
      : type_(kTypeNull) {
    value_.int64_value = 0;
    set_value_t(value);
  }
  Variant(const std::string& value) : type_(kTypeNull) {  // NOLINT
    value_.int64_value = 0;
    set_mutable_string(value);
  }
  Variant(const std::vector<Variant>& value) : type_(kTypeNull) {  // NOLINT
    value_.int64_value = 0;
    set_vector(value);
  }
  /// A vector of Variants made from each element.
  template <typename T>
  Variant(const std::vector<T>& value) : type_(kTypeNull) {  // NOLINT
    value_.int64_value = 0;
    Clear(kTypeVector);
    value_.vector_value->reserve(value.size());
    for (size_t i = 0; i < value.size(); ++i) value_.vector_value->push_back(Variant(static_cast<T>(value[i])));
  }
  /// A vector of Variants made from the first array_size elements of an array.
  template <typename T>
  Variant(const T array_of_values[], size_t array_size) : type_(kTypeNull) {
    value_.int64_value = 0;
    Clear(kTypeVector);
    value_.vector_value->reserve(array_size);
    for (size_t i = 0; i < array_size; ++i) value_.vector_value->push_back(Variant(array_of_values[i]));
  }
  Variant(const std::map<Variant, Variant>& value) : type_(kTypeNull) {  // NOLINT
    value_.int64_value = 0;
    set_map(value);
  }
  /// A map of Variants made from each key and value.
  template <typename K, typename V>
  Variant(const std::map<K, V>& value) : type_(kTypeNull) {  // NOLINT
    value_.int64_value = 0;
    Clear(kTypeMap);
    for (typename std::map<K, V>::const_iterator it = value.begin(); it != value.end(); ++it) {
      value_.map_value->insert(std::make_pair(Variant(it->first), Variant(it->second)));
    }
  }
  /// Copies deep: strings, containers and mutable blobs are copied; static ones share their pointer.
  Variant(const Variant& other) : type_(kTypeNull) {
    value_.int64_value = 0;
    *this = other;
  }
  Variant& operator=(const Variant& other);
#if defined(FIREBASE_USE_MOVE_OPERATORS)
  /// Moves leave `other` null.
  Variant(Variant&& other) noexcept : type_(kTypeNull) {
    value_.int64_value = 0;
    *this = std::move(other);
  }
  Variant& operator=(Variant&& other) noexcept;
#endif
  ~Variant() { Clear(); }

  /// Equal when of the same type (all strings count as one type, all blobs as another) with equal
  /// values: strings by content, containers element by element, blobs by size and bytes.
  bool operator==(const Variant& other) const;
  /// A total order: by type (strings together, blobs together), then by value.
  bool operator<(const Variant& other) const;
  bool operator!=(const Variant& other) const { return !(*this == other); }
  bool operator>(const Variant& other) const { return other < *this; }
  bool operator>=(const Variant& other) const { return !(*this < other); }
  bool operator<=(const Variant& other) const { return !(*this > other); }

  /// Makes this an empty value of new_type (0, 0.0, false, "", empty container, no blob).
  void Clear(Type new_type = kTypeNull);

  static Variant Null() { return Variant(); }
  static Variant Zero() { return Variant::FromInt64(0L); }
  static Variant One() { return Variant::FromInt64(1L); }
  static Variant ZeroPointZero() { return Variant::FromDouble(0.0); }
  static Variant OnePointZero() { return Variant::FromDouble(1.0); }
  static Variant False() { return Variant::FromBool(false); }
  static Variant True() { return Variant::FromBool(true); }
  static Variant EmptyString() { return Variant::FromStaticString(""); }
  static Variant EmptyMutableString() {
    Variant v;
    v.Clear(kTypeMutableString);
    return v;
  }
  static Variant EmptyVector() {
    Variant v;
    v.Clear(kTypeVector);
    return v;
  }
  static Variant EmptyMap() {
    Variant v;
    v.Clear(kTypeMap);
    return v;
  }
  /// An owned blob of size_bytes zero bytes.
  static Variant EmptyMutableBlob(size_t size_bytes) {
    Variant v;
    v.set_mutable_blob(nullptr, size_bytes);
    return v;
  }

  Type type() const { return type_; }
  bool is_null() const { return type() == kTypeNull; }
  bool is_int64() const { return type() == kTypeInt64; }
  bool is_double() const { return type() == kTypeDouble; }
  bool is_bool() const { return type() == kTypeBool; }
  bool is_vector() const { return type() == kTypeVector; }
  bool is_map() const { return type() == kTypeMap; }
  bool is_static_string() const { return type() == kTypeStaticString; }
  bool is_mutable_string() const { return type() == kTypeMutableString; }
  bool is_string() const { return is_static_string() || is_mutable_string(); }
  bool is_static_blob() const { return type() == kTypeStaticBlob; }
  bool is_mutable_blob() const { return type() == kTypeMutableBlob; }
  bool is_blob() const { return is_static_blob() || is_mutable_blob(); }
  bool is_numeric() const { return is_int64() || is_double(); }
  /// Null, numbers, bools and strings.
  bool is_fundamental_type() const { return is_int64() || is_double() || is_string() || is_bool() || is_null(); }
  bool is_container_type() const { return is_vector() || is_map(); }

  /// Conversions of fundamental values (containers and blobs give "", 0, 0.0): AsString prints
  /// numbers ("%.16f" for doubles) and "true"/"false"; AsInt64 truncates doubles and parses strings
  /// (base 10); AsDouble parses strings; AsBool is false for null, 0, 0.0, false, "", "false", empty
  /// containers and empty blobs, true otherwise.
  Variant AsString() const;
  Variant AsInt64() const;
  Variant AsDouble() const;
  Variant AsBool() const;

  /// The owned string; a static string becomes an owned copy first.
  std::string& mutable_string() {
    if (type_ == kTypeStaticString) set_mutable_string(std::string(value_.static_string_value));
    assert_is_type(kTypeMutableString);
    return *value_.mutable_string_value;
  }
  size_t blob_size() const {
    assert_is_blob();
    return value_.blob_value.size;
  }
  const uint8_t* blob_data() const {
    assert_is_blob();
    return value_.blob_value.ptr;
  }
  /// The owned bytes; a static blob becomes an owned copy first.
  uint8_t* mutable_blob_data() {
    if (type_ == kTypeStaticBlob) set_mutable_blob(value_.blob_value.ptr, value_.blob_value.size);
    assert_is_type(kTypeMutableBlob);
    return const_cast<uint8_t*>(value_.blob_value.ptr);
  }
  uint8_t* mutable_blob_data() const {
    assert_is_type(kTypeMutableBlob);
    return const_cast<uint8_t*>(value_.blob_value.ptr);
  }
  std::vector<Variant>& vector() {
    assert_is_type(kTypeVector);
    return *value_.vector_value;
  }
  std::map<Variant, Variant>& map() {
    assert_is_type(kTypeMap);
    return *value_.map_value;
  }
  int64_t int64_value() const {
    assert_is_type(kTypeInt64);
    return value_.int64_value;
  }
  double double_value() const {
    assert_is_type(kTypeDouble);
    return value_.double_value;
  }
  const bool& bool_value() const {
    assert_is_type(kTypeBool);
    return value_.bool_value;
  }
  /// Either kind of string, NUL-terminated.
  const char* string_value() const {
    assert_is_string();
    return type_ == kTypeMutableString ? value_.mutable_string_value->c_str() : value_.static_string_value;
  }
  std::string mutable_string() const {
    assert_is_string();
    return string_value();
  }
  const std::vector<Variant>& vector() const {
    assert_is_type(kTypeVector);
    return *value_.vector_value;
  }
  const std::map<Variant, Variant>& map() const {
    assert_is_type(kTypeMap);
    return *value_.map_value;
  }

  void set_null() { Clear(kTypeNull); }
  void set_int64_value(int64_t value) {
    Clear(kTypeInt64);
    value_.int64_value = value;
  }
  void set_double_value(double value) {
    Clear(kTypeDouble);
    value_.double_value = value;
  }
  void set_bool_value(bool value) {
    Clear(kTypeBool);
    value_.bool_value = value;
  }
  /// Keeps the pointer (a static string).
  void set_string_value(const char* value) {
    Clear(kTypeStaticString);
    value_.static_string_value = value;
  }
  /// Copies the text (a mutable string).
  void set_string_value(char* value) { set_mutable_string(std::string(value)); }
  void set_string_value(const std::string& value) { set_mutable_string(value); }
  /// Copies the text. use_small_string only chose an internal representation in the SDK.
  void set_mutable_string(const std::string& value, bool use_small_string = true) {
    (void)use_small_string;
    Clear(kTypeMutableString);
    *value_.mutable_string_value = value;
  }
  /// Copies size_bytes bytes (zeros when src_data is null).
  void set_mutable_blob(const void* src_data, size_t size_bytes) {
    uint8_t* copy = new uint8_t[size_bytes > 0 ? size_bytes : 1]();
    if (src_data != nullptr && size_bytes > 0) std::memcpy(copy, src_data, size_bytes);
    Clear(kTypeMutableBlob);
    value_.blob_value.ptr = copy;
    value_.blob_value.size = size_bytes;
  }
  /// Keeps the pointer.
  void set_static_blob(const void* static_data, size_t size_bytes) {
    Clear(kTypeStaticBlob);
    value_.blob_value.ptr = static_cast<const uint8_t*>(static_data);
    value_.blob_value.size = size_bytes;
  }
  void set_vector(const std::vector<Variant>& value) {
    Clear(kTypeVector);
    *value_.vector_value = value;
  }
  void set_map(const std::map<Variant, Variant>& value) {
    Clear(kTypeMap);
    *value_.map_value = value;
  }
  /// Take ownership of a heap-allocated string, vector or map and set *pointer to NULL.
  void AssignMutableString(std::string** str) {
    Clear(kTypeNull);
    type_ = kTypeMutableString;
    value_.mutable_string_value = *str;
    *str = nullptr;
  }
  void AssignVector(std::vector<Variant>** vect) {
    Clear(kTypeNull);
    type_ = kTypeVector;
    value_.vector_value = *vect;
    *vect = nullptr;
  }
  void AssignMap(std::map<Variant, Variant>** map) {
    Clear(kTypeNull);
    type_ = kTypeMap;
    value_.map_value = *map;
    *map = nullptr;
  }

  static Variant FromInt64(int64_t value) { return Variant(value); }
  static Variant FromDouble(double value) { return Variant(value); }
  static Variant FromBool(bool value) { return Variant(value); }
  static Variant FromStaticString(const char* value) { return Variant(value); }
  static Variant FromMutableString(const std::string& value) { return Variant(value); }
  static Variant FromStaticBlob(const void* static_data, size_t size_bytes) {
    Variant v;
    v.set_static_blob(static_data, size_bytes);
    return v;
  }
  static Variant FromMutableBlob(const void* src_data, size_t size_bytes) {
    Variant v;
    v.set_mutable_blob(src_data, size_bytes);
    return v;
  }
  static Variant MutableStringFromStaticString(const char* value) {
    Variant v;
    v.set_mutable_string(std::string(value));
    return v;
  }

  /// "Null", "Int64", "Double", "Bool", "StaticString", "MutableString", "Vector", "Map", "StaticBlob",
  /// "MutableBlob" ("SmallString" for 10, the SDK's internal string type).
  static const char* TypeName(Type type) {
    static const char* const kNames[] = {"Null",   "Int64",      "Double",      "Bool",
                                         "StaticString", "MutableString", "Vector", "Map",
                                         "StaticBlob",   "MutableBlob",   "SmallString"};
    const int index = static_cast<int>(type);
    if (index < 0 || index >= static_cast<int>(sizeof(kNames) / sizeof(kNames[0]))) {
      hearth::compat::detail::AssertionFailed("Variant::TypeName: %d is not a Variant type.", index);
    }
    return kNames[index];
  }

 private:
  friend class firebase::internal::VariantInternal;

  void assert_is_type(Type type) const {
    if (type_ != type) {
      hearth::compat::detail::AssertionFailed("Expected Variant to be of type %s, but it was of type %s.",
                                              TypeName(type), TypeName(type_));
    }
  }
  void assert_is_string() const {
    if (!is_string()) {
      hearth::compat::detail::AssertionFailed("Expected Variant to be a String, but it was of type %s.", TypeName(type_));
    }
  }
  void assert_is_blob() const {
    if (!is_blob()) {
      hearth::compat::detail::AssertionFailed("Expected Variant to be a Blob, but it was of type %s.", TypeName(type_));
    }
  }

  // Only the types listed at Variant(T) have a definition; others fail to compile.
  template <typename T>
  void set_value_t(T value) = delete;

  static int CompareBytes(const uint8_t* a, const uint8_t* b, size_t size) {
    return size == 0 ? 0 : std::memcmp(a, b, size);
  }

  Type type_;
  union Value {
    int64_t int64_value;
    double double_value;
    bool bool_value;
    const char* static_string_value;
    std::string* mutable_string_value;
    std::vector<Variant>* vector_value;
    std::map<Variant, Variant>* map_value;
    struct {
      const uint8_t* ptr;
      size_t size;
    } blob_value;
  } value_;
};

template <>
inline void Variant::set_value_t<int64_t>(int64_t value) {
  set_int64_value(value);
}
template <>
inline void Variant::set_value_t<int>(int value) {
  set_int64_value(static_cast<int64_t>(value));
}
template <>
inline void Variant::set_value_t<int16_t>(int16_t value) {
  set_int64_value(static_cast<int64_t>(value));
}
template <>
inline void Variant::set_value_t<uint8_t>(uint8_t value) {
  set_int64_value(static_cast<int64_t>(value));
}
template <>
inline void Variant::set_value_t<int8_t>(int8_t value) {
  set_int64_value(static_cast<int64_t>(value));
}
template <>
inline void Variant::set_value_t<char>(char value) {
  set_int64_value(static_cast<int64_t>(value));
}
template <>
inline void Variant::set_value_t<double>(double value) {
  set_double_value(value);
}
template <>
inline void Variant::set_value_t<float>(float value) {
  set_double_value(static_cast<double>(value));
}
template <>
inline void Variant::set_value_t<bool>(bool value) {
  set_bool_value(value);
}
template <>
inline void Variant::set_value_t<const char*>(const char* value) {
  set_string_value(value);
}
template <>
inline void Variant::set_value_t<char*>(char* value) {
  set_mutable_string(std::string(value));
}

inline void Variant::Clear(Type new_type) {
  // An owned container or string of the same type is emptied and kept, so references to it stay valid.
  if (type_ == new_type) {
    switch (type_) {
      case kTypeMutableString:
        value_.mutable_string_value->clear();
        return;
      case kTypeVector:
        value_.vector_value->clear();
        return;
      case kTypeMap:
        value_.map_value->clear();
        return;
      default:
        break;
    }
  }
  switch (type_) {
    case kTypeMutableString:
      delete value_.mutable_string_value;
      break;
    case kTypeVector:
      delete value_.vector_value;
      break;
    case kTypeMap:
      delete value_.map_value;
      break;
    case kTypeMutableBlob:
      delete[] value_.blob_value.ptr;
      break;
    default:
      break;
  }
  type_ = new_type;
  switch (new_type) {
    case kTypeNull:
    case kTypeInt64:
      value_.int64_value = 0;
      break;
    case kTypeDouble:
      value_.double_value = 0.0;
      break;
    case kTypeBool:
      value_.bool_value = false;
      break;
    case kTypeStaticString:
      value_.static_string_value = "";
      break;
    case kTypeMutableString:
      value_.mutable_string_value = new std::string();
      break;
    case kTypeVector:
      value_.vector_value = new std::vector<Variant>();
      break;
    case kTypeMap:
      value_.map_value = new std::map<Variant, Variant>();
      break;
    case kTypeStaticBlob:
    case kTypeMutableBlob:
      value_.blob_value.ptr = nullptr;
      value_.blob_value.size = 0;
      break;
    default:
      type_ = kTypeNull;
      value_.int64_value = 0;
      hearth::compat::detail::AssertionFailed("Variant::Clear: %d is not a Variant type.", static_cast<int>(new_type));
  }
}

inline Variant& Variant::operator=(const Variant& other) {
  if (this == &other) return *this;
  switch (other.type_) {
    case kTypeNull:
      set_null();
      break;
    case kTypeInt64:
      set_int64_value(other.value_.int64_value);
      break;
    case kTypeDouble:
      set_double_value(other.value_.double_value);
      break;
    case kTypeBool:
      set_bool_value(other.value_.bool_value);
      break;
    case kTypeStaticString:
      set_string_value(other.value_.static_string_value);
      break;
    case kTypeMutableString:
      set_mutable_string(*other.value_.mutable_string_value);
      break;
    case kTypeVector:
      set_vector(*other.value_.vector_value);
      break;
    case kTypeMap:
      set_map(*other.value_.map_value);
      break;
    case kTypeStaticBlob:
      set_static_blob(other.value_.blob_value.ptr, other.value_.blob_value.size);
      break;
    case kTypeMutableBlob:
      set_mutable_blob(other.value_.blob_value.ptr, other.value_.blob_value.size);
      break;
  }
  return *this;
}

#if defined(FIREBASE_USE_MOVE_OPERATORS)
inline Variant& Variant::operator=(Variant&& other) noexcept {
  if (this == &other) return *this;
  Clear();
  type_ = other.type_;
  value_ = other.value_;
  // The pointers now belong to this Variant.
  other.type_ = kTypeNull;
  other.value_.int64_value = 0;
  return *this;
}
#endif

inline bool Variant::operator==(const Variant& other) const {
  if (is_string() && other.is_string()) return std::strcmp(string_value(), other.string_value()) == 0;
  if (is_blob() && other.is_blob()) {
    if (value_.blob_value.size != other.value_.blob_value.size) return false;
    return (is_static_blob() && other.is_static_blob() && value_.blob_value.ptr == other.value_.blob_value.ptr) ||
           CompareBytes(value_.blob_value.ptr, other.value_.blob_value.ptr, value_.blob_value.size) == 0;
  }
  if (type_ != other.type_) return false;
  switch (type_) {
    case kTypeNull:
      return true;
    case kTypeInt64:
      return value_.int64_value == other.value_.int64_value;
    case kTypeDouble:
      return value_.double_value == other.value_.double_value;
    case kTypeBool:
      return value_.bool_value == other.value_.bool_value;
    case kTypeVector:
      return *value_.vector_value == *other.value_.vector_value;
    case kTypeMap:
      return *value_.map_value == *other.value_.map_value;
    default:
      return false;
  }
}

inline bool Variant::operator<(const Variant& other) const {
  // Strings rank as static strings and blobs as static blobs, whatever their kind.
  const Type left = is_string() ? kTypeStaticString : is_blob() ? kTypeStaticBlob : type_;
  const Type right = other.is_string() ? kTypeStaticString : other.is_blob() ? kTypeStaticBlob : other.type_;
  if (left != right) return static_cast<int>(left) < static_cast<int>(right);
  switch (left) {
    case kTypeNull:
      return false;
    case kTypeInt64:
      return value_.int64_value < other.value_.int64_value;
    case kTypeDouble:
      return value_.double_value < other.value_.double_value;
    case kTypeBool:
      return value_.bool_value < other.value_.bool_value;
    case kTypeStaticString:
      return std::strcmp(string_value(), other.string_value()) < 0;
    case kTypeVector: {
      const std::vector<Variant>& a = *value_.vector_value;
      const std::vector<Variant>& b = *other.value_.vector_value;
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] != b[i]) return a[i] < b[i];
      }
      return a.size() < b.size();
    }
    case kTypeMap: {
      auto i = value_.map_value->begin();
      auto j = other.value_.map_value->begin();
      for (; i != value_.map_value->end() && j != other.value_.map_value->end(); ++i, ++j) {
        if (i->first != j->first) return i->first < j->first;
        if (i->second != j->second) return i->second < j->second;
      }
      return i == value_.map_value->end() && j != other.value_.map_value->end();
    }
    case kTypeStaticBlob: {
      const size_t a = value_.blob_value.size;
      const size_t b = other.value_.blob_value.size;
      if (a != b) return a < b;
      return CompareBytes(value_.blob_value.ptr, other.value_.blob_value.ptr, a) < 0;
    }
    default:
      return false;
  }
}

inline Variant Variant::AsString() const {
  char buffer[64];
  switch (type_) {
    case kTypeInt64:
      std::snprintf(buffer, sizeof buffer, "%lld", static_cast<long long>(value_.int64_value));
      return Variant::FromMutableString(buffer);
    case kTypeDouble:
      std::snprintf(buffer, sizeof buffer, "%.16f", value_.double_value);
      return Variant::FromMutableString(buffer);
    case kTypeBool:
      return value_.bool_value ? Variant("true") : Variant("false");
    case kTypeStaticString:
    case kTypeMutableString:
      return *this;
    default:
      return Variant::EmptyString();
  }
}

inline Variant Variant::AsInt64() const {
  switch (type_) {
    case kTypeInt64:
      return *this;
    case kTypeDouble:
      return Variant::FromInt64(static_cast<int64_t>(value_.double_value));
    case kTypeBool:
      return value_.bool_value ? Variant::One() : Variant::Zero();
    case kTypeStaticString:
    case kTypeMutableString:
      return Variant::FromInt64(static_cast<int64_t>(std::strtol(string_value(), nullptr, 10)));
    default:
      return Variant::Zero();
  }
}

inline Variant Variant::AsDouble() const {
  switch (type_) {
    case kTypeInt64:
      return Variant::FromDouble(static_cast<double>(value_.int64_value));
    case kTypeDouble:
      return *this;
    case kTypeBool:
      return value_.bool_value ? Variant::OnePointZero() : Variant::ZeroPointZero();
    case kTypeStaticString:
    case kTypeMutableString:
      return Variant::FromDouble(std::strtod(string_value(), nullptr));
    default:
      return Variant::ZeroPointZero();
  }
}

inline Variant Variant::AsBool() const {
  const bool falsy = *this == Variant::Null() || *this == Variant::Zero() || *this == Variant::ZeroPointZero() ||
                     *this == Variant::False() || *this == Variant::EmptyString() || *this == Variant::EmptyVector() ||
                     *this == Variant::EmptyMap() || *this == Variant("false") ||
                     (is_blob() && value_.blob_value.size == 0);
  return falsy ? Variant::False() : Variant::True();
}

}  // namespace firebase

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_VARIANT_H_
