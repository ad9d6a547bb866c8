// firebase::Variant: what each constructor makes, conversions, comparisons and ordering, ownership.
#include <csignal>
#include <cstring>

#include "compat_support.h"

using firebase::Variant;
using namespace compat_test;

HEARTH_TEST(testEachConstructorMakesItsType) {
  CHECK(Variant().is_null());
  CHECK(Variant(42).is_int64() && Variant(42).int64_value() == 42);
  CHECK(Variant(static_cast<int64_t>(1) << 40).int64_value() == (static_cast<int64_t>(1) << 40));
  CHECK(Variant(static_cast<int16_t>(-3)).int64_value() == -3);
  CHECK(Variant(static_cast<uint8_t>(200)).int64_value() == 200);
  CHECK(Variant('A').is_int64() && Variant('A').int64_value() == 65);
  CHECK(Variant(2.5).is_double() && Variant(2.5f).double_value() == 2.5);
  CHECK(Variant(true).is_bool() && Variant(true).bool_value());
  const char* text = "static text";
  const Variant static_string(text);
  CHECK(static_string.is_static_string() && static_string.string_value() == text);  // the pointer is kept
  char buffer[] = "mutable text";
  const Variant copied(buffer);
  buffer[0] = 'X';
  CHECK(copied.is_mutable_string());
  CHECK_EQ(std::string(copied.string_value()), std::string("mutable text"));
  CHECK(Variant(std::string("s")).is_mutable_string());
  CHECK(Variant::FromMutableString("m").is_mutable_string() && Variant::FromStaticString("s").is_static_string());
  CHECK(Variant::MutableStringFromStaticString("x").is_mutable_string());

  const Variant numbers(std::vector<int>{1, 2, 3});
  REQUIRE(numbers.is_vector());
  CHECK_EQ(numbers.vector().size(), 3u);
  CHECK(numbers.vector()[2] == Variant(3) && numbers.vector()[2].is_int64());
  const double values[] = {0.5, 1.5};
  const Variant from_array(values, 2);
  CHECK(from_array.is_vector() && from_array.vector().size() == 2 && from_array.vector()[1] == Variant(1.5));
  const Variant map(std::map<std::string, int>{{"a", 1}, {"b", 2}});
  REQUIRE(map.is_map());
  CHECK(map.map().at(Variant("b")) == Variant(2));
  CHECK(map.map().begin()->first.is_mutable_string());
  CHECK(Variant(std::vector<Variant>{Variant(1), Variant("x")}).vector()[1].is_string());
  CHECK(Variant::EmptyVector().is_vector() && Variant::EmptyMap().is_map() && Variant::EmptyMutableString().is_mutable_string());
  CHECK(Variant::Zero() == Variant(0) && Variant::One() == Variant(1) && Variant::OnePointZero() == Variant(1.0));
  CHECK(Variant::True().bool_value() && !Variant::False().bool_value() && Variant::Null().is_null());
  CHECK(Variant::EmptyString().is_static_string() && std::strlen(Variant::EmptyString().string_value()) == 0);
}

HEARTH_TEST(testTypePredicates) {
  CHECK(Variant(1).is_numeric() && Variant(1.0).is_numeric() && !Variant("1").is_numeric());
  CHECK(Variant(1).is_fundamental_type() && Variant("a").is_fundamental_type() && Variant().is_fundamental_type());
  CHECK(!Variant::EmptyVector().is_fundamental_type() && Variant::EmptyMap().is_container_type());
  CHECK(Variant::FromStaticBlob("ab", 2).is_blob() && Variant::FromMutableBlob("ab", 2).is_mutable_blob());
  CHECK(Variant::FromStaticBlob("ab", 2).is_static_blob());
  CHECK_EQ(Variant(1).type(), Variant::kTypeInt64);
  CHECK_EQ(std::string(Variant::TypeName(Variant::kTypeMutableBlob)), std::string("MutableBlob"));
  CHECK_EQ(std::string(Variant::TypeName(Variant::kTypeNull)), std::string("Null"));
  CHECK_EQ(std::string(Variant::TypeName(static_cast<Variant::Type>(10))), std::string("SmallString"));
}

