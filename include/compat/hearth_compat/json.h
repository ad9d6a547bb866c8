/*
 * hearth_compat/json.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * JSON text (RFC 8259) to firebase::Variant, as the Firebase SDK turns an identity provider's profile
 * and google-services.json into values: objects -> maps keyed by mutable strings, arrays -> vectors,
 * strings -> mutable strings, whole numbers that fit -> Int64, other numbers -> Double, true/false,
 * null. Malformed text, invalid UTF-8 or nesting deeper than 256 levels is refused with a reason,
 * never a crash.
 */
#ifndef HEARTH_COMPAT_JSON_H
#define HEARTH_COMPAT_JSON_H

#include <charconv>
#include <cstdint>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "firebase/variant.h"

namespace hearth {
namespace compat {
namespace detail {

class JsonReader {
 public:
  static constexpr int kMaxDepth = 256;

  explicit JsonReader(const std::string& text) : at_(text.data()), begin_(text.data()), end_(text.data() + text.size()) {}

  // Parses the whole text into *out; false with *problem set when it is not one JSON value.
  bool Read(firebase::Variant* out, std::string* problem) {
    SkipSpace();
    if (!Value(out, 0)) {
      *problem = problem_ + " at offset " + std::to_string(at_ - begin_);
      return false;
    }
    SkipSpace();
    if (at_ != end_) {
      *problem = "text after the JSON value at offset " + std::to_string(at_ - begin_);
      return false;
    }
    return true;
  }

 private:
  bool Fail(const char* why) {
    if (problem_.empty()) problem_ = why;
    return false;
  }

  void SkipSpace() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r')) ++at_;
  }

  bool Literal(const char* word) {
    const char* p = at_;
    for (; *word; ++word, ++p) {
      if (p >= end_ || *p != *word) return Fail("unknown literal");
    }
    at_ = p;
    return true;
  }

  bool Value(firebase::Variant* out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting too deep");
    if (at_ >= end_) return Fail("unexpected end of text");
    switch (*at_) {
      case '{':
        return Object(out, depth);
      case '[':
        return Array(out, depth);
      case '"': {
        std::string text;
        if (!String(&text)) return false;
        out->set_mutable_string(text);
        return true;
      }
      case 't':
        if (!Literal("true")) return false;
        out->set_bool_value(true);
        return true;
      case 'f':
        if (!Literal("false")) return false;
        out->set_bool_value(false);
        return true;
      case 'n':
        if (!Literal("null")) return false;
        out->set_null();
        return true;
      default:
        return Number(out);
    }
  }

  bool Object(firebase::Variant* out, int depth) {
    ++at_;  // '{'
    out->Clear(firebase::Variant::kTypeMap);
    SkipSpace();
    if (at_ < end_ && *at_ == '}') {
      ++at_;
      return true;
    }
    for (;;) {
      SkipSpace();
      std::string key;
      if (at_ >= end_ || *at_ != '"') return Fail("expected a string key");
      if (!String(&key)) return false;
      SkipSpace();
      if (at_ >= end_ || *at_ != ':') return Fail("expected ':'");
      ++at_;
      SkipSpace();
      firebase::Variant value;
      if (!Value(&value, depth + 1)) return false;
      // A repeated key keeps its last value, as most JSON readers do.
      out->map()[firebase::Variant::FromMutableString(key)] = std::move(value);
      SkipSpace();
      if (at_ < end_ && *at_ == ',') {
        ++at_;
        continue;
      }
      if (at_ < end_ && *at_ == '}') {
        ++at_;
        return true;
      }
      return Fail("expected ',' or '}'");
    }
  }

  bool Array(firebase::Variant* out, int depth) {
    ++at_;  // '['
    out->Clear(firebase::Variant::kTypeVector);
    SkipSpace();
    if (at_ < end_ && *at_ == ']') {
      ++at_;
      return true;
    }
    for (;;) {
      SkipSpace();
      firebase::Variant value;
      if (!Value(&value, depth + 1)) return false;
      out->vector().push_back(std::move(value));
      SkipSpace();
      if (at_ < end_ && *at_ == ',') {
        ++at_;
        continue;
      }
      if (at_ < end_ && *at_ == ']') {
        ++at_;
        return true;
      }
      return Fail("expected ',' or ']'");
    }
  }

