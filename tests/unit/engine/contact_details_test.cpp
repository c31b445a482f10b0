#include "engine/contact_details.h"

#include <gtest/gtest.h>

namespace parley {
namespace {

TEST(ContactDetails, FindsAnEmailLowerCased) {
  auto d = find_contact_details("Hi, my email is Ann.Lee@Example.COM.");
  EXPECT_EQ(d.email, "ann.lee@example.com");
  EXPECT_EQ(d.phone, std::nullopt);
  EXPECT_EQ(d.person_key(), "ann.lee@example.com");
}

TEST(ContactDetails, FindsAPhone) {
  auto d = find_contact_details("call me on +44 (20) 7946-0958 tomorrow");
  EXPECT_EQ(d.phone, "+442079460958");
  EXPECT_EQ(d.person_key(), "442079460958");
}

TEST(ContactDetails, IgnoresShortNumbersAndDigitsInEmails) {
  EXPECT_TRUE(find_contact_details("I ordered 3 items for 120 euros on 2024").empty());
  auto d = find_contact_details("bob1234567@test.io");
  EXPECT_EQ(d.email, "bob1234567@test.io");
  EXPECT_EQ(d.phone, std::nullopt);
  EXPECT_TRUE(find_contact_details("not an email: a@b, x@y.z1").empty());
}

}  // namespace
}  // namespace parley
