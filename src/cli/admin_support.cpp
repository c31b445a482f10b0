#include "cli/admin_support.h"

namespace parley {

int run_admin(const GlobalOptions& global, const std::function<Result<std::string>(Services&)>& body) {
  auto db = open_configured_database(global);
  if (!db.ok()) return print_error(db.error());
  SystemClock clock;
  SecureRandom random;
  Services s{**db, clock, random};
  auto out = body(s);
  if (!out.ok()) return print_error(out.error());
  print_json(*out);
  return 0;
}

}  // namespace parley
