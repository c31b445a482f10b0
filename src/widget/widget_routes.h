// The widget channel's routes (/widget/v1), the only ones that answer CORS.
#pragma once

#include "http/router.h"
#include "widget/widget_context.h"

namespace parley {

void register_widget_routes(Router& router, WidgetContext& app);

}  // namespace parley
