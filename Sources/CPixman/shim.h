// pixman: compositing, fills and anti-aliased triangles with SIMD fast paths.
#include <pixman.h>
