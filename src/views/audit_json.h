// JSON of the audit log, written alike by the console (GET /console/v1/audit) and the admin CLI
// (parley admin audit list): one entry, a page of entries, and the verdict of a verification.
// Stateless.
#pragma once

#include "core/json.h"
#include "domain/audit.h"
#include "http/message.h"
#include "views/pagination.h"

namespace parley {

// The cursor of an account's audit list (bound to the account; the position is the entry's seq).
inline constexpr ListKind kAuditList{"audit", "aud_"};

// {id, seq, createdAt, actor {type, id, name}, address, action, target {type, id}, changes
// [{field, old, new}], details, prevHash, hash}
void write_audit_entry_json(JsonWriter& w, const AuditRecord& e);

// {data: [entry], hasMore, nextCursor}; `rows` holds up to limit + 1 entries, newest first.
std::string audit_page_json(std::vector<AuditRecord> rows, int64_t limit,
                            std::string_view account_id);

// {ok, chains, entries} or, when broken, also {accountId, seq, entryId, problem, message}.
std::string audit_verdict_json(const AuditVerdict& v);

// The console's and the CLI's filters from query parameters (actor, action, targetType, targetId,
// from, to, limit, cursor); 400 invalid_request naming the parameter that is malformed.
Result<AuditFilter> parse_audit_filter(const Request& req, std::string_view account_id);

}  // namespace parley
