// libdrm for PanelDisplay: KMS mode setting, dumb buffers, page flips.
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

// drmHandleEvent calls a C function per completed page flip with the user data given to
// drmModePageFlip: PanelDisplay passes a counter it owns, and this adds one to it.
static void panel_drm_count_flip(int fd, unsigned int frame, unsigned int sec, unsigned int usec, void *data) {
    (void)fd; (void)frame; (void)sec; (void)usec;
    if (data) (*(int *)data)++;
}

// Reads the DRM events pending on fd (page flips add to their counters); 0 or -1 with errno.
static inline int panel_drm_handle_events(int fd) {
    drmEventContext context = {0};
    context.version = 2;
    context.page_flip_handler = panel_drm_count_flip;
    return drmHandleEvent(fd, &context);
}
