// libcurl for the HTTP data source (PanelApp): transfers whose size, time, speed, redirects and
// schemes libcurl bounds while receiving.
#include <stddef.h>
// The typed wrappers below take the place of curl.h's gcc type checks, which only work on
// constant options.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// CURL_GLOBAL_DEFAULT is composed of other macros, which Swift does not import.
static const long panel_curl_global_default = CURL_GLOBAL_DEFAULT;

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument that PanelApp passes.
static inline CURLcode panel_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode panel_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode panel_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode panel_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
typedef size_t (*panel_curl_write_callback)(char *data, size_t size, size_t count, void *user);
static inline CURLcode panel_curl_set_write_function(CURL *handle, panel_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode panel_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
