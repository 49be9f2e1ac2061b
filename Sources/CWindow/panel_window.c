// The desktop window through SDL2: SDL opened at the first window and the calls, declared in
// include/panel_window.h. What dlopen found lives in this file only (a header's static would
// give each object file that calls it a copy of its own, only one of them ever filled).
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "panel_dynamic.h"
#include "panel_window.h"

#if __has_include(<SDL2/SDL.h>)
#include <SDL2/SDL.h>

int panel_window_built_in(void) { return 1; }
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

static struct panel_sdl_api api_storage;
static struct panel_sdl_api *panel_sdl_api_storage(void) { return &api_storage; }

#define PANEL_SDL_FIND(name) \
    if (!(*(void **)&api->name = dlsym(library, "SDL_" #name))) { api->error = "libSDL2-2.0.so.0 lacks SDL_" #name; return; }

static void panel_sdl_load_once(void) {
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

const char *panel_sdl_load(void) {
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
const char *panel_window_error(void) { return panel_sdl_api_storage()->GetError(); }

// Makes the texture the window's pixels go through, width x height.
int panel_window_make_texture(struct panel_window *w, int width, int height) {
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
struct panel_window *panel_window_open(const char *title, int width, int height) {
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

void panel_window_close(struct panel_window *w) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    if (w->texture) api->DestroyTexture(w->texture);
    api->DestroyRenderer(w->renderer);
    api->DestroyWindow(w->window);
    free(w);
}

// The window's size in pixels now.
void panel_window_size(struct panel_window *w, int *width, int *height) {
    panel_sdl_api_storage()->GetWindowSize(w->window, width, height);
}

// The descriptor of the window system's connection (readable when it has events), or -1
// where the video driver is not X11 (then the caller polls).
int panel_window_descriptor(struct panel_window *w) {
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
const char *panel_window_video_driver(void) { return panel_sdl_api_storage()->GetCurrentVideoDriver(); }
const char *panel_window_renderer_name(struct panel_window *w) {
    SDL_RendererInfo info;
    if (panel_sdl_api_storage()->GetRendererInfo(w->renderer, &info) != 0) return "unknown";
    return info.name;
}

// The refresh rate of the display the window is on, Hz; 0 when unknown.
int panel_window_refresh_rate(struct panel_window *w) {
    SDL_DisplayMode mode;
    if (panel_sdl_api_storage()->GetWindowDisplayMode(w->window, &mode) != 0) return 0;
    return mode.refresh_rate;
}

// Copies a rectangle of 32-bit pixels (x, y of the texture) into the texture.
int panel_window_update(struct panel_window *w, int x, int y, int width, int height, const void *pixels, int pitch) {
    SDL_Rect rect = {x, y, width, height};
    return panel_sdl_api_storage()->UpdateTexture(w->texture, &rect, pixels, pitch);
}

// Shows the texture, one pixel per window pixel at the top left.
int panel_window_present(struct panel_window *w) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    SDL_Rect rect = {0, 0, w->texture_width, w->texture_height};
    if (api->RenderCopy(w->renderer, w->texture, &rect, &rect) != 0) return -1;
    api->RenderPresent(w->renderer);
    return 0;
}

// SDL's milliseconds since it started (the clock of event time stamps).
uint64_t panel_window_ticks(void) { return panel_sdl_api_storage()->GetTicks64(); }

// Whether events wait (reads what the connection has first).
int panel_window_has_events(void) {
    struct panel_sdl_api *api = panel_sdl_api_storage();
    api->PumpEvents();
    return api->HasEvents(SDL_FIRSTEVENT, SDL_LASTEVENT) ? 1 : 0;
}

// The next event for the window, translated; 0 when there is none. Events the kiosk has no
// use for (keys, other buttons, plain mouse motion) come back as PANEL_WINDOW_NONE.
int panel_window_poll(struct panel_window *w, struct panel_window_event *out) {
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
int panel_window_built_in(void) { return 0; }
const char *panel_sdl_load(void) { return "this build has no window: it was built without SDL2's headers (libsdl2-dev)"; }
const char *panel_window_error(void) { return panel_sdl_load(); }
struct panel_window *panel_window_open(const char *title, int width, int height) {
    (void)title; (void)width; (void)height;
    return NULL;
}
void panel_window_close(struct panel_window *w) { (void)w; }
int panel_window_make_texture(struct panel_window *w, int width, int height) { (void)w; (void)width; (void)height; return -1; }
void panel_window_size(struct panel_window *w, int *width, int *height) { (void)w; *width = 0; *height = 0; }
int panel_window_descriptor(struct panel_window *w) { (void)w; return -1; }
const char *panel_window_video_driver(void) { return "none"; }
const char *panel_window_renderer_name(struct panel_window *w) { (void)w; return "none"; }
int panel_window_refresh_rate(struct panel_window *w) { (void)w; return 0; }
int panel_window_update(struct panel_window *w, int x, int y, int width, int height, const void *pixels, int pitch) {
    (void)w; (void)x; (void)y; (void)width; (void)height; (void)pixels; (void)pitch;
    return -1;
}
int panel_window_present(struct panel_window *w) { (void)w; return -1; }
uint64_t panel_window_ticks(void) { return 0; }
int panel_window_has_events(void) { return 0; }
int panel_window_poll(struct panel_window *w, struct panel_window_event *out) { (void)w; (void)out; return 0; }

#endif
