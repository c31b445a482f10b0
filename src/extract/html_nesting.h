// A page's nesting capped before the parser sees it. gumbo, like the WHATWG algorithm it follows,
// looks through the stack of open elements for many start tags ("is there a <p> in button
// scope?"), so a page that nests elements N deep costs N² (200,000 nested <div>s: minutes of one
// core). Browsers cap the tree's depth (Chromium at 512); here the markup is rewritten instead:
// a start tag that would open an element deeper than the cap is left out, with its end tag, so
// its content is read flat in the element above. Text is never dropped.
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parley::html {

// How deep elements may nest (start tags open at once, leaving out void elements, those whose end
// tag may be omitted, and the content of raw-text elements, comments and declarations).
inline constexpr int kMaxNesting = 512;

// The page without the start and end tags of elements that would nest deeper than `max_depth`,
// or nothing when it nests no deeper (the page is read as it is).
std::optional<std::string> cap_nesting(std::string_view page, int max_depth = kMaxNesting);

}  // namespace parley::html
