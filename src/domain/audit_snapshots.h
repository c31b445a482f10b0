// What the audit log records of each kind of target: the fields a person changes, read by
// repository getters on the connection of the change's own transaction (domain/audit.h). Never a
// secret's value: secrets are left out (a key's fingerprint, a webhook's signing secret, a
// member's password hash, a workspace token) or their field names mark them for redaction
// (settings.llm.apiKey). A new kind of target adds one function here. Stateless; thread-safe.
#pragma once

#include "domain/audit.h"

namespace parley {

// An agent: name, private and each setting as `settings.<name>` (objects flattened).
Result<std::optional<AuditSnapshot>> audit_agent_snapshot(Connection& c, const AuditTargetRef& t);
// The account: name, plan, limit overrides.
Result<std::optional<AuditSnapshot>> audit_account_snapshot(Connection& c, const AuditTargetRef& t);
// An API key: name, scopes, revokedAt.
Result<std::optional<AuditSnapshot>> audit_key_snapshot(Connection& c, const AuditTargetRef& t);
// A team member: email, name, role.
Result<std::optional<AuditSnapshot>> audit_member_snapshot(Connection& c, const AuditTargetRef& t);
// A knowledge source of the agent t.parent_id: type, title, url, filename, question, answer,
// characters.
Result<std::optional<AuditSnapshot>> audit_source_snapshot(Connection& c, const AuditTargetRef& t);
// A webhook: agentId, url, events, source, paused, disabledAt.
Result<std::optional<AuditSnapshot>> audit_webhook_snapshot(Connection& c, const AuditTargetRef& t);
// A conversation's live chat: liveChat, takenOverBy.
Result<std::optional<AuditSnapshot>> audit_conversation_snapshot(Connection& c,
                                                                 const AuditTargetRef& t);
// The Notion workspace connection of the agent t.id: connected, workspaceName, connectedBy.
Result<std::optional<AuditSnapshot>> audit_workspace_snapshot(Connection& c,
                                                              const AuditTargetRef& t);

}  // namespace parley
