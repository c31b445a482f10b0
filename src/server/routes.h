// Every route of the server: the three fronts, each with its own context (the public API, the
// team's console and the website widget), plus /healthz and /readyz.
#pragma once

#include <string>

#include "api/api_context.h"
#include "console/console_context.h"
#include "http/router.h"
#include "widget/widget_context.h"

namespace parley {

struct Fronts {
  ApiContext api;
  ConsoleContext console;
  WidgetContext widget;
};

// Registers /healthz, /readyz, every route of each front, and the dashboard and widget files
// (from `web_dir` when set, else the embedded copy). `fronts` must outlive `router`.
void register_routes(Router& router, Fronts& fronts, const std::string& web_dir);

}  // namespace parley
