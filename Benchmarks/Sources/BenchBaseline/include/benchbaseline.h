#ifndef BENCHBASELINE_H
#define BENCHBASELINE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
int32_t bench_baseline_version(void);
#ifdef __cplusplus
}
#endif
#endif
