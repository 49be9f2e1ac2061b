// libudev for PanelInput: finding touchscreens (ID_INPUT_TOUCHSCREEN) and hotplug.
#include <libudev.h>
