// A desktop window through SDL2, for developing on a desktop (PanelDisplay's WindowDisplay).
//
// libSDL2 is opened at the first window (dlopen), never linked: the program on a panel does
// not need it, and the Debian package does not depend on it. SDL's headers are only needed to
// build: where they are missing (the arm64 sysroot, made for panels) every call below says
// "built without SDL2's headers" and the rest of the program is unchanged.
//
// The shim hands Swift plain structs: SDL's event union, its hints and its X11 connection
// stay here, so the Swift side does not depend on SDL's headers being there.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../CDynamic/panel_dynamic.h"
#include <pthread.h>

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

#if __has_include(<SDL2/SDL.h>)
#include <SDL2/SDL.h>

// Whether this build has the window (SDL's headers were there).
static inline int panel_window_built_in(void) { return 1; }
#include <SDL2/SDL_syswm.h>

// The functions used, found in libSDL2-2.0.so.0 once.
struct panel_sdl_api {
    const char *error;
    SDL_bool (*SetHint)(const char *, const char *);
    int (*Init)(Uint32);
    const char *(*GetError)(void);
    SDL_Window *(*CreateWindow)(const char *, int, int, int, int, Uint32);
    void (*DestroyWindow)(SDL_Window *);
    SDL_Renderer *(*CreateRenderer)(SDL_Window *, int, Uint32);
    void (*DestroyRenderer)(SDL_Renderer *);
    SDL_Texture *(*CreateTexture)(SDL_Renderer *, Uint32, int, int, int);
    void (*DestroyTexture)(SDL_Texture *);
    int (*SetTextureBlendMode)(SDL_Texture *, SDL_BlendMode);
    int (*UpdateTexture)(SDL_Texture *, const SDL_Rect *, const void *, int);
    int (*RenderCopy)(SDL_Renderer *, SDL_Texture *, const SDL_Rect *, const SDL_Rect *);
    void (*RenderPresent)(SDL_Renderer *);
    int (*PollEvent)(SDL_Event *);
    void (*PumpEvents)(void);
    SDL_bool (*HasEvents)(Uint32, Uint32);
    void (*GetWindowSize)(SDL_Window *, int *, int *);
    int (*GetWindowDisplayMode)(SDL_Window *, SDL_DisplayMode *);
    SDL_bool (*GetWindowWMInfo)(SDL_Window *, SDL_SysWMinfo *);
    Uint64 (*GetTicks64)(void);
    int (*GetRendererInfo)(SDL_Renderer *, SDL_RendererInfo *);
    const char *(*GetCurrentVideoDriver)(void);
};

static inline struct panel_sdl_api *panel_sdl_api_storage(void) {
    static struct panel_sdl_api api;
    return &api;
}

#define PANEL_SDL_FIND(name) \
    if (!(*(void **)&api->name = dlsym(library, "SDL_" #name))) { api->error = "libSDL2-2.0.so.0 lacks SDL_" #name; return; }

static inline void panel_sdl_load_once(void) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    void *library = panel_dynamic_open("libSDL2-2.0.so.0", &api->error);
    if (!library) return;
    PANEL_SDL_FIND(SetHint) PANEL_SDL_FIND(Init) PANEL_SDL_FIND(GetError) PANEL_SDL_FIND(CreateWindow)
    PANEL_SDL_FIND(DestroyWindow) PANEL_SDL_FIND(CreateRenderer) PANEL_SDL_FIND(DestroyRenderer)
    PANEL_SDL_FIND(CreateTexture) PANEL_SDL_FIND(DestroyTexture) PANEL_SDL_FIND(SetTextureBlendMode)
    PANEL_SDL_FIND(UpdateTexture) PANEL_SDL_FIND(RenderCopy) PANEL_SDL_FIND(RenderPresent) PANEL_SDL_FIND(PollEvent)
    PANEL_SDL_FIND(PumpEvents) PANEL_SDL_FIND(HasEvents) PANEL_SDL_FIND(GetWindowSize) PANEL_SDL_FIND(GetWindowDisplayMode)
    PANEL_SDL_FIND(GetWindowWMInfo) PANEL_SDL_FIND(GetTicks64) PANEL_SDL_FIND(GetRendererInfo)
    PANEL_SDL_FIND(GetCurrentVideoDriver)
    // Our signals stay ours (SIGINT and SIGTERM reach the kiosk's signal pipe, not SDL_QUIT);
    // a desktop touch is a touch, not also a mouse, and a mouse is not also a touch.
    api->SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    api->SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");
    api->SetHint(SDL_HINT_MOUSE_TOUCH_EVENTS, "0");
    // Pixels are copied one to one: nearest, never smoothed.
    api->SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0");
    // A compositor may go on compositing the window (its screenshots and its vsync stay right).
    api->SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
    if (api->Init(SDL_INIT_VIDEO) != 0) api->error = api->GetError();
}

// Loads SDL (once, thread-safe); NULL when it is usable, else why not.
static inline const char *panel_sdl_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, panel_sdl_load_once);
    return panel_sdl_api_storage()->error;
}

