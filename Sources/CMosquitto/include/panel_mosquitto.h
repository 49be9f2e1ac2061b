// libmosquitto (an MQTT 5 client, Debian's libmosquitto1 2.0) for PanelKiosk's broker link.
//
// The library is opened when the first connection is made (dlopen), not linked: a panel with
// no broker never maps it (nor its OpenSSL), as libcurl is opened at the first HTTP transfer.
// mosquitto.h is included for its types and constants only. What was found lives in
// panel_mosquitto.c alone, so any Swift file may call these.
#ifndef PANEL_MOSQUITTO_H
#define PANEL_MOSQUITTO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <mosquitto.h>

// What a received message carries, copied out of libmosquitto's struct (whose payload is a
// void pointer Swift would have to cast).
typedef void (*panel_mqtt_message_callback)(void *user, const char *topic, const unsigned char *payload, int length, bool retained);
typedef void (*panel_mqtt_status_callback)(void *user, int code);
typedef void (*panel_mqtt_acknowledged_callback)(void *user, int mid, int reason);

// The Swift side's callbacks for one client, kept where libmosquitto's `obj` points.
struct panel_mqtt_callbacks {
    void *user;
    panel_mqtt_status_callback on_connect;     // CONNACK's reason code (MQTT 5): 0 accepted
    panel_mqtt_status_callback on_disconnect;  // 0: asked for, else lost
    panel_mqtt_message_callback on_message;
    panel_mqtt_acknowledged_callback on_subscribe; // SUBACK: the first topic's granted QoS, or a reason >= 0x80
    panel_mqtt_acknowledged_callback on_publish;   // PUBACK: 0, or a reason >= 0x80 (0x87 not authorised)
};

// Loads libmosquitto (once, thread-safe); NULL when it is usable, else why not.
const char *panel_mqtt_load(void);

// A client with its callbacks, speaking MQTT 5 (whose acknowledgements carry reasons: a
// publish the broker's ACL denies is answered 0x87, where 3.1.1 drops it without a word), with
// a clean session (the broker keeps nothing for it but the retained messages everyone gets),
// or NULL. After panel_mqtt_load() returned NULL, as every call below.
struct mosquitto *panel_mqtt_new(const char *id, struct panel_mqtt_callbacks *callbacks);
void panel_mqtt_destroy(struct mosquitto *client);
int panel_mqtt_will_set(struct mosquitto *client, const char *topic, int length, const void *payload, int qos, bool retain);
int panel_mqtt_username_pw_set(struct mosquitto *client, const char *user, const char *password);
// TLS with `cafile`, or with the system's CAs (/etc/ssl/certs) when it is NULL.
int panel_mqtt_tls_set(struct mosquitto *client, const char *cafile);
// Connects, blocking: the name resolved, the TCP connection (and TLS) made and CONNECT sent,
// with MQTT 5's Maximum Packet Size (the broker sends no packet larger: MQTT 5, 3.1.2.11.4).
// Each try calls it again (libmosquitto's reconnect would not repeat the property on every
// version). Call it off the loop; the socket is non-blocking when it returns.
int panel_mqtt_connect(struct mosquitto *client, const char *host, int port, int keepalive, uint32_t maximum_packet);
int panel_mqtt_disconnect(struct mosquitto *client);
int panel_mqtt_publish(struct mosquitto *client, int *mid, const char *topic, int length, const void *payload, int qos, bool retain);
int panel_mqtt_subscribe(struct mosquitto *client, int *mid, const char *topic, int qos);
int panel_mqtt_loop_read(struct mosquitto *client);
int panel_mqtt_loop_write(struct mosquitto *client);
int panel_mqtt_loop_misc(struct mosquitto *client);
int panel_mqtt_socket(struct mosquitto *client);
bool panel_mqtt_want_write(struct mosquitto *client);
const char *panel_mqtt_strerror(int code);
// An MQTT 5 reason code's name ("Not authorized", "Bad user name or password").
const char *panel_mqtt_reason_string(int code);
#endif
