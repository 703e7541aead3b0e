// Declarations only: libFuzzer itself comes from the toolchain's compiler-rt in a `-sanitize=fuzzer` build.
#include "fuzzer_driver.h"
