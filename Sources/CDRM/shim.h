// libdrm for PanelDisplay: KMS mode setting, dumb buffers, page flips, atomic commits.
#include <stddef.h>
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <poll.h>
#include <sys/mman.h>

// DRM_FORMAT_* are fourcc_code() macros Swift cannot import.
static const uint32_t panel_drm_format_xrgb8888 = DRM_FORMAT_XRGB8888;
static const uint32_t panel_drm_format_rgb565 = DRM_FORMAT_RGB565;

// Completed flips, as drmHandleEvent reports them: a legacy page flip and an atomic commit
// with DRM_MODE_PAGE_FLIP_EVENT both end in the page-flip handler with the user data given
// to the request. PanelDisplay passes one of these per descriptor; the handler fills it.
typedef struct {
    int32_t count;
    // The last flip's timestamp: CLOCK_MONOTONIC (the kernel's drm_crtc_vblank time base).
    uint32_t seconds;
    uint32_t microseconds;
    uint32_t crtc;
} panel_drm_flips;

static void panel_drm_flip_done(int fd, unsigned int frame, unsigned int sec, unsigned int usec,
                                unsigned int crtc, void *data) {
    (void)fd; (void)frame;
    panel_drm_flips *flips = (panel_drm_flips *)data;
    if (!flips) return;
    flips->count++;
    flips->seconds = sec;
    flips->microseconds = usec;
    flips->crtc = crtc;
}

// Reads the DRM events pending on fd; 0 or -1 with errno.
static inline int panel_drm_handle_events(int fd) {
    drmEventContext context = {0};
    context.version = 3;
    context.page_flip_handler2 = panel_drm_flip_done;
    return drmHandleEvent(fd, &context);
}
