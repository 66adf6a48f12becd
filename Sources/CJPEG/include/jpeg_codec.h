// JPEG files through libjpeg-turbo (Debian: libjpeg62-turbo-dev). libjpeg reports errors by
// longjmp, which Swift cannot cross: these wrappers catch them in C and return them as text.
#ifndef GRIDLOCK_JPEG_CODEC_H
#define GRIDLOCK_JPEG_CODEC_H
#include <stddef.h>
#include <stdint.h>

/// Decodes a JPEG to 8-bit RGBA (alpha 255), rows top first, into a buffer it allocates
/// (free it with free). Refuses images of more than `max_pixels`. 0 on success; -1 with a
/// reason in `error` (at most `error_size` bytes, NUL-ended).
int gridlock_jpeg_decode(const uint8_t *data, size_t size, size_t max_pixels, int *width, int *height, uint8_t **rgba,
                         char *error, size_t error_size);

/// Encodes 8-bit RGBA pixels (alpha ignored) as a JPEG of `quality` (1-100) into a buffer it
/// allocates (free it with free). 0 on success; -1 with a reason in `error`.
int gridlock_jpeg_encode(const uint8_t *rgba, int width, int height, int quality, uint8_t **jpeg, size_t *jpeg_size,
                         char *error, size_t error_size);
#endif
