// The virtual terminal's ioctls (linux/vt.h, linux/kd.h): ioctl() is variadic, which Swift
// cannot call. Each takes the VT's descriptor; the caller must have the VT as its controlling
// terminal (systemd's TTYPath= with StandardInput=tty) or CAP_SYS_TTY_CONFIG.
#include <linux/kd.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <string.h>

// KDSETMODE: KD_GRAPHICS (1) stops the console drawing on this VT; KD_TEXT (0) gives it back.
static inline int panel_vt_set_graphics(int fd, int graphics) {
    return ioctl(fd, KDSETMODE, graphics ? KD_GRAPHICS : KD_TEXT);
}
// KDGETMODE: the VT's mode now (KD_TEXT or KD_GRAPHICS), -1 on error.
static inline int panel_vt_graphics_mode(int fd) {
    int mode = 0;
    return ioctl(fd, KDGETMODE, &mode) < 0 ? -1 : mode;
}
// VT_SETMODE VT_PROCESS: a switch away sends `signal` and waits for VT_RELDISP; a switch back
// sends it again once the VT is ours. VT_AUTO (process == 0): the kernel switches alone.
static inline int panel_vt_set_process(int fd, int process, int signal) {
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = process ? VT_PROCESS : VT_AUTO;
    mode.relsig = process ? (short)signal : 0;
    mode.acqsig = process ? (short)signal : 0;
    return ioctl(fd, VT_SETMODE, &mode);
}
// VT_RELDISP 1: lets a pending switch away go on (EINVAL when none is pending).
static inline int panel_vt_release(int fd) { return ioctl(fd, VT_RELDISP, 1); }
// VT_RELDISP VT_ACKACQ: acknowledges that the VT came back.
static inline int panel_vt_acknowledge_acquire(int fd) { return ioctl(fd, VT_RELDISP, VT_ACKACQ); }
// VT_GETSTATE: the number of the VT in front, -1 on error.
static inline int panel_vt_active(int fd) {
    struct vt_stat state;
    memset(&state, 0, sizeof state);
    return ioctl(fd, VT_GETSTATE, &state) < 0 ? -1 : state.v_active;
}

// A device number's parts (major() and minor() are macros).
#include <sys/types.h>
#include <sys/sysmacros.h>
static inline unsigned int panel_device_major(dev_t device) { return major(device); }
static inline unsigned int panel_device_minor(dev_t device) { return minor(device); }
