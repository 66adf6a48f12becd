// libpng's simplified API (Debian: libpng-dev, libpng 1.6): whole images to and from memory,
// with errors returned, not thrown by longjmp, which Swift cannot cross.
#include <png.h>

// PNG_FORMAT_RGBA is built from other macros, which Swift does not import.
static inline unsigned int gridlock_png_format_rgba(void) { return PNG_FORMAT_RGBA; }