HEARTH_TEST(testEqualityComparesValuesAcrossStringAndBlobKinds) {
  CHECK(Variant("abc") == Variant(std::string("abc")));
  CHECK(Variant("abc") != Variant("abd"));
  CHECK(Variant(1) != Variant(1.0));  // different types
  CHECK(Variant(1.0) == Variant(1.0f));
  const char bytes[] = {1, 2, 3};
  CHECK(Variant::FromStaticBlob(bytes, 3) == Variant::FromMutableBlob(bytes, 3));
  CHECK(Variant::FromStaticBlob(bytes, 3) != Variant::FromStaticBlob(bytes, 2));
  CHECK(Variant(std::vector<int>{1, 2}) == Variant(std::vector<int64_t>{1, 2}));
  CHECK(Variant(std::vector<int>{1, 2}) != Variant(std::vector<int>{2, 1}));
  CHECK(Variant(std::map<std::string, int>{{"k", 1}}) == Variant(std::map<std::string, int>{{"k", 1}}));
  CHECK(Variant() == Variant::Null());
}

HEARTH_TEST(testOrderingIsByTypeThenValue) {
  // Null < Int64 < Double < Bool < strings < Vector < Map < blobs.
  const std::vector<Variant> ordered = {Variant(),
                                        Variant(-5),
                                        Variant(7),
                                        Variant(-1.5),
                                        Variant(false),
                                        Variant(true),
                                        Variant("apple"),
                                        Variant(std::string("banana")),
                                        Variant(std::vector<int>{1}),
                                        Variant(std::vector<int>{1, 0}),
                                        Variant(std::vector<int>{2}),
                                        Variant(std::map<std::string, int>{{"a", 1}}),
                                        Variant::FromMutableBlob("a", 1),
                                        Variant::FromStaticBlob("ab", 2)};
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      if ((ordered[i] < ordered[j]) != (i < j)) {
        ::hearth_test::RecordFailure(__FILE__, __LINE__, "order of " + std::to_string(i) + " and " + std::to_string(j));
      }
    }
    CHECK(ordered[i] <= ordered[i] && ordered[i] >= ordered[i] && !(ordered[i] > ordered[i]));
  }
  // So a map keyed by Variants holds mixed keys in that order, and finds strings of either kind.
  std::map<Variant, Variant> mixed;
  mixed[Variant("key")] = Variant(1);
  mixed[Variant(3)] = Variant(2);
  mixed[Variant()] = Variant(3);
  CHECK(mixed.begin()->first.is_null());
  CHECK(mixed.at(Variant(std::string("key"))) == Variant(1));
}

HEARTH_TEST(testConversions) {
  CHECK_EQ(std::string(Variant(42).AsString().string_value()), std::string("42"));
  CHECK_EQ(std::string(Variant(-7).AsString().string_value()), std::string("-7"));
  CHECK_EQ(std::string(Variant(0.5).AsString().string_value()), std::string("0.5000000000000000"));
  CHECK_EQ(std::string(Variant(true).AsString().string_value()), std::string("true"));
  CHECK(Variant("same").AsString() == Variant("same"));
  CHECK(Variant::EmptyVector().AsString() == Variant::EmptyString());
  CHECK(Variant(3.9).AsInt64() == Variant(3) && Variant(-3.9).AsInt64() == Variant(-3));
  CHECK(Variant(true).AsInt64() == Variant::One() && Variant("12abc").AsInt64() == Variant(12));
  CHECK(Variant("nope").AsInt64() == Variant::Zero() && Variant::EmptyMap().AsInt64() == Variant::Zero());
  CHECK(Variant(2).AsDouble() == Variant(2.0) && Variant("2.25").AsDouble() == Variant(2.25));
  CHECK(Variant(false).AsDouble() == Variant::ZeroPointZero());
  for (const Variant& falsy : {Variant(), Variant(0), Variant(0.0), Variant(false), Variant(""), Variant("false"),
                               Variant::EmptyVector(), Variant::EmptyMap(), Variant::FromStaticBlob("", 0)}) {
    CHECK(falsy.AsBool() == Variant::False());
  }
  for (const Variant& truthy : {Variant(1), Variant(-0.5), Variant(true), Variant("no"), Variant("0"),
                                Variant(std::vector<int>{0}), Variant::FromStaticBlob("x", 1)}) {
    CHECK(truthy.AsBool() == Variant::True());
  }
}

