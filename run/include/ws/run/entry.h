// What a kernel's entry struct uses (see catalog.h): its spec, the run it is asked for and the
// result it fills.
#pragma once

#include "ws/run/config.h"
#include "ws/run/result.h"
#include "ws/run/spec.h"
