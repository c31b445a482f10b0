// How the crawler names itself: the User-Agent header of every request it sends, and the product
// token it looks for in robots.txt. docs/decisions/crawler.md tells site owners how to block or
// slow it with that token. Constants and a pure function.
#pragma once

#include <string>
#include <string_view>

namespace parley {

inline constexpr std::string_view kRobotsProductToken = "ParleyBot";

// "ParleyBot/<version>", the version being CMake's project version. A self-hosted server has no
// page of its own to name; the operator may give one (`--crawler-info-url`).
std::string crawler_user_agent();

// "ParleyBot/<version> (+<info_url>)": the operator's page about the crawler; none when empty.
std::string crawler_user_agent(std::string_view info_url);

// The version of this build ("0.1.0"), from CMake's project version.
std::string_view parley_version();

}  // namespace parley
