// parley: the server (serve), schema migrations (migrate) and operator commands (admin).
#include <CLI/CLI.hpp>
#include <openssl/crypto.h>

#include "cli/commands.h"
#include "core/log.h"
#include "extract/isolated_reader.h"

int main(int argc, char** argv) {
  // This program as the reader of one untrusted document, in a child of a node.
  if (parley::is_reader_call(argc, argv)) parley::run_reader(argc, argv);
  parley::read_pdfs_in_child_processes();
  // OpenSSL's own clean-up at exit is left to the operating system: a thread still running while
  // the process exits (the outbound HTTP loop until its stop among the exit's destructors,
  // net/outbound.cpp; a resolver thread of curl's) may be inside OpenSSL, and that clean-up would
  // free what it uses under it. Must be OpenSSL's first initialisation.
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
