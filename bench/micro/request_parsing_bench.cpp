// What the request-body checks cost: parse_json_object (nesting scan,
// RapidJSON parse, duplicate-name check) on a typical contact body and on a 1,000-member object,
// against a bare RapidJSON parse of the same bytes.
#include <benchmark/benchmark.h>
#include <rapidjson/document.h>

#include <string>

#include "core/json.h"

namespace parley {
namespace {

const std::string kContact =
    R"({"external_id":"user-1842","email":"ada@example.com","phone":"+4930123456",)"
    R"("name":"Ada Lovelace","attributes":{"plan":"pro","seats":12,"trial":false,)"
    R"("company":"Analytical Engines Ltd","signup_source":"newsletter"}})";

std::string wide_object() {
  std::string s = "{";
  for (int i = 0; i < 1000; ++i) {
    if (i) s += ',';
    s += "\"field_" + std::to_string(i) + "\":" + std::to_string(i);
  }
  return s + "}";
}

void BM_ParseJsonObject_Contact(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_json_object(kContact));
}
BENCHMARK(BM_ParseJsonObject_Contact);

void BM_RapidJsonOnly_Contact(benchmark::State& state) {
  for (auto _ : state) {
    rapidjson::Document d;
    d.Parse<rapidjson::kParseValidateEncodingFlag>(kContact.data(), kContact.size());
    benchmark::DoNotOptimize(d.IsObject());
  }
}
BENCHMARK(BM_RapidJsonOnly_Contact);

void BM_ParseJsonObject_Wide(benchmark::State& state) {
  const std::string body = wide_object();
  for (auto _ : state) benchmark::DoNotOptimize(parse_json_object(body));
}
BENCHMARK(BM_ParseJsonObject_Wide);

void BM_RapidJsonOnly_Wide(benchmark::State& state) {
  const std::string body = wide_object();
  for (auto _ : state) {
    rapidjson::Document d;
    d.Parse<rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
    benchmark::DoNotOptimize(d.IsObject());
  }
}
BENCHMARK(BM_RapidJsonOnly_Wide);

// A body of 1 MiB of nested brackets is refused by the scan alone.
void BM_ParseJsonObject_DeepRefused(benchmark::State& state) {
  const std::string body = std::string(500'000, '[') + std::string(500'000, ']');
  for (auto _ : state) benchmark::DoNotOptimize(parse_json_object(body));
}
BENCHMARK(BM_ParseJsonObject_DeepRefused);

}  // namespace
}  // namespace parley