HEARTH_TEST(testCopiesAreDeepAndMovesLeaveNull) {
  Variant original(std::vector<int>{1, 2});
  Variant copy = original;
  copy.vector().push_back(Variant(3));
  CHECK_EQ(original.vector().size(), 2u);
  CHECK_EQ(copy.vector().size(), 3u);
  const char* text = "shared";
  Variant static_copy = Variant(text);
  CHECK(static_copy.string_value() == text);
  Variant moved = std::move(copy);
  CHECK(moved.vector().size() == 3u);
  CHECK(copy.is_null());  // NOLINT: moved-from state is specified
  Variant assigned;
  assigned = original;
  CHECK(assigned == original);
  assigned = Variant::FromMutableBlob("xyz", 3);
  CHECK(assigned.is_mutable_blob() && assigned.blob_size() == 3);
}

HEARTH_TEST(testMutableAccessorsPromoteStaticValues) {
  Variant text("static");
  std::string& owned = text.mutable_string();
  CHECK(text.is_mutable_string());
  owned += "!";
  CHECK_EQ(std::string(text.string_value()), std::string("static!"));
  const char bytes[] = {9, 8};
  Variant blob = Variant::FromStaticBlob(bytes, 2);
  uint8_t* data = blob.mutable_blob_data();
  CHECK(blob.is_mutable_blob() && data != reinterpret_cast<const uint8_t*>(bytes) && data[0] == 9);
  data[0] = 1;
  CHECK_EQ(static_cast<int>(bytes[0]), 9);
  Variant zeros = Variant::EmptyMutableBlob(4);
  CHECK(zeros.blob_size() == 4 && zeros.blob_data()[3] == 0);
  // Clearing to the same container type empties it in place.
  Variant list(std::vector<int>{1});
  std::vector<Variant>& items = list.vector();
  list.Clear(Variant::kTypeVector);
  CHECK(items.empty() && &items == &list.vector());
  list.set_int64_value(5);
  CHECK(list == Variant(5));
  list.set_string_value(std::string("s"));
  CHECK(list.is_mutable_string());
  list.set_null();
  CHECK(list.is_null());
}

HEARTH_TEST(testAssignTakesOwnership) {
  Variant v;
  std::string* text = new std::string("taken");
  v.AssignMutableString(&text);
  CHECK(text == nullptr && v.is_mutable_string());
  auto* items = new std::vector<Variant>{Variant(1)};
  v.AssignVector(&items);
  CHECK(items == nullptr && v.is_vector() && v.vector().size() == 1);
  auto* map = new std::map<Variant, Variant>{{Variant("k"), Variant(2)}};
  v.AssignMap(&map);
  CHECK(map == nullptr && v.is_map() && v.map().size() == 1);
}

HEARTH_TEST(testReadingTheWrongTypeAssertsAndAborts) {
  // As the SDK's desktop build: an "ASSERT:" line naming both types, then abort.
  const ChildOutcome outcome = RunInChild([] {
    const Variant text("not a number");
    std::printf("%lld\n", static_cast<long long>(text.int64_value()));
  });
  CHECK_EQ(outcome.signal, SIGABRT);
  CHECK(outcome.out.find("ASSERT: Expected Variant to be of type Int64, but it was of type StaticString.") !=
        std::string::npos);
  const ChildOutcome map_outcome = RunInChild([] { std::printf("%zu\n", Variant(1).map().size()); });
  CHECK_EQ(map_outcome.signal, SIGABRT);
  CHECK(map_outcome.out.find("to be of type Map, but it was of type Int64") != std::string::npos);
  const ChildOutcome string_outcome = RunInChild([] { std::printf("%s\n", Variant(1.5).string_value()); });
  CHECK_EQ(string_outcome.signal, SIGABRT);
  CHECK(string_outcome.out.find("Expected Variant to be a String, but it was of type Double.") != std::string::npos);
}
