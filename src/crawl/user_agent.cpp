#include "crawl/user_agent.h"

// CMakeLists.txt defines PARLEY_VERSION for this file alone, from project(... VERSION ...).
#ifndef PARLEY_VERSION
#error "PARLEY_VERSION is not defined: CMakeLists.txt sets it on src/crawl/user_agent.cpp"
#endif

namespace parley {

std::string_view parley_version() { return PARLEY_VERSION; }

std::string crawler_user_agent(std::string_view info_url) {
  std::string out(kRobotsProductToken);
  out += '/';
  out += parley_version();
  if (!info_url.empty()) {
    out += " (+";
    out += info_url;
    out += ')';
  }
  return out;
}

std::string crawler_user_agent() { return crawler_user_agent({}); }

}  // namespace parley
