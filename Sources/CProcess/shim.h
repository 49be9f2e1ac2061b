// The process and its children (PanelHost, PanelKiosk): what Swift cannot import from <sys/wait.h>, whose
// status accessors are function-like macros and whose siginfo_t is a union, for the command
// data source; and <malloc.h>, which the Glibc module leaves out, for the heap.
#include <sys/types.h>
#include <malloc.h>
#include <sys/wait.h>
#include <signal.h>
#include <spawn.h>
#include <fcntl.h>

// 1 when the child `pid` has ended, 0 while it runs, -1 with errno. It is not reaped
// (WNOWAIT): a zombie leader keeps its process group id taken, so the caller can still end
// the rest of the group by that id before reaping.
static inline int panel_child_has_ended(pid_t pid) {
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid != 0;
}

// The exit code of a wait status, or -1 when the process did not exit normally.
static inline int panel_wait_exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

// The signal that ended the process, or 0.
static inline int panel_wait_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

// pipe2 is declared only under _GNU_SOURCE, which the Swift C library module is built without.
// O_CLOEXEC from the start: another thread's child cannot inherit the pipe between pipe() and
// fcntl() and hold it open.
extern int pipe2(int pipefd[2], int flags);
static inline int panel_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

// Likewise declared only under _GNU_SOURCE (glibc 2.34 and later): the child closes every
// descriptor from `low` up before exec, so none of the parent's reaches the program.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int low);
static inline int panel_spawn_close_from(posix_spawn_file_actions_t *actions, int low) {
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
}

// The stack size of threads created from now on without one of their own (Dispatch's workers),
// bytes; 0 or an errno. pthread_setattr_default_np is declared only under _GNU_SOURCE.
#include <pthread.h>
extern int pthread_setattr_default_np(const pthread_attr_t *attr);
static inline int panel_set_default_thread_stack(size_t bytes) {
    pthread_attr_t attr;
    int error = pthread_attr_init(&attr);
    if (error != 0) return error;
    error = pthread_attr_setstacksize(&attr, bytes);
    if (error == 0) error = pthread_setattr_default_np(&attr);
    pthread_attr_destroy(&attr);
    return error;
}

// prctl is variadic, which Swift cannot call. PR_SET_CHILD_SUBREAPER (Linux 3.4): orphaned
// descendants (a data-source command's `setsid` daemon) are re-parented to this process
// instead of init, so the kiosk can find and end them. 0 or -1 with errno.
#include <sys/prctl.h>
static inline int panel_become_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }
// 1 when this kernel (or emulator) answers PR_GET_CHILD_SUBREAPER, 0 when not: qemu-user
// refuses both calls with EINVAL.
static inline int panel_child_subreaper_supported(void) {
    int value = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&value, 0, 0, 0) == 0;
}

// memfd_create is declared only under _GNU_SOURCE (glibc 2.27 and later): a tap command's
// stdin, the item, lives in an anonymous file rather than a pipe, so a program that never
// reads it cannot block the kiosk's write. Close-on-exec; the child gets it as descriptor 0.
extern int memfd_create(const char *name, unsigned int flags);
static inline int panel_memfd(const char *name) { return memfd_create(name, 1U /* MFD_CLOEXEC */); }

// The kiosk's signal handler (PanelHost's SignalPipe), in C: it runs on whichever thread the
// kernel picks, and that is mostly the main thread Dispatch parks in a thread-exit destructor
// (dispatchMain ends the main thread with pthread_exit and waits in sigsuspend there). There a
// sanitizer's per-thread state is already torn down, and AddressSanitizer's checks on a Swift
// handler's stack aborted the process (asan_thread.cpp "kCurrentStackFrameMagic"). Swift does
// not promise that a closure calls no runtime, either. So this handler is uninstrumented and
// calls the kernel directly (syscall(2), which no sanitizer intercepts): it writes the signal's
// number as one byte into `fd`, a non-blocking pipe (a full pipe drops the byte), and leaves
// errno as it was.
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
// One copy per importing module; only PanelHost installs the handler, and the handler reads
// the copy its own module set.
static int panel_signal_pipe_fd = -1;
__attribute__((no_sanitize("address", "undefined", "thread")))
static void panel_signal_pipe_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    (void)syscall(SYS_write, panel_signal_pipe_fd, &byte, 1);
    errno = saved;
}
// Sends signal `number` to the pipe `fd` from now on (SA_RESTART: a slow call the signal
// interrupts goes on). 0 or -1 with errno.
static inline int panel_signal_to_pipe(int number, int fd) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = panel_signal_pipe_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    panel_signal_pipe_fd = fd;
    return sigaction(number, &action, NULL);
}

// The control socket (PanelKiosk's ControlServer). accept4 is declared only under _GNU_SOURCE:
// the accepted descriptor is non-blocking and close-on-exec from the start (no window in which
// a command's child inherits it, no fcntl that can fail after the accept). The fd or -1.
#include <sys/socket.h>
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int panel_accept_nonblocking(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

// The uid of the process at the other end of a connected AF_UNIX socket (SO_PEERCRED, which
// the kernel fills at connect(): the caller cannot lie about it). struct ucred is declared only
// under _GNU_SOURCE; the kernel's layout is {pid, uid, gid}. 0 or -1 with errno.
struct panel_peer_credentials { int pid; unsigned int uid; unsigned int gid; };
static inline int panel_socket_peer_uid(int fd, unsigned int *uid) {
    struct panel_peer_credentials credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

#include <sys/timerfd.h>
#include <errno.h>
#include <unistd.h>

// Arms `fd` (a CLOCK_REALTIME timerfd) for 9999-12-31 with TFD_TIMER_CANCEL_ON_SET: it never
// expires, and a read fails with ECANCELED once the system clock is set (a step: date, NTP's
// first sync, an RTC read late), which makes the descriptor readable. 0, or -1 with errno.
static inline int panel_clock_watch_arm(int fd) {
    struct itimerspec spec = {{0, 0}, {253402300799, 0}};
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, 0);
}

// A descriptor readable when the system clock is set (panel_clock_watch_arm), close-on-exec
// and non-blocking; -1 with errno.
static inline int panel_clock_watch_open(void) {
    int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
    if (fd < 0) return -1;
    if (panel_clock_watch_arm(fd) != 0) { int e = errno; close(fd); errno = e; return -1; }
    return fd;
}

// After the descriptor turned readable: 1 when the clock was set (it is armed again), 0 when
// nothing happened, -1 with errno.
static inline int panel_clock_watch_take(int fd) {
    unsigned long long expirations;
    if (read(fd, &expirations, sizeof expirations) >= 0) return 0;
    if (errno == EAGAIN) return 0;
    if (errno != ECANCELED) return -1;
    return panel_clock_watch_arm(fd) == 0 ? 1 : -1;
}
