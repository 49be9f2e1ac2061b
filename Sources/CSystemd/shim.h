// libsystemd: sd_notify and the watchdog interval for Type=notify services.
#include <systemd/sd-daemon.h>
