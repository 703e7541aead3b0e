/* Plain C++ baselines that the benchmarks compare the project's Swift paths with, in the same run. */
#ifndef BENCHBASELINE_H
#define BENCHBASELINE_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/**
 * The best plain C++ way to sort names with ICU: sort keys written back to back into one buffer
 * (UTF-8 → reused UTF-16 buffer → Collator::getSortKey), then std::sort of the indices with memcmp. Writes the sorted
 * indices to `order` (count entries). Returns 0 on success, an ICU error code otherwise.
 */
int32_t bench_baseline_sort(const char *locale, const char *text, const int32_t *offsets, int32_t count,
                            int32_t *order);
#ifdef __cplusplus
}
#endif
#endif
