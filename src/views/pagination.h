// The list parameters and page envelope shared by the conversation, lead, contact and webhook
// delivery lists (the console's delivery list too):
// `limit` (1 to 100, default 20), `cursor` (the nextCursor of the previous page) and `since`
// (ISO 8601), and {data, hasMore, nextCursor}. A cursor is base64url of the list kind, the last
// item's keyset position (time, id) and a checksum over them and the agent, so a cursor edited by
// hand, cut short, or taken from another list or agent is refused with 400 rather than read.
// Stateless; thread-safe.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "core/json.h"
#include "http/message.h"
#include "store/keyset.h"

namespace parley {

// Which list a cursor belongs to, and the id prefix of its items.
struct ListKind {
  std::string_view name;       // "conversations", "leads", "contacts"
  std::string_view id_prefix;  // "cnv_", "lead_", "ctc_"
};

inline constexpr ListKind kConversationList{"conversations", "cnv_"};
inline constexpr ListKind kLeadList{"leads", "lead_"};
inline constexpr ListKind kContactList{"contacts", "ctc_"};
// A webhook's deliveries: the cursor is bound to the webhook in place of an agent.
inline constexpr ListKind kDeliveryList{"deliveries", "dlv_"};

// Reads limit, cursor and since; 400 invalid_request naming the parameter when one is malformed.
Result<PageQuery> parse_page_query(const Request& req, const ListKind& kind,
                                   std::string_view agent_id);

std::string encode_cursor(const ListKind& kind, std::string_view agent_id,
                          const KeysetPosition& at);
Result<KeysetPosition> decode_cursor(std::string_view cursor, const ListKind& kind,
                                     std::string_view agent_id);

// Writes {data: [...], hasMore, nextCursor}; nextCursor is the position of the last item when
// there is more.
template <typename T>
std::string page_json(const Page<T>& page, const ListKind& kind, std::string_view agent_id,
                      const std::function<void(JsonWriter&, const T&)>& write_item,
                      const std::function<KeysetPosition(const T&)>& position_of) {
  JsonWriter w;
  w.begin_object().key("data").begin_array();
  for (const auto& item : page.items) write_item(w, item);
  w.end_array();
  w.key("hasMore").boolean(page.has_more);
  w.key("nextCursor");
  if (page.has_more && !page.items.empty()) {
    w.string(encode_cursor(kind, agent_id, position_of(page.items.back())));
  } else {
    w.null();
  }
  w.end_object();
  return w.str();
}

}  // namespace parley
