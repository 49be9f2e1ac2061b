// libsystemd: sd_notify and the watchdog interval for Type=notify services.
#include <systemd/sd-daemon.h>
// sd_journal_sendv: journal entries with fields of our own (PANEL_REFRESH_EVENT=...), which
// `journalctl PANEL_REFRESH_EVENT=refresh-failed` filters on. (sd_journal_send is variadic,
// which Swift cannot call; the iovec form is not.)
#include <systemd/sd-journal.h>
// sd-bus: logind's session (TakeControl, TakeDevice, PauseDevice/ResumeDevice) for the kiosk
// in a logind session. Only the non-variadic calls are used (message by message).
#include <systemd/sd-bus.h>
// sd_pid_get_session: the logind session of a process, from its cgroup.
#include <systemd/sd-login.h>
