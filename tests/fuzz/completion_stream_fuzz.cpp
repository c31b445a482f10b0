// Fuzzes the decoding of a provider's streamed reply: the bytes of a text/event-stream body, cut
// into reads at places the input chooses, through SseParser into CompletionAssembler, as the
// OpenAI engine runs them. Checks that the text handed on piece by piece is the completion's text.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/completion_stream.h"
#include "fuzz_check.h"

namespace {


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parley;
  if (size == 0) return 0;
  // The first byte sets the read size (1 to 256 bytes), so a line or an event split across
  // reads is tried as well as a whole body at once.
  size_t read_size = size_t{data[0]} + 1;
  std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::string streamed;
  CompletionAssembler assembler([&](std::string_view piece) {
    streamed.append(piece);
    return streamed.size() < 4096;  // a client that goes away part way
  });
  SseParser parser([&](std::string_view event) { return assembler.apply(event); });
  bool failed = false;
  for (size_t at = 0; at < body.size() && !failed; at += read_size) {
    failed = !parser.feed(body.substr(at, read_size)).ok();
  }
  if (!failed) failed = !parser.finish().ok();
  Completion completion = assembler.take();
  FUZZ_CHECK(completion.text == streamed);
  for (const ToolCall& call : completion.tool_calls) (void)call.arguments.size();
  return 0;
}
