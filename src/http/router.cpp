#include "http/router.h"

#include <algorithm>

namespace parley {

namespace {
template <typename Out>
void split_path(std::string_view path, Out& out) {
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  while (true) {
    size_t slash = path.find('/');
    out.emplace_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path = path.substr(slash + 1);
  }
}

bool is_param(const std::string& s) { return s.size() > 2 && s.front() == '{' && s.back() == '}'; }
}  // namespace

void Router::add(std::string_view method, std::string_view pattern, RouteTarget target) {
  Route r;
  r.method = std::string(method);
  r.pattern = std::string(pattern);
  std::vector<std::string_view> parts;
  split_path(pattern, parts);
  for (auto p : parts) r.segments.emplace_back(p);
  r.target = std::move(target);
  routes_.push_back(std::move(r));
}

Router::Match Router::match(std::string_view method, std::string_view path,
                            std::vector<std::string_view>& params) const {
  thread_local std::vector<std::string_view> parts;
  parts.clear();
  split_path(path, parts);
  Match m;
  for (const auto& r : routes_) {
    if (r.segments.size() != parts.size()) continue;
    bool ok = true;
    for (size_t i = 0; i < parts.size() && ok; ++i) {
      if (is_param(r.segments[i])) ok = !parts[i].empty();
      else ok = r.segments[i] == parts[i];
    }
    if (!ok) continue;
    if (r.method == method) {
      params.clear();
      for (size_t i = 0; i < parts.size(); ++i)
        if (is_param(r.segments[i])) params.push_back(parts[i]);
      m.outcome = Outcome::kFound;
      m.target = &r.target;
      m.route = static_cast<size_t>(&r - routes_.data());
      return m;
    }
    if (m.allow.find(r.method) == std::string::npos) {
      if (!m.allow.empty()) m.allow += ", ";
      m.allow += r.method;
      if (r.method == "GET") m.allow += ", HEAD";  // served as GET without the body
    }
    m.outcome = Outcome::kNoMethod;
  }
  return m;
}

size_t Router::body_limit(std::string_view method, std::string_view path,
                          size_t server_limit) const {
  std::vector<std::string_view> params;
  Match m = match(method, path, params);
  if (m.outcome != Outcome::kFound || m.target->body_limit == 0) return server_limit;
  return m.target->body_limit;
}

size_t Router::largest_body_limit(size_t server_limit) const {
  size_t largest = server_limit;
  for (const auto& r : routes_) largest = std::max(largest, r.target.body_limit);
  return largest;
}

size_t Router::smallest_body_limit(size_t server_limit) const {
  size_t smallest = server_limit;
  for (const auto& r : routes_)
    if (r.target.body_limit != 0) smallest = std::min(smallest, r.target.body_limit);
  return smallest;
}

std::vector<std::string> Router::route_names() const {
  std::vector<std::string> names;
  for (const auto& r : routes_) names.push_back(r.method + " " + r.pattern);
  return names;
}

}  // namespace parley
