#include <gtest/gtest.h>

#include "domain/contacts.h"

namespace parley {
namespace {

Result<ContactInput> parse(const char* json) {
  auto doc = parse_json_object(json);
  EXPECT_TRUE(doc.ok());
  return parse_contact_input(*doc);
}

TEST(ContactInput, EmailsAreCheckedAndLowerCased) {
  EXPECT_TRUE(is_valid_email("a.b+tag@mail.example.co"));
  EXPECT_FALSE(is_valid_email("a@b"));
  EXPECT_FALSE(is_valid_email("a..b@example.com"));
  EXPECT_FALSE(is_valid_email("a@-example.com"));
  auto in = parse(R"({"email": "Ann@EXAMPLE.com"})");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->email.value, "ann@example.com");
}

TEST(ContactInput, PhonesAreSevenToFifteenDigits) {
  EXPECT_TRUE(is_valid_phone("1234567"));
  EXPECT_TRUE(is_valid_phone("+123456789012345"));
  EXPECT_FALSE(is_valid_phone("123456"));
  EXPECT_FALSE(is_valid_phone("1234567890123456"));
  EXPECT_FALSE(is_valid_phone("+"));
  EXPECT_FALSE(is_valid_phone("123 4567"));
}

TEST(ContactInput, AttributeNames) {
  EXPECT_TRUE(is_valid_attribute_name("a"));
  EXPECT_TRUE(is_valid_attribute_name("plan_2"));
  EXPECT_FALSE(is_valid_attribute_name("Plan"));
  EXPECT_FALSE(is_valid_attribute_name("2plan"));
  EXPECT_FALSE(is_valid_attribute_name(std::string(41, 'a')));
  EXPECT_TRUE(is_valid_attribute_name(std::string(40, 'a')));
}

TEST(ContactInput, AbsentNullAndValueAreTold) {
  auto in = parse(R"({"name": null, "phone": "1234567", "attributes": {"x": null, "y": 1.5}})");
  ASSERT_TRUE(in.ok());
  EXPECT_FALSE(in->external_id.sent);
  EXPECT_TRUE(in->name.sent);
  EXPECT_FALSE(in->name.value.has_value());
  EXPECT_EQ(in->phone.value, "1234567");
  ASSERT_EQ(in->attributes.size(), 2u);
  EXPECT_FALSE(in->attributes[0].second.has_value());
  EXPECT_EQ(in->attributes[1].second, "1.5");
}

TEST(ContactInput, ErrorsNameTheField) {
  auto e = parse(R"({"attributes": {"deep": {"a": 1}}})");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("'attributes.deep'"), std::string::npos);
  auto n = parse(R"({"name": 5})");
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.error().message.find("'name'"), std::string::npos);
}

}  // namespace
}  // namespace parley
