// libmosquitto for PanelKiosk's broker link: the library opened at the first connection and
// the calls, declared in include/panel_mosquitto.h.
#include "panel_dynamic.h"
#include <pthread.h>
#include "panel_mosquitto.h"
#include <mqtt_protocol.h>

// The functions PanelKiosk calls, found in libmosquitto.so.1 once.
struct panel_mqtt_api {
    const char *error;  // why loading failed, or NULL
    int (*lib_init)(void);
    struct mosquitto *(*new_client)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *, int (*)(char *, int, int, void *));
    int (*connect_bind_v5)(struct mosquitto *, const char *, int, int, const char *, const mosquitto_property *);
    int (*property_add_int32)(mosquitto_property **, int, uint32_t);
    void (*property_free_all)(mosquitto_property **);
    int (*disconnect)(struct mosquitto *);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*subscribe)(struct mosquitto *, int *, const char *, int);
    int (*loop_read)(struct mosquitto *, int);
    int (*loop_write)(struct mosquitto *, int);
    int (*loop_misc)(struct mosquitto *);
    int (*socket)(struct mosquitto *);
    bool (*want_write)(struct mosquitto *);
    const char *(*strerror)(int);
    const char *(*reason_string)(int);
    int (*int_option)(struct mosquitto *, enum mosq_opt_t, int);
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*message_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, const struct mosquitto_message *));
    void (*subscribe_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, int, const int *));
    void (*publish_v5_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, int, const mosquitto_property *));
};

// The one copy of what was found, in this file only: a header's static would give each object
// file that calls it a copy of its own, and the release build's optimiser inlines Swift code
// that calls the shim into other files (whose copy was never loaded: the broker's socket read
// as none, and nothing was ever read from it).
static struct panel_mqtt_api api_storage;
static struct panel_mqtt_api *panel_mqtt_api_storage(void) { return &api_storage; }

#define PANEL_MQTT_FIND(field, name) \
    api->field = (__typeof__(api->field))dlsym(library, name); \
    if (!api->field) { api->error = "libmosquitto.so.1 lacks " name; return; }

static void panel_mqtt_load_once(void) {
    struct panel_mqtt_api *api = panel_mqtt_api_storage();
    void *library = panel_dynamic_open("libmosquitto.so.1", &api->error);
    if (!library) return;
    PANEL_MQTT_FIND(lib_init, "mosquitto_lib_init")
    PANEL_MQTT_FIND(new_client, "mosquitto_new")
    PANEL_MQTT_FIND(destroy, "mosquitto_destroy")
    PANEL_MQTT_FIND(will_set, "mosquitto_will_set")
    PANEL_MQTT_FIND(username_pw_set, "mosquitto_username_pw_set")
    PANEL_MQTT_FIND(tls_set, "mosquitto_tls_set")
    PANEL_MQTT_FIND(connect_bind_v5, "mosquitto_connect_bind_v5")
    PANEL_MQTT_FIND(property_add_int32, "mosquitto_property_add_int32")
    PANEL_MQTT_FIND(property_free_all, "mosquitto_property_free_all")
    PANEL_MQTT_FIND(disconnect, "mosquitto_disconnect")
    PANEL_MQTT_FIND(publish, "mosquitto_publish")
    PANEL_MQTT_FIND(subscribe, "mosquitto_subscribe")
    PANEL_MQTT_FIND(loop_read, "mosquitto_loop_read")
    PANEL_MQTT_FIND(loop_write, "mosquitto_loop_write")
    PANEL_MQTT_FIND(loop_misc, "mosquitto_loop_misc")
    PANEL_MQTT_FIND(socket, "mosquitto_socket")
    PANEL_MQTT_FIND(want_write, "mosquitto_want_write")
    PANEL_MQTT_FIND(strerror, "mosquitto_strerror")
    PANEL_MQTT_FIND(reason_string, "mosquitto_reason_string")
    PANEL_MQTT_FIND(int_option, "mosquitto_int_option")
    PANEL_MQTT_FIND(connect_callback_set, "mosquitto_connect_callback_set")
    PANEL_MQTT_FIND(disconnect_callback_set, "mosquitto_disconnect_callback_set")
    PANEL_MQTT_FIND(message_callback_set, "mosquitto_message_callback_set")
    PANEL_MQTT_FIND(subscribe_callback_set, "mosquitto_subscribe_callback_set")
    PANEL_MQTT_FIND(publish_v5_callback_set, "mosquitto_publish_v5_callback_set")
    // Process-wide set-up (OpenSSL's, the random source), once.
    if (api->lib_init() != MOSQ_ERR_SUCCESS) api->error = "mosquitto_lib_init failed";
}
#undef PANEL_MQTT_FIND

// Loads libmosquitto (once, thread-safe); NULL when it is usable, else why not.
const char *panel_mqtt_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, panel_mqtt_load_once);
    return panel_mqtt_api_storage()->error;
}

