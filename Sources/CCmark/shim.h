#ifndef CCMARK_SHIM_H
#define CCMARK_SHIM_H
/* CommonMark through libcmark (libcmark-dev): the Swift side needs only cmark_markdown_to_html, which
   returns a malloc'd string the caller frees. No policy here. */
#include <cmark.h>
#endif
