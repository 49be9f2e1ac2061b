// libjpeg-turbo's TurboJPEG API (2.1): the header gives the size before any allocation, and
// the decode scales by 1/2, 1/4 or 1/8 inside the IDCT. No setjmp/longjmp, which Swift cannot use.
#include <stddef.h>
#include <turbojpeg.h>
