#include "core/json.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace parley {
namespace {

TEST(FieldReader, NamesTheFieldInEveryError) {
  auto doc = parse_json_object(R"({"message": 5, "title": "héllo", "flag": "yes"})");
  ASSERT_TRUE(doc.ok());
  FieldReader f(*doc);
  auto wrong_type = f.required_string("message");
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.error().code, ErrorCode::kInvalidRequest);
  EXPECT_NE(wrong_type.error().message.find("'message'"), std::string::npos);
  auto missing = f.required_string("content");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("'content'"), std::string::npos);
  auto flag = f.optional_bool("flag");
  ASSERT_FALSE(flag.ok());
  EXPECT_NE(flag.error().message.find("'flag'"), std::string::npos);
}

TEST(FieldReader, CountsCodePointsNotBytes) {
  auto doc = parse_json_object(R"({"title": "ééééé"})");
  FieldReader f(*doc);
  EXPECT_TRUE(f.required_string("title", 5).ok());
  EXPECT_FALSE(f.required_string("title", 4).ok());
  EXPECT_EQ(utf8_length("ééééé"), 5u);
  EXPECT_EQ(utf8_length("😀"), 1u);
}

TEST(Json, RejectsNonObjects) {
  EXPECT_FALSE(parse_json_object("[1,2]").ok());
  EXPECT_FALSE(parse_json_object("{").ok());
  EXPECT_FALSE(parse_json_object("").ok());
  EXPECT_TRUE(parse_json_object("{}").ok());
}

TEST(Json, RefusesNestingDeeperThanSixtyFourLevels) {
  std::string ok = std::string(63, '[') + std::string(63, ']');
  EXPECT_TRUE(parse_json_object(R"({"a":)" + ok + "}").ok());
  std::string deep = std::string(64, '[') + std::string(64, ']');
  auto r = parse_json_object(R"({"a":)" + deep + "}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidRequest);
  // Brackets inside strings, also after an escaped quote, are text, not nesting.
  EXPECT_TRUE(parse_json_object(R"({"a":"\"[[[[)" + std::string(100, '[') + R"("})").ok());
  EXPECT_FALSE(parse_json_object(std::string(300000, '[') + std::string(300000, ']')).ok());
}

TEST(Json, RefusesDuplicateMemberNamesAtAnyDepth) {
  auto top = parse_json_object(R"({"type":"text","type":"qa"})");
  ASSERT_FALSE(top.ok());
  EXPECT_NE(top.error().message.find("'type'"), std::string::npos);
  auto nested = parse_json_object(R"({"a":[{"x":1},{"y":1,"y":2}]})");
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.error().message.find("'y'"), std::string::npos);
  EXPECT_TRUE(parse_json_object(R"({"x":{"x":{"x":1}},"y":[{"x":1},{"x":2}]})").ok());
}

TEST(Json, ErrorBodyHasTheSpecShape) {
  EXPECT_EQ(error_body({ErrorCode::kNotFound, "No agent \"x\"."}),
            R"({"error":{"code":"not_found","message":"No agent \"x\"."}})");
}


}  // namespace
}  // namespace parley

namespace parley {
namespace {

// Whatever the string, the output parses back to it, and only what JSON requires is escaped.
TEST(AppendJsonString, RoundTripsEveryByteAtEveryPosition) {
  std::vector<std::string> inputs = {"", "plain", "exactly8", "sixteen chars ok", "héllo wörld — ünïcode"};
  for (int c = 0; c < 0x20; ++c) {
    for (size_t at : {0, 3, 7, 8, 9, 15, 16, 23}) {
      std::string s(24, 'x');
      s[at] = static_cast<char>(c);
      inputs.push_back(s);
    }
  }
  for (char special : {'"', '\\'}) {
    for (size_t at : {0, 5, 8, 17}) {
      std::string s(20, 'y');
      s[at] = special;
      inputs.push_back(s);
    }
  }
  for (const auto& input : inputs) {
    std::string out;
    append_json_string(out, input);
    rapidjson::Document doc;
    doc.Parse(out.data(), out.size());
    ASSERT_FALSE(doc.HasParseError()) << out;
    ASSERT_TRUE(doc.IsString());
    EXPECT_EQ(std::string(doc.GetString(), doc.GetStringLength()), input) << out;
  }
  std::string out;
  append_json_string(out, "a\"b\\c\nd\te\x01");
  EXPECT_EQ(out, R"("a\"b\\c\nd\te\u0001")");
}

TEST(ErrorBody, IsTheSpecShapeWithTheMessageEscaped) {
  EXPECT_EQ(error_body(ApiError::invalid("Field 'x' must be \"short\".")),
            R"({"error":{"code":"invalid_request","message":"Field 'x' must be \"short\"."}})");
}


TEST(Json, ParsesOutsideValuesOfAnyTypeButNotDeeperThanTheLimit) {
  auto array = parse_json_value("[1,2]");
  ASSERT_TRUE(array.ok());
  EXPECT_TRUE(array->IsArray());
  EXPECT_TRUE(parse_json_value(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']')).ok());
  auto deep = parse_json_value(std::string(1'000'000, '[') + std::string(1'000'000, ']'));
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.error().message.find("64 levels"), std::string::npos);
  auto broken = parse_json_value(R"({"secret": "sk-1")");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.error().message.find("sk-1"), std::string::npos);
}

}  // namespace
}  // namespace parley
