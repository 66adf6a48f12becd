#include "jpeg_codec.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// libjpeg's error manager, extended with where to jump back to and the message kept.
struct failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
    char message[JMSG_LENGTH_MAX];
};

static void fail(j_common_ptr info) {
    struct failure *failure = (struct failure *)info->err;
    (*info->err->format_message)(info, failure->message);
    longjmp(failure->back, 1);
}

// Warnings (a corrupt but readable stream, as stray bytes between markers) are not errors:
// libjpeg goes on with what it has. A file that ends early is one: libjpeg would fill the rest
// of the picture with grey, and a board or grid cut in half must be refused, not read. The
// decoder is given the data with an end marker (see gridlock_jpeg_decode), so a cut shows as
// a scan's data ending at that marker (JWRN_HIT_MARKER); JWRN_JPEG_EOF is kept for safety.
static void warn(j_common_ptr info, int level) {
    if (level == -1 && (info->err->msg_code == JWRN_JPEG_EOF || info->err->msg_code == JWRN_HIT_MARKER)) {
        struct failure *failure = (struct failure *)info->err;
        snprintf(failure->message, sizeof failure->message, "the file ends before the picture does (cut short?)");
        longjmp(failure->back, 1);
    }
}

static void keep(char *error, size_t error_size, const char *message) {
    if (error_size == 0) return;
    snprintf(error, error_size, "%s", message);
}

static int decode(const uint8_t *data, size_t size, size_t max_pixels, int *width, int *height, uint8_t **rgba,
                  char *error, size_t error_size) {
    struct jpeg_decompress_struct info;
    struct failure failure;
    // volatile: read after a longjmp.
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile row = NULL;
    *rgba = NULL;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = fail;
    failure.manager.emit_message = warn;
    if (setjmp(failure.back)) {
        keep(error, error_size, failure.message);
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    // The size is checked from the header, before jpeg_start_decompress: for a progressive
    // file, that call allocates the whole image's coefficients (a 182-byte file claiming
    // 30000x30000 took 1.8 GB). And no decode may hold more than 256 MiB of libjpeg's own.
    if (info.image_width == 0 || info.image_height == 0 || (size_t)info.image_width > max_pixels / info.image_height) {
        keep(error, error_size, info.image_width == 0 || info.image_height == 0 ? "the image has no pixels" : "the image is too large to read");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.mem->max_memory_to_use = 256L << 20;
    // libjpeg has no conversion from print colours to RGB: said plainly, not as its own
    // "Unsupported color conversion request".
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        keep(error, error_size, "the JPEG holds print colours (CMYK), not screen colours: save it as RGB");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t w = info.output_width, h = info.output_height;
    if (w == 0 || h == 0 || w > max_pixels / h || info.output_components != 3) {
        keep(error, error_size, w == 0 || h == 0 ? "the image has no pixels" : "the image is too large to read");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    pixels = malloc(w * h * 4);
    row = malloc(w * 3);
    if (!pixels || !row) {
        keep(error, error_size, "out of memory");
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        size_t y = info.output_scanline;
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&info, rows, 1);
        for (size_t x = 0; x < w; x++) {
            pixels[(y * w + x) * 4] = row[x * 3];
            pixels[(y * w + x) * 4 + 1] = row[x * 3 + 1];
            pixels[(y * w + x) * 4 + 2] = row[x * 3 + 2];
            pixels[(y * w + x) * 4 + 3] = 255;
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    *width = (int)w;
    *height = (int)h;
    *rgba = pixels;
    return 0;
}

// Some cameras and video frames leave out the final end marker (FF D9) though every pixel is
// there; libjpeg would call that a premature end. Such data is read with the marker added, so
// that only data that really stops early is refused (see warn).
int gridlock_jpeg_decode(const uint8_t *data, size_t size, size_t max_pixels, int *width, int *height, uint8_t **rgba,
                         char *error, size_t error_size) {
    if (size >= 2 && data[size - 2] == 0xFF && data[size - 1] == 0xD9) {
        return decode(data, size, max_pixels, width, height, rgba, error, error_size);
    }
    uint8_t *ended = malloc(size + 2);
    if (!ended) {
        keep(error, error_size, "out of memory");
        *rgba = NULL;
        return -1;
    }
    memcpy(ended, data, size);
    ended[size] = 0xFF;
    ended[size + 1] = 0xD9;
    int status = decode(ended, size + 2, max_pixels, width, height, rgba, error, error_size);
    free(ended);
    return status;
}

int gridlock_jpeg_encode(const uint8_t *rgba, int width, int height, int quality, uint8_t **jpeg, size_t *jpeg_size,
                         char *error, size_t error_size) {
    struct jpeg_compress_struct info;
    struct failure failure;
    uint8_t *volatile row = NULL;
    // Its address goes to libjpeg, so it lives in memory and is current after a longjmp.
    unsigned char *buffer = NULL;
    unsigned long out_size = 0;
    *jpeg = NULL;
    *jpeg_size = 0;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = fail;
    failure.manager.emit_message = warn;
    if (setjmp(failure.back)) {
        keep(error, error_size, failure.message);
        jpeg_destroy_compress(&info);
        free(row);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &out_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    row = malloc((size_t)width * 3);
    if (!row) {
        keep(error, error_size, "out of memory");
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    while (info.next_scanline < info.image_height) {
        size_t y = info.next_scanline;
        for (size_t x = 0; x < (size_t)width; x++) {
            row[x * 3] = rgba[(y * (size_t)width + x) * 4];
            row[x * 3 + 1] = rgba[(y * (size_t)width + x) * 4 + 1];
            row[x * 3 + 2] = rgba[(y * (size_t)width + x) * 4 + 2];
        }
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row);
    *jpeg = buffer;
    *jpeg_size = out_size;
    return 0;
}
