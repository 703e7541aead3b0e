#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/** Version marker of the bridge. */
int32_t cphone_bridge_version(void);
#ifdef __cplusplus
}
#endif
#endif
