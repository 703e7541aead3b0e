#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. These typed wrappers are the
   whole bridge: they own no policy and allocate nothing. */

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*ccurl_read_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
static inline CURLcode ccurl_setopt_read_function(CURL *handle, ccurl_read_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t nitems, void *userdata);
static inline CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
static inline CURLcode ccurl_setopt_debug_function(CURL *handle, ccurl_debug_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                       curl_off_t ulnow);
static inline CURLcode ccurl_setopt_xferinfo_function(CURL *handle, ccurl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

typedef int (*ccurl_sockopt_callback)(void *userdata, curl_socket_t socket, curlsocktype purpose);
static inline CURLcode ccurl_setopt_sockopt_function(CURL *handle, ccurl_sockopt_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline curl_version_info_data *ccurl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
