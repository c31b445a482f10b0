// The lines of a server-sent event stream (text/event-stream) as Parley writes them: one event is
// an `event:` line and one `data:` line of compact JSON (no line breaks) and a blank line; a
// keep-alive is a comment line. Shared by the chat's event stream and the live views' streams.
#pragma once

#include <string>
#include <string_view>

namespace parley {

inline std::string server_event(std::string_view name, std::string_view data) {
  std::string out;
  out.reserve(name.size() + data.size() + 16);
  out.append("event: ").append(name).append("\ndata: ").append(data).append("\n\n");
  return out;
}

inline constexpr std::string_view kKeepAliveLine = ": keep-alive\n\n";

}  // namespace parley