struct panel_window {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    int texture_width, texture_height;
};

// SDL's last error (after a call below failed).
static inline const char *panel_window_error(void) { return panel_sdl_api_storage()->GetError(); }

// Makes the texture the window's pixels go through, width x height.
static inline int panel_window_make_texture(struct panel_window *w, int width, int height) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_Texture *texture = api->CreateTexture(w->renderer, SDL_PIXELFORMAT_XRGB8888, SDL_TEXTUREACCESS_STREAMING, width, height);
    if (!texture) return -1;
    api->SetTextureBlendMode(texture, SDL_BLENDMODE_NONE);
    if (w->texture) api->DestroyTexture(w->texture);
    w->texture = texture;
    w->texture_width = width;
    w->texture_height = height;
    return 0;
}

// A resizable window of width x height pixels with a renderer synchronised to the display's
// refresh where the window system offers it; NULL on failure (panel_window_error says why).
static inline struct panel_window *panel_window_open(const char *title, int width, int height) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_Window *window = api->CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width, height,
                                           SDL_WINDOW_RESIZABLE | SDL_WINDOW_SHOWN);
    if (!window) return NULL;
    SDL_Renderer *renderer = api->CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (!renderer) renderer = api->CreateRenderer(window, -1, 0);
    if (!renderer) {
        api->DestroyWindow(window);
        return NULL;
    }
    struct panel_window *w = calloc(1, sizeof *w);
    if (!w) {
        api->DestroyRenderer(renderer);
        api->DestroyWindow(window);
        return NULL;
    }
    w->window = window;
    w->renderer = renderer;
    if (panel_window_make_texture(w, width, height) != 0) {
        api->DestroyRenderer(renderer);
        api->DestroyWindow(window);
        free(w);
        return NULL;
    }
    return w;
}

static inline void panel_window_close(struct panel_window *w) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    if (w->texture) api->DestroyTexture(w->texture);
    api->DestroyRenderer(w->renderer);
    api->DestroyWindow(w->window);
    free(w);
}

// The window's size in pixels now.
static inline void panel_window_size(struct panel_window *w, int *width, int *height) {
    panel_sdl_api_storage()->GetWindowSize(w->window, width, height);
}

// The descriptor of the window system's connection (readable when it has events), or -1
// where the video driver is not X11 (then the caller polls).
static inline int panel_window_descriptor(struct panel_window *w) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_SysWMinfo info;
    memset(&info, 0, sizeof info);
    SDL_VERSION(&info.version);
    if (!api->GetWindowWMInfo(w->window, &info)) return -1;
#if defined(SDL_VIDEO_DRIVER_X11)
    // ConnectionNumber is a macro over the Display record: no call into libX11.
    if (info.subsystem == SDL_SYSWM_X11) return ConnectionNumber(info.info.x11.display);
#endif
    return -1;
}

// The name of the video driver ("x11", "wayland") and of the renderer ("opengl", "software").
static inline const char *panel_window_video_driver(void) { return panel_sdl_api_storage()->GetCurrentVideoDriver(); }
static inline const char *panel_window_renderer_name(struct panel_window *w) {
    SDL_RendererInfo info;
    if (panel_sdl_api_storage()->GetRendererInfo(w->renderer, &info) != 0) return "unknown";
    return info.name;
}

// The refresh rate of the display the window is on, Hz; 0 when unknown.
static inline int panel_window_refresh_rate(struct panel_window *w) {
    SDL_DisplayMode mode;
    if (panel_sdl_api_storage()->GetWindowDisplayMode(w->window, &mode) != 0) return 0;
    return mode.refresh_rate;
}

// Copies a rectangle of 32-bit pixels (x, y of the texture) into the texture.
static inline int panel_window_update(struct panel_window *w, int x, int y, int width, int height, const void *pixels, int pitch) {
    SDL_Rect rect = {x, y, width, height};
    return panel_sdl_api_storage()->UpdateTexture(w->texture, &rect, pixels, pitch);
}

// Shows the texture, one pixel per window pixel at the top left.
static inline int panel_window_present(struct panel_window *w) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_Rect rect = {0, 0, w->texture_width, w->texture_height};
    if (api->RenderCopy(w->renderer, w->texture, &rect, &rect) != 0) return -1;
    api->RenderPresent(w->renderer);
    return 0;
}

