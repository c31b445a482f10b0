// StringMap: an unordered_map keyed by std::string that is looked up with a std::string_view
// without building a std::string (heterogeneous lookup), for maps read on every request.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace parley {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

template <typename V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace parley
