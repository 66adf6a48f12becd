// FreeType (Debian: libfreetype-dev), to draw the digits of installed fonts: the Sudoku digit
// reader is trained on them when Gridlock is built, and the tests print grids with them.
#include <ft2build.h>
#include FT_FREETYPE_H

// Flag macros built from other macros, which Swift does not import.
static inline int gridlock_ft_load_render(void) { return FT_LOAD_RENDER; }
static inline int gridlock_ft_pixel_mode_gray(void) { return FT_PIXEL_MODE_GRAY; }
