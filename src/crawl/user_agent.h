// How the crawler names itself: the User-Agent header of every request it sends, and the product
// token it looks for in robots.txt. docs/decisions/crawler.md tells site owners how to block or
// slow it with that token. Constants and a pure function.
#pragma once

#include <string>
#include <string_view>

namespace parley {

inline constexpr std::string_view kRobotsProductToken = "ParleyBot";

// The page that explains the crawler to site owners, named in the User-Agent.
inline constexpr std::string_view kCrawlerInfoUrl = "https://parley.example.com/docs/crawler";

// "ParleyBot/<version> (+<kCrawlerInfoUrl>)", the version being CMake's project version.
std::string crawler_user_agent();

// The same with another page named (an operator's own address for the crawler's page).
std::string crawler_user_agent(std::string_view info_url);

// The version of this build ("0.1.0"), from CMake's project version.
std::string_view parley_version();

}  // namespace parley
