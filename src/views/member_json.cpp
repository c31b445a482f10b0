#include "views/member_json.h"

namespace parley {

void write_member_json(JsonWriter& w, const MemberRecord& m) {
  w.begin_object();
  w.key("id").string(m.id);
  w.key("email").string(m.email);
  w.key("name").string_or_null(m.name);
  w.key("role").string(m.role);
  w.key("createdAt").timestamp(m.created_at);
  w.end_object();
}

}  // namespace parley
