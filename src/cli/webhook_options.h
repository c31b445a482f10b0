// The webhook options of `parley serve` (each also an environment variable).
#pragma once

#include <CLI/CLI.hpp>

#include "workers/webhook_service.h"

namespace parley {

void add_webhook_serve_options(CLI::App& serve, WebhookServiceOptions& options);

}  // namespace parley
