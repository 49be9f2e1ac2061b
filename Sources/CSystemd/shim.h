// libsystemd: sd_notify and the watchdog interval for Type=notify services.
#include <systemd/sd-daemon.h>
// sd_journal_sendv: journal entries with fields of our own (PANEL_REFRESH_EVENT=...), which
// `journalctl PANEL_REFRESH_EVENT=refresh-failed` filters on. (sd_journal_send is variadic,
// which Swift cannot call; the iovec form is not.)
#include <systemd/sd-journal.h>
