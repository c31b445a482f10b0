// parley: the server (serve), schema migrations (migrate) and operator commands (admin).
#include <CLI/CLI.hpp>
#include <openssl/crypto.h>

#include "cli/commands.h"
#include "core/log.h"

int main(int argc, char** argv) {
  // Threads that live as long as the process (the outbound HTTP loop, net/outbound.h) may still be
  // inside OpenSSL while it exits; OpenSSL's own clean-up at exit would free what they use under
  // them. The operating system frees it instead. Must be OpenSSL's first initialisation.
  OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
  parley::init_logging();
  CLI::App app{"Parley: one API for a company's conversational agents"};
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand
  parley::GlobalOptions global;
  parley::add_global_options(app, global);
  parley::CommandRun run;
  parley::add_serve_command(app, global, run);
  parley::add_migrate_command(app, global, run);
  parley::add_admin_command(app, global, run);
  CLI11_PARSE(app, argc, argv);
  return run ? run() : 0;
}
