// Finds contact details a person wrote in a chat message ("my email is ann@example.com",
// "call me on +44 20 7946 0958"), for the save-contact-details setting. Pure, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parley {

struct ContactDetails {
  std::optional<std::string> email;  // lower-cased
  std::optional<std::string> phone;  // digits, with a leading '+' when one was written
  bool empty() const { return !email && !phone; }
  // One lead per person: the email when there is one, else the phone's digits.
  std::string person_key() const;
};

// The first email address and the first phone number (7 to 15 digits, spaces, dots, dashes and
// parentheses allowed between them) in the text.
ContactDetails find_contact_details(std::string_view text);

}  // namespace parley
