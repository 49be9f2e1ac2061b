// libcurl for the HTTP data source: the library opened at the first transfer and the calls,
// declared in include/panel_curl.h.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "panel_dynamic.h"
#include "panel_curl.h"

// The functions PanelKiosk calls, found in libcurl.so.4 once. curl_easy_header (7.83, 2022)
// reads the last answer's headers, so the program parses none itself; curl_getdate reads
// HTTP dates (Retry-After, Date).
struct panel_curl_api {
    const char *error;  // why loading failed, or NULL
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_perform)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLHcode (*easy_header)(CURL *, const char *, size_t, unsigned int, int, struct curl_header **);
    time_t (*getdate)(const char *, const time_t *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
    void (*url_cleanup)(CURLU *);
    void (*free)(void *);
};

// The one copy of what was found, in this file only.
static struct panel_curl_api api_storage;
static struct panel_curl_api *panel_curl_api_storage(void) { return &api_storage; }

static void panel_curl_load_once(void) {
    struct panel_curl_api *api = panel_curl_api_storage();
    void *library = panel_dynamic_open("libcurl.so.4", &api->error);
    if (!library) return;
    api->global_init = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL *(*)(void))dlsym(library, "curl_easy_init");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror");
    api->easy_header = (CURLHcode (*)(CURL *, const char *, size_t, unsigned int, int, struct curl_header **))
        dlsym(library, "curl_easy_header");
    api->getdate = (time_t (*)(const char *, const time_t *))dlsym(library, "curl_getdate");
    api->slist_append = (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    api->url = (CURLU *(*)(void))dlsym(library, "curl_url");
    api->url_set = (CURLUcode (*)(CURLU *, CURLUPart, const char *, unsigned int))dlsym(library, "curl_url_set");
    api->url_get = (CURLUcode (*)(const CURLU *, CURLUPart, char **, unsigned int))dlsym(library, "curl_url_get");
    api->url_cleanup = (void (*)(CURLU *))dlsym(library, "curl_url_cleanup");
    api->free = (void (*)(void *))dlsym(library, "curl_free");
    if (!api->url || !api->url_set || !api->url_get || !api->url_cleanup || !api->free) {
        api->error = "libcurl.so.4 lacks its URL functions (curl_url, 7.62)";
        return;
    }
    if (!api->global_init || !api->easy_init || !api->easy_setopt || !api->easy_getinfo || !api->easy_perform
        || !api->easy_cleanup || !api->easy_strerror || !api->easy_header || !api->getdate || !api->slist_append
        || !api->slist_free_all) {
        api->error = "libcurl.so.4 lacks a function the HTTP source needs";
        return;
    }
    // Process-wide set-up, once, while no other thread uses libcurl (it is not safe to race).
    if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) api->error = "curl_global_init failed";
}

const char *panel_curl_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, panel_curl_load_once);
    return panel_curl_api_storage()->error;
}

// The calls, after panel_curl_load() returned NULL.
CURL *panel_curl_easy_init(void) { return panel_curl_api_storage()->easy_init(); }
CURLcode panel_curl_easy_perform(CURL *handle) { return panel_curl_api_storage()->easy_perform(handle); }
void panel_curl_easy_cleanup(CURL *handle) { panel_curl_api_storage()->easy_cleanup(handle); }
const char *panel_curl_easy_strerror(CURLcode code) { return panel_curl_api_storage()->easy_strerror(code); }

CURLcode panel_curl_set_long(CURL *handle, CURLoption option, long value) {
    return panel_curl_api_storage()->easy_setopt(handle, option, value);
}
CURLcode panel_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return panel_curl_api_storage()->easy_setopt(handle, option, value);
}
CURLcode panel_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return panel_curl_api_storage()->easy_setopt(handle, option, value);
}
CURLcode panel_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return panel_curl_api_storage()->easy_setopt(handle, option, value);
}
CURLcode panel_curl_set_write_function(CURL *handle, panel_curl_write_callback callback) {
    return panel_curl_api_storage()->easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode panel_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return panel_curl_api_storage()->easy_getinfo(handle, info, value);
}
CURLcode panel_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return panel_curl_api_storage()->easy_getinfo(handle, info, value);
}

// The value of the last answer's header `name` (the last of several; case does not matter),
// or NULL when it has none. Valid until the next transfer or cleanup of `handle`.
const char *panel_curl_header(CURL *handle, const char *name) {
    struct curl_header *header = NULL;
    if (panel_curl_api_storage()->easy_header(handle, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || !header) return NULL;
    if (header->amount > 1) {
        struct curl_header *last = NULL;
        if (panel_curl_api_storage()->easy_header(handle, name, header->amount - 1, CURLH_HEADER, -1, &last) == CURLHE_OK && last)
            header = last;
    }
    return header->value;
}

// An HTTP date (RFC 9110 5.6.7, and the obsolete forms) as seconds since 1970, or -1.
long long panel_curl_getdate(const char *text) {
    return (long long)panel_curl_api_storage()->getdate(text, NULL);
}

// Request headers: a list libcurl copies each line into, freed with panel_curl_slist_free.
struct curl_slist *panel_curl_slist_append(struct curl_slist *list, const char *line) {
    return panel_curl_api_storage()->slist_append(list, line);
}
void panel_curl_slist_free(struct curl_slist *list) {
    if (list) panel_curl_api_storage()->slist_free_all(list);
}

// A string the last transfer knows (CURLINFO_REDIRECT_URL, ...), or NULL. Valid until the next
// transfer or cleanup of `handle`.
const char *panel_curl_get_string(CURL *handle, CURLINFO info) {
    char *value = NULL;
    if (panel_curl_api_storage()->easy_getinfo(handle, info, &value) != CURLE_OK) return NULL;
    return value;
}

// The origin of an absolute URL as libcurl parses it: "scheme://host:port", scheme and host in
// lower case, the scheme's port filled in; NULL when it is not one. Freed with free().
char *panel_curl_origin(const char *url) {
    struct panel_curl_api *api = panel_curl_api_storage();
    CURLU *parsed = api->url();
    if (!parsed) return NULL;
    char *scheme = NULL, *host = NULL, *port = NULL, *origin = NULL;
    if (api->url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK
        && api->url_get(parsed, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK
        && api->url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK
        && api->url_get(parsed, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
        size_t length = strlen(scheme) + strlen(host) + strlen(port) + 5;
        origin = malloc(length);
        if (origin) {
            snprintf(origin, length, "%s://%s:%s", scheme, host, port);
            for (char *c = origin; *c; c++) if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
        }
    }
    api->free(scheme);
    api->free(host);
    api->free(port);
    api->url_cleanup(parsed);
    return origin;
}
