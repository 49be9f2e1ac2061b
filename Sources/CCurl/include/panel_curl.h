// libcurl for the HTTP data source (PanelKiosk): transfers whose size, time, speed, redirects
// and schemes libcurl bounds while receiving.
//
// libcurl is loaded when the first transfer starts (dlopen), not when the program starts: with
// its TLS, Kerberos, LDAP and SSH libraries it adds about 5 MB of resident memory that a panel
// showing a file, a command's output or the sample never needs (docs/deployment.md). curl.h is
// still included for its types and constants. What dlopen found lives in panel_curl.c alone,
// so any Swift file may call these.
#ifndef PANEL_CURL_H
#define PANEL_CURL_H
#include <stddef.h>
// The typed wrappers below take the place of curl.h's gcc type checks, which only work on
// constant options.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

// CURL_GLOBAL_DEFAULT is composed of other macros, which Swift does not import.
static const long panel_curl_global_default = CURL_GLOBAL_DEFAULT;

// Loads libcurl (once, thread-safe); NULL when it is usable, else why not.
const char *panel_curl_load(void);

// The calls, after panel_curl_load() returned NULL.
CURL *panel_curl_easy_init(void);
CURLcode panel_curl_easy_perform(CURL *handle);
void panel_curl_easy_cleanup(CURL *handle);
const char *panel_curl_easy_strerror(CURLcode code);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument that PanelKiosk passes.
CURLcode panel_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode panel_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode panel_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode panel_curl_set_pointer(CURL *handle, CURLoption option, void *value);
typedef size_t (*panel_curl_write_callback)(char *data, size_t size, size_t count, void *user);
CURLcode panel_curl_set_write_function(CURL *handle, panel_curl_write_callback callback);
CURLcode panel_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode panel_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);

// The value of the last answer's header `name` (the last of several; case does not matter),
// or NULL when it has none. Valid until the next transfer or cleanup of `handle`.
const char *panel_curl_header(CURL *handle, const char *name);

// An HTTP date (RFC 9110 5.6.7, and the obsolete forms) as seconds since 1970, or -1.
long long panel_curl_getdate(const char *text);

// Request headers: a list libcurl copies each line into, freed with panel_curl_slist_free.
struct curl_slist *panel_curl_slist_append(struct curl_slist *list, const char *line);
void panel_curl_slist_free(struct curl_slist *list);

// A string the last transfer knows (CURLINFO_REDIRECT_URL, ...), or NULL.
const char *panel_curl_get_string(CURL *handle, CURLINFO info);
// The origin of an absolute URL as libcurl parses it ("scheme://host:port", lower case, the
// scheme's port filled in), or NULL; freed with free().
char *panel_curl_origin(const char *url);
#endif
