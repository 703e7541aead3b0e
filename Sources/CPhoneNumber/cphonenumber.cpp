#include "cphonenumber.h"
extern "C" int32_t cphone_bridge_version(void) { return 1; }
