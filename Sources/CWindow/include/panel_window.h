// A desktop window through SDL2, for developing on a desktop (PanelDisplay's WindowDisplay).
//
// libSDL2 is opened at the first window (dlopen), never linked: the program on a panel does
// not need it, and the Debian package does not depend on it. SDL's headers are only needed to
// build panel_window.c: where they are missing (the arm64 sysroot, made for panels) every call
// below says "built without SDL2's headers" and the rest of the program is unchanged. What
// dlopen found lives in panel_window.c alone, so any Swift file may call these.
//
// The shim hands Swift plain structs: SDL's event union, its hints and its X11 connection
// stay in the C file, so the Swift side does not depend on SDL's headers being there.
#ifndef PANEL_WINDOW_H
#define PANEL_WINDOW_H
#include <stddef.h>
#include <stdint.h>

/// What happened in the window, as the Swift side needs it.
enum panel_window_event_kind {
    PANEL_WINDOW_NONE = 0,
    PANEL_WINDOW_PRESS,         // left button down at x, y (window pixels)
    PANEL_WINDOW_DRAG,          // the mouse moved with the left button down
    PANEL_WINDOW_RELEASE,       // left button up
    PANEL_WINDOW_FINGER_DOWN,   // a desktop touch: finger, fx, fy (0...1 of the window)
    PANEL_WINDOW_FINGER_MOVE,
    PANEL_WINDOW_FINGER_UP,
    PANEL_WINDOW_RESIZED,       // the window is now width x height pixels
    PANEL_WINDOW_EXPOSED,       // the window system lost the window's pixels: show them again
    PANEL_WINDOW_CLOSE,         // the window's close button
    PANEL_WINDOW_FOCUS_LOST,    // the window lost the keyboard and mouse: a held press is cancelled
};

struct panel_window_event {
    enum panel_window_event_kind kind;
    uint32_t timestamp;  // SDL_GetTicks() milliseconds when SDL queued it
    int32_t x, y;        // window pixels (mouse)
    int64_t finger;      // the finger's id (touch)
    float fx, fy;        // the finger's position, 0...1 of the window
    int32_t width, height;  // RESIZED
};

// A window, its renderer and the texture its pixels go through (opaque to Swift).
struct panel_window;

// Whether this build has the window (SDL's headers were there).
int panel_window_built_in(void);
// Loads SDL (once, thread-safe); NULL when it is usable, else why not.
const char *panel_sdl_load(void);
// SDL's last error (after a call below failed).
const char *panel_window_error(void);
// A resizable window of width x height pixels with a renderer synchronised to the display's
// refresh where the window system offers it; NULL on failure (panel_window_error says why).
struct panel_window *panel_window_open(const char *title, int width, int height);
void panel_window_close(struct panel_window *w);
// Makes the texture the window's pixels go through, width x height.
int panel_window_make_texture(struct panel_window *w, int width, int height);
// The window's size in pixels now.
void panel_window_size(struct panel_window *w, int *width, int *height);
// The descriptor of the window system's connection (readable when it has events), or -1
// where the video driver is not X11 (then the caller polls).
int panel_window_descriptor(struct panel_window *w);
// The name of the video driver ("x11", "wayland") and of the renderer ("opengl", "software").
const char *panel_window_video_driver(void);
const char *panel_window_renderer_name(struct panel_window *w);
// The refresh rate of the display the window is on, Hz; 0 when unknown.
int panel_window_refresh_rate(struct panel_window *w);
// Copies a rectangle of 32-bit pixels (x, y of the texture) into the texture.
int panel_window_update(struct panel_window *w, int x, int y, int width, int height, const void *pixels, int pitch);
// Shows the texture, one pixel per window pixel at the top left.
int panel_window_present(struct panel_window *w);
// SDL's milliseconds since it started (the clock of event time stamps).
uint64_t panel_window_ticks(void);
// Whether events wait (reads what the connection has first).
int panel_window_has_events(void);
// The next event for the window, translated; 0 when there is none. Events the kiosk has no
// use for (keys, other buttons, plain mouse motion) come back as PANEL_WINDOW_NONE.
int panel_window_poll(struct panel_window *w, struct panel_window_event *out);
#endif
