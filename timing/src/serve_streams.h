// (Private to ws_timing) the Streams request's answer, registered by serve_timing().
#pragma once

#include "ws/isolation/server.h"

namespace ws::timing {
void serve_streams(isolation::Server& s);
}
