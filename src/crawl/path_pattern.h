// robots.txt path patterns (RFC 9309 §2.2.3), shared by the robots rules and the crawl's
// include/exclude patterns: a pattern matches from the start of a URL's path and query, '*' is
// any run of characters and a '$' at the end anchors the end. Both sides are compared with their
// percent-encoding normalised (crawl/url.h), so "/%7Ejoe" and "/~joe" are one pattern.
// Pure functions.
#pragma once

#include <string>
#include <string_view>

namespace parley {

// A pattern in the form it is matched in: percent-encoding normalised; one that starts with
// neither '/' nor '*' gets a leading '/' ("docs/" → "/docs/").
std::string normalize_path_pattern(std::string_view pattern);

// True when the normalised `pattern` matches a prefix of `path_and_query` (normalised too; '$'
// at the pattern's end: the whole of it). One search of the path per run of literal
// characters, without backtracking.
bool path_pattern_matches(std::string_view pattern, std::string_view path_and_query);

}  // namespace parley
