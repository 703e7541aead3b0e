// CICU: error names and the ICU version, the C side of ICUKit's ICUError.swift.
#include "cicu_bridge.h"

extern "C" {

const char *cicu_error_name(int32_t status) { return u_errorName(static_cast<UErrorCode>(status)); }

const char *cicu_version(void) { return U_ICU_VERSION; }

}  // extern "C"
