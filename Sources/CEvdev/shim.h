// libevdev for PanelInput: reading touchscreens (with SYN_DROPPED resync) and uinput devices.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

// Swift cannot import input_event_sec / input_event_usec (macros over `time`, or over
// __sec/__usec on 32-bit targets with 64-bit time): one portable accessor.
static inline long long panel_input_event_microseconds(const struct input_event *event) {
    return (long long)event->input_event_sec * 1000000LL + (long long)event->input_event_usec;
}
