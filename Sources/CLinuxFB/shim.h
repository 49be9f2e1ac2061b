// The framebuffer ioctls (linux/fb.h): ioctl() is variadic, which Swift cannot call.
#include <linux/fb.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

static inline int panel_fb_get_var(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOGET_VSCREENINFO, info); }
static inline int panel_fb_get_fix(int fd, struct fb_fix_screeninfo *info) { return ioctl(fd, FBIOGET_FSCREENINFO, info); }
// FB_BLANK_POWERDOWN (4) turns the panel off, FB_BLANK_UNBLANK (0) on.
static inline int panel_fb_blank(int fd, unsigned long level) { return ioctl(fd, FBIOBLANK, level); }
