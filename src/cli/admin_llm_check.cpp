// parley admin agent test-llm AGENT: the dashboard's "Test connection" for operators. One small
// call to the provider the agent would use (its `llm` settings over the server's default given
// here as to `parley serve`: --llm-base-url, --llm-model, PARLEY_LLM_API_KEY), through the same
// address guard as the server's (private addresses only with --allow-private-targets). Prints
// {ok, outcome, message, status, durationMs, baseUrl, model}; the exit code is 0 whenever the
// test ran, whatever it found (read `ok`).
#include <future>

#include "cli/admin_support.h"
#include "cli/commands.h"
#include "cli/llm_options.h"
#include "domain/llm_check.h"
#include "engine/llm_check.h"
#include "views/llm_check_json.h"

namespace parley {

namespace {
struct TestLlmArgs {
  std::string agent;
  LlmServeOptions llm;
  bool allow_private = false;
  std::string extra_ca_file;
  int64_t timeout_ms = 15'000;
};
}  // namespace

void add_admin_llm_check_command(CLI::App& agent, GlobalOptions& global, CommandRun& run) {
  auto a = std::make_shared<TestLlmArgs>();
  auto* test = agent.add_subcommand(
      "test-llm", "Make one small call to the agent's language model and print what happened");
  test->add_option("agent", a->agent, "Agent id")->required();
  test->add_option("--llm-base-url", a->llm.llm.base_url,
                   "The server's default provider, as given to `parley serve`")
      ->envname("PARLEY_LLM_BASE_URL");
  test->add_option("--llm-model", a->llm.llm.model, "The server's default model")
      ->envname("PARLEY_LLM_MODEL");
  test->add_option("--llm-ca-file", a->llm.llm.ca_file,
                   "PEM file of a private CA trusted for the default provider")
      ->envname("PARLEY_LLM_CA_FILE")
      ->check(CLI::ExistingFile);
  test->add_flag("--allow-private-targets", a->allow_private,
                 "Let an agent's own provider be on a private address (tests, development)")
      ->envname("PARLEY_WEBHOOK_ALLOW_PRIVATE_TARGETS");
  test->add_option("--extra-ca-file", a->extra_ca_file,
                   "PEM file of a CA trusted for an agent's own provider besides the system's")
      ->envname("PARLEY_WEBHOOK_EXTRA_CA_FILE")
      ->check(CLI::ExistingFile);
  test->add_option("--timeout-ms", a->timeout_ms, "Time limit of the call")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  test->callback([&, a] {
    run = [&, a] {
      return run_admin(global, [&](Services& s) -> Result<std::string> {
        read_llm_secrets(a->llm);
        PARLEY_ASSIGN_OR_RETURN(Connection & c, s.db.read());
        PARLEY_ASSIGN_OR_RETURN(auto llm, llm_settings_to_check(c, "", a->agent, {}));
        SystemResolver resolver;
        ApiActionCaller guard(resolver, action_options(a->llm, a->allow_private, a->extra_ca_file));
        LlmCheckOptions options{a->llm.llm, &guard, a->timeout_ms};
        std::promise<LlmCheck> finished;
        auto outcome = finished.get_future();
        start_llm_check(llm, options,
                        [&finished](LlmCheck check) { finished.set_value(std::move(check)); });
        JsonWriter w;
        write_llm_check_json(w, outcome.get());
        return w.str();
      });
    };
  });
}

}  // namespace parley