static void panel_mqtt_connected(struct mosquitto *client, void *obj, int code) {
    (void)client;
    struct panel_mqtt_callbacks *callbacks = (struct panel_mqtt_callbacks *)obj;
    callbacks->on_connect(callbacks->user, code);
}
static void panel_mqtt_disconnected(struct mosquitto *client, void *obj, int code) {
    (void)client;
    struct panel_mqtt_callbacks *callbacks = (struct panel_mqtt_callbacks *)obj;
    callbacks->on_disconnect(callbacks->user, code);
}
static void panel_mqtt_received(struct mosquitto *client, void *obj, const struct mosquitto_message *message) {
    (void)client;
    struct panel_mqtt_callbacks *callbacks = (struct panel_mqtt_callbacks *)obj;
    callbacks->on_message(callbacks->user, message->topic, (const unsigned char *)message->payload,
                          message->payloadlen, message->retain);
}
static void panel_mqtt_subscribed(struct mosquitto *client, void *obj, int mid, int count, const int *granted) {
    (void)client;
    struct panel_mqtt_callbacks *callbacks = (struct panel_mqtt_callbacks *)obj;
    callbacks->on_subscribe(callbacks->user, mid, count > 0 ? granted[0] : 128);
}
static void panel_mqtt_published(struct mosquitto *client, void *obj, int mid, int reason, const mosquitto_property *properties) {
    (void)client; (void)properties;
    struct panel_mqtt_callbacks *callbacks = (struct panel_mqtt_callbacks *)obj;
    callbacks->on_publish(callbacks->user, mid, reason);
}

// A client with its callbacks, speaking MQTT 5 (whose acknowledgements carry reasons: a
// publish the broker's ACL denies is answered 0x87, where 3.1.1 drops it without a word), with
// a clean session (the broker keeps nothing for it but the retained messages everyone gets),
// or NULL.
struct mosquitto *panel_mqtt_new(const char *id, struct panel_mqtt_callbacks *callbacks) {
    struct panel_mqtt_api *api = panel_mqtt_api_storage();
    struct mosquitto *client = api->new_client(id, true, callbacks);
    if (!client) return NULL;
    api->connect_callback_set(client, panel_mqtt_connected);
    api->disconnect_callback_set(client, panel_mqtt_disconnected);
    api->message_callback_set(client, panel_mqtt_received);
    api->subscribe_callback_set(client, panel_mqtt_subscribed);
    api->publish_v5_callback_set(client, panel_mqtt_published);
    api->int_option(client, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    return client;
}

// The calls, after panel_mqtt_load() returned NULL.
void panel_mqtt_destroy(struct mosquitto *client) { panel_mqtt_api_storage()->destroy(client); }
int panel_mqtt_will_set(struct mosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain) {
    return panel_mqtt_api_storage()->will_set(client, topic, length, payload, qos, retain);
}
int panel_mqtt_username_pw_set(struct mosquitto *client, const char *user, const char *password) {
    return panel_mqtt_api_storage()->username_pw_set(client, user, password);
}
// TLS with `cafile`, or with the system's CAs (/etc/ssl/certs) when it is NULL.
int panel_mqtt_tls_set(struct mosquitto *client, const char *cafile) {
    return panel_mqtt_api_storage()->tls_set(client, cafile, cafile ? NULL : "/etc/ssl/certs", NULL, NULL, NULL);
}
int panel_mqtt_connect(struct mosquitto *client, const char *host, int port, int keepalive, uint32_t maximum_packet) {
    struct panel_mqtt_api *api = panel_mqtt_api_storage();
    mosquitto_property *properties = NULL;
    int code = api->property_add_int32(&properties, MQTT_PROP_MAXIMUM_PACKET_SIZE, maximum_packet);
    if (code == MOSQ_ERR_SUCCESS) code = api->connect_bind_v5(client, host, port, keepalive, NULL, properties);
    api->property_free_all(&properties);
    return code;
}
int panel_mqtt_disconnect(struct mosquitto *client) { return panel_mqtt_api_storage()->disconnect(client); }
int panel_mqtt_publish(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload, int qos, bool retain) {
    return panel_mqtt_api_storage()->publish(client, mid, topic, length, payload, qos, retain);
}
int panel_mqtt_subscribe(struct mosquitto *client, int *mid, const char *topic, int qos) {
    return panel_mqtt_api_storage()->subscribe(client, mid, topic, qos);
}
int panel_mqtt_loop_read(struct mosquitto *client) { return panel_mqtt_api_storage()->loop_read(client, 1); }
int panel_mqtt_loop_write(struct mosquitto *client) { return panel_mqtt_api_storage()->loop_write(client, 1); }
int panel_mqtt_loop_misc(struct mosquitto *client) { return panel_mqtt_api_storage()->loop_misc(client); }
int panel_mqtt_socket(struct mosquitto *client) { return panel_mqtt_api_storage()->socket(client); }
bool panel_mqtt_want_write(struct mosquitto *client) { return panel_mqtt_api_storage()->want_write(client); }
const char *panel_mqtt_strerror(int code) { return panel_mqtt_api_storage()->strerror(code); }
// An MQTT 5 reason code's name ("Not authorized", "Bad user name or password").
const char *panel_mqtt_reason_string(int code) { return panel_mqtt_api_storage()->reason_string(code); }
