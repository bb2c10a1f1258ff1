// SPDX-License-Identifier: MIT
// The reports' JSON writer against nlohmann's dump(): the same random documents written both ways
// must be the same text, so changing the writer never changes a report's bytes.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "support/json_writer.hpp"

using fitcheck::detail::JsonWriter;
using Json = nlohmann::ordered_json;

namespace {

struct Generator {
  std::mt19937_64 engine{20261130};
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(engine); }

  double number() {
    switch (pick(0, 9)) {
      case 0:
        return static_cast<double>(pick(-1000, 1000));  // whole: "12.0"
      case 1:
        return std::ldexp(static_cast<double>(engine() >> 11), pick(-80, 80));  // any magnitude
      case 2:
        return 1.0 / pick(1, 97);
      case 3:
        return pick(0, 1) ? 0.0 : -0.0;
      case 4:
        return std::pow(10.0, pick(-8, 22));  // around the fixed/exponent switch (1e-5, 1e15)
      case 5:
        return std::numeric_limits<double>::denorm_min() * pick(1, 5);
      case 6:
        return std::numeric_limits<double>::max();
      default:
        return std::uniform_real_distribution<double>(-1e9, 1e9)(engine);
    }
  }

  std::string text() {
    static const char* pieces[] = {"a",
                                   "GiB",
                                   " ",
                                   "\"",
                                   "\\",
                                   "\n",
                                   "\t",
                                   "\b",
                                   "\f",
                                   "\r",
                                   "\x01",
                                   "\x1f",
                                   "\x7f",
                                   "/",
                                   "\xC3\xA9",
                                   "\xE2\x89\xA4",
                                   "\xF0\x9F\x98\x80",
                                   "x"};
    std::string out;
    for (int i = pick(0, 8); i > 0; --i) out += pieces[pick(0, static_cast<int>(std::size(pieces)) - 1)];
    return out;
  }

  // One value written both ways; depth bounds the nesting.
  Json value(JsonWriter& writer, const std::string* key, int depth) {
    const int kind = depth > 3 ? pick(0, 6) : pick(0, 8);
    const auto scalar = [&](auto v) {
      if (key)
        writer.field(*key, v);
      else
        writer.element(v);
      return Json(v);
    };
    switch (kind) {
      case 0:
        return scalar(pick(0, 1) == 1);
      case 1:
        return scalar(static_cast<std::int64_t>(engine()));
      case 2:
        return scalar(static_cast<std::uint64_t>(engine()));
      case 3:
        return scalar(pick(-5, 5));
      case 4:
        return scalar(number());
      case 5: {
        const std::string s = text();
        if (key)
          writer.field(*key, s);
        else
          writer.element(s);
        return Json(s);
      }
      case 6: {
        if (!key) return scalar(std::size_t{7});
        std::vector<std::string> list;
        for (int i = pick(0, 3); i > 0; --i) list.push_back(text());
        writer.field(*key, list);
        return Json(list);
      }
      case 7: {
        if (key)
          writer.begin_array(*key);
        else
          writer.begin_array();
        Json array = Json::array();
        for (int i = pick(0, 4); i > 0; --i) array.push_back(value(writer, nullptr, depth + 1));
        writer.end_array();
        return array;
      }
      default: {
        if (key)
          writer.begin_object(*key);
        else
          writer.begin_object();
        Json object = Json::object();
        for (int i = pick(0, 5); i > 0; --i) {
          const std::string member = "k" + std::to_string(i) + text();
          object[member] = value(writer, &member, depth + 1);
        }
        writer.end_object();
        return object;
      }
    }
  }
};

}  // namespace

TEST_CASE("the JSON writer writes what nlohmann's dump() writes, over 2,000 random documents") {
  Generator generator;
  for (int i = 0; i < 2000; ++i) {
    JsonWriter writer;
    writer.begin_object();
    Json expected = Json::object();
    for (int j = generator.pick(0, 6); j > 0; --j) {
      const std::string key = "m" + std::to_string(j);
      expected[key] = generator.value(writer, &key, 0);
    }
    writer.end_object();
    const std::string written = writer.take();
    REQUIRE(written == expected.dump());
    CHECK(Json::parse(written) == expected);
  }
}

TEST_CASE("the JSON writer: NaN and infinities are refused, null is null, a bad UTF-8 byte becomes U+FFFD") {
  JsonWriter refusing;
  refusing.begin_object();
  CHECK_THROWS_AS(refusing.field("nan", std::nan("")), std::domain_error);
  CHECK_THROWS_AS(refusing.field("inf", -std::numeric_limits<double>::infinity()), std::domain_error);
  CHECK_THROWS_AS(refusing.element(std::numeric_limits<double>::infinity()), std::domain_error);
  JsonWriter writer;
  writer.begin_object();
  writer.field("none", nullptr);
  writer.field("bad", std::string_view("a\xFF"
                                       "b\xC3"));
  writer.field("surrogate", std::string_view("\xED\xA0\x80"));
  writer.field("numbers", std::vector<std::int64_t>{1, -2, 3});
  writer.end_object();
  CHECK(writer.take() ==
        "{\"none\":null,\"bad\":\"a\xEF\xBF\xBD"
        "b\xEF\xBF\xBD\","
        "\"surrogate\":\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\",\"numbers\":[1,-2,3]}");
}