  bool Number(firebase::Variant* out) {
    const char* start = at_;
    bool integral = true;
    if (at_ < end_ && *at_ == '-') ++at_;
    if (at_ >= end_ || *at_ < '0' || *at_ > '9') return Fail("expected a value");
    if (*at_ == '0') {
      ++at_;
    } else {
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    if (at_ < end_ && *at_ == '.') {
      integral = false;
      ++at_;
      if (at_ >= end_ || *at_ < '0' || *at_ > '9') return Fail("expected a digit after '.'");
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    if (at_ < end_ && (*at_ == 'e' || *at_ == 'E')) {
      integral = false;
      ++at_;
      if (at_ < end_ && (*at_ == '+' || *at_ == '-')) ++at_;
      if (at_ >= end_ || *at_ < '0' || *at_ > '9') return Fail("expected a digit in the exponent");
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
    }
    if (integral) {
      int64_t value = 0;
      const auto parsed = std::from_chars(start, at_, value);
      if (parsed.ec == std::errc() && parsed.ptr == at_) {
        out->set_int64_value(value);
        return true;
      }
      // Too large for Int64: kept as a Double, like any other number.
    }
    // strtod would follow the C locale's decimal point; JSON's is always '.'.
    double value = 0;
    const auto parsed = std::from_chars(start, at_, value);
    if (parsed.ptr != at_) return Fail("malformed number");
    out->set_double_value(value);
    return true;
  }

  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool Hex4(uint32_t* value) {
    if (end_ - at_ < 4) return Fail("short \\u escape");
    uint32_t result = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = HexDigit(at_[i]);
      if (digit < 0) return Fail("bad \\u escape");
      result = (result << 4) | static_cast<uint32_t>(digit);
    }
    at_ += 4;
    *value = result;
    return true;
  }

  static void AppendUtf8(uint32_t code_point, std::string* out) {
    if (code_point < 0x80) {
      out->push_back(static_cast<char>(code_point));
    } else if (code_point < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else if (code_point < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    }
  }

  // Copies one UTF-8 sequence starting at at_ (a lead byte >= 0x80), checking it is well formed.
  bool Utf8Sequence(std::string* out) {
    const unsigned char lead = static_cast<unsigned char>(*at_);
    int length;
    uint32_t minimum;
    uint32_t code_point;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
      minimum = 0x80;
      code_point = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      minimum = 0x800;
      code_point = lead & 0x0F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      minimum = 0x10000;
      code_point = lead & 0x07;
    } else {
      return Fail("invalid UTF-8");
    }
    if (end_ - at_ < length) return Fail("invalid UTF-8");
    for (int i = 1; i < length; ++i) {
      const unsigned char next = static_cast<unsigned char>(at_[i]);
      if ((next & 0xC0) != 0x80) return Fail("invalid UTF-8");
      code_point = (code_point << 6) | (next & 0x3F);
    }
    if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
      return Fail("invalid UTF-8");
    }
    out->append(at_, static_cast<size_t>(length));
    at_ += length;
    return true;
  }

  bool String(std::string* out) {
    ++at_;  // '"'
    while (at_ < end_) {
      const char c = *at_;
      if (c == '"') {
        ++at_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in a string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        if (!Utf8Sequence(out)) return false;
        continue;
      }
      ++at_;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (at_ >= end_) return Fail("unterminated escape");
      const char escape = *at_++;
      switch (escape) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t code_point = 0;
          if (!Hex4(&code_point)) return false;
          if (code_point >= 0xDC00 && code_point <= 0xDFFF) return Fail("lone low surrogate");
          if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            uint32_t low = 0;
            if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u') return Fail("lone high surrogate");
            at_ += 2;
            if (!Hex4(&low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return Fail("lone high surrogate");
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code_point, out);
          break;
        }
        default:
          return Fail("unknown escape");
      }
    }
    return Fail("unterminated string");
  }

  const char* at_;
  const char* const begin_;
  const char* const end_;
  std::string problem_;
};

// Parses JSON text; false (with the reason in *problem when given) for anything that is not JSON.
inline bool ParseJson(const std::string& text, firebase::Variant* out, std::string* problem = nullptr) {
  std::string why;
  firebase::Variant value;
  if (!JsonReader(text).Read(&value, &why)) {
    if (problem) *problem = why;
    return false;
  }
  *out = std::move(value);
  return true;
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

#endif  // HEARTH_COMPAT_JSON_H