// SDL's milliseconds since it started (the clock of event time stamps).
static inline uint64_t panel_window_ticks(void) { return panel_sdl_api_storage()->GetTicks64(); }

// Whether events wait (reads what the connection has first).
static inline int panel_window_has_events(void) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    api->PumpEvents();
    return api->HasEvents(SDL_FIRSTEVENT, SDL_LASTEVENT) ? 1 : 0;
}

// The next event for the window, translated; 0 when there is none. Events the kiosk has no
// use for (keys, other buttons, plain mouse motion) come back as PANEL_WINDOW_NONE.
static inline int panel_window_poll(struct panel_window *w, struct panel_window_event *out) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_Event event;
    if (!api->PollEvent(&event)) return 0;
    memset(out, 0, sizeof *out);
    out->timestamp = event.common.timestamp;
    switch (event.type) {
    case SDL_QUIT:
        out->kind = PANEL_WINDOW_CLOSE;
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (event.button.button == SDL_BUTTON_LEFT && event.button.which != SDL_TOUCH_MOUSEID) {
            out->kind = event.type == SDL_MOUSEBUTTONDOWN ? PANEL_WINDOW_PRESS : PANEL_WINDOW_RELEASE;
            out->x = event.button.x;
            out->y = event.button.y;
        }
        break;
    case SDL_MOUSEMOTION:
        if ((event.motion.state & SDL_BUTTON_LMASK) && event.motion.which != SDL_TOUCH_MOUSEID) {
            out->kind = PANEL_WINDOW_DRAG;
            out->x = event.motion.x;
            out->y = event.motion.y;
        }
        break;
    case SDL_FINGERDOWN:
    case SDL_FINGERMOTION:
    case SDL_FINGERUP:
        out->kind = event.type == SDL_FINGERDOWN ? PANEL_WINDOW_FINGER_DOWN
                  : event.type == SDL_FINGERUP ? PANEL_WINDOW_FINGER_UP : PANEL_WINDOW_FINGER_MOVE;
        out->finger = (int64_t)event.tfinger.fingerId;
        out->fx = event.tfinger.x;
        out->fy = event.tfinger.y;
        break;
    case SDL_WINDOWEVENT:
        switch (event.window.event) {
        case SDL_WINDOWEVENT_SIZE_CHANGED:
            out->kind = PANEL_WINDOW_RESIZED;
            out->width = event.window.data1;
            out->height = event.window.data2;
            break;
        case SDL_WINDOWEVENT_EXPOSED:
            out->kind = PANEL_WINDOW_EXPOSED;
            break;
        case SDL_WINDOWEVENT_CLOSE:
            out->kind = PANEL_WINDOW_CLOSE;
            break;
        case SDL_WINDOWEVENT_FOCUS_LOST:
            out->kind = PANEL_WINDOW_FOCUS_LOST;
            break;
        default:
            break;
        }
        break;
    default:
        break;
    }
    (void)w;
    return 1;
}

#else  // no SDL headers at build time

struct panel_window { int unused; };
static inline int panel_window_built_in(void) { return 0; }
static inline const char *panel_sdl_load(void) { return "this build has no window: it was built without SDL2's headers (libsdl2-dev)"; }
static inline const char *panel_window_error(void) { return panel_sdl_load(); }
static inline struct panel_window *panel_window_open(const char *title, int width, int height) {
    (void)title; (void)width; (void)height;
    return NULL;
}
static inline void panel_window_close(struct panel_window *w) { (void)w; }
static inline int panel_window_make_texture(struct panel_window *w, int width, int height) { (void)w; (void)width; (void)height; return -1; }
static inline void panel_window_size(struct panel_window *w, int *width, int *height) { (void)w; *width = 0; *height = 0; }
static inline int panel_window_descriptor(struct panel_window *w) { (void)w; return -1; }
static inline const char *panel_window_video_driver(void) { return "none"; }
static inline const char *panel_window_renderer_name(struct panel_window *w) { (void)w; return "none"; }
static inline int panel_window_refresh_rate(struct panel_window *w) { (void)w; return 0; }
static inline int panel_window_update(struct panel_window *w, int x, int y, int width, int height, const void *pixels, int pitch) {
    (void)w; (void)x; (void)y; (void)width; (void)height; (void)pixels; (void)pitch;
    return -1;
}
static inline int panel_window_present(struct panel_window *w) { (void)w; return -1; }
static inline uint64_t panel_window_ticks(void) { return 0; }
static inline int panel_window_has_events(void) { return 0; }
static inline int panel_window_poll(struct panel_window *w, struct panel_window_event *out) { (void)w; (void)out; return 0; }

#endif
