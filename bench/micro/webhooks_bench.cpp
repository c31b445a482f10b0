// Webhook micro benchmarks: signing a 2 KB delivery (Standard Webhooks HMAC-SHA256), checking a
// webhook URL's form, and building a lead.created event body from a stored lead.
#include <benchmark/benchmark.h>

#include <string>

#include "events/event_body.h"
#include "webhooks/signer.h"
#include "net/url_guard.h"

namespace parley {
namespace {

void BM_WebhookSign2KB(benchmark::State& state) {
  std::string body(2048, 'x');
  for (auto _ : state) {
    auto sig = sign_webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "lead_p5jXN8AQM9LWM0D4loKWxJ",
                            1614265330, body);
    benchmark::DoNotOptimize(sig);
  }
}
BENCHMARK(BM_WebhookSign2KB);

void BM_WebhookUrlParse(benchmark::State& state) {
  for (auto _ : state) {
    auto r = parse_webhook_url("https://hooks.example.com:8443/incoming/parley?token=abc");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_WebhookUrlParse);

void BM_LeadEventBody(benchmark::State& state) {
  EventAgent agent{"agt_1", "Helper",
                   parse_agent_settings(R"({"leadForm":{"fields":[{"id":"company","label":"Company"}]}})")};
  LeadRecord lead;
  lead.id = "lead_p5jXN8AQM9LWM0D4loKWxJ";
  lead.email = "jane.doe@example.com";
  lead.name = "Jane Doe";
  lead.custom_fields = R"([{"id":"company","value":"Acme"}])";
  lead.conversation_id = "cnv_p5jXN8AQM9LWM0D4loKWxJ";
  lead.collected_at = 1795000000000;
  for (auto _ : state) {
    JsonWriter w;
    write_lead_event(w, agent, lead);
    benchmark::DoNotOptimize(w.view());
  }
}
BENCHMARK(BM_LeadEventBody);

}  // namespace
}  // namespace parley
