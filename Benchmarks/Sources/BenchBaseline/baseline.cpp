#include "benchbaseline.h"
extern "C" int32_t bench_baseline_version(void) { return 1; }
