#include "domain/erasure.h"

#include "core/log.h"

namespace parley {

Result<ErasureReport> erase_contact(Services& s, std::optional<std::string_view> account_id,
                                    std::string_view contact_id) {
  ErasureReport report;
  report.contact_id = std::string(contact_id);
  PARLEY_TRY(s.db.write([&](Connection& c) -> Result<void> {
    std::optional<std::string> account;
    if (account_id) {
      account = std::string(*account_id);
    } else {
      PARLEY_ASSIGN_OR_RETURN(account, ErasureRepo::account_of(c, contact_id));
    }
    std::optional<ContactRecord> contact;
    if (account) {
      PARLEY_ASSIGN_OR_RETURN(contact, ContactRepo::find(c, *account, contact_id));
    }
    if (!contact) return ApiError::not_found("No contact " + std::string(contact_id) + ".");
    PARLEY_ASSIGN_OR_RETURN(report.removed, ErasureRepo::erase(c, *contact));
    report.agent_id = contact->agent_id;
    return {};
  }));
  // The rows are gone; what is left is their bytes in the files. A failure here is reported: the
  // erasure is not complete until the scrub is (running it again scrubs again).
  auto scrubbed = scrub_database_files(s.db);
  if (!scrubbed.ok()) {
    log_warn("erased contact not scrubbed from the database files",
             {{"contact", contact_id}, {"error", std::string_view(scrubbed.error().message)}});
    return scrubbed.error();
  }
  log_info("contact erased",
           {{"contact", contact_id}, {"agent", std::string_view(report.agent_id)}});
  return report;
}

}  // namespace parley
