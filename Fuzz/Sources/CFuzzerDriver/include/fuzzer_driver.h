#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`): runs the fuzzing loop with `callback`
/// as the target, parsing libFuzzer's own flags from argc/argv. Only declared here; the symbol exists only
/// in a build with `-sanitize=fuzzer` (see `make fuzz`).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
