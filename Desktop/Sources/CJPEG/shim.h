#pragma once
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

/* JPEG decoding for ExternalDisplaySDL through libjpeg(-turbo). libjpeg reports errors by calling a function
   that must not return; Swift cannot setjmp, so the whole decode lives here. Untrusted input: the declared
   size is checked against the caller's limits before any pixel memory is allocated. */

struct edk_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void edk_jpeg_fail(j_common_ptr info) {
    struct edk_jpeg_error *err = (struct edk_jpeg_error *)info->err;
    (*info->err->format_message)(info, err->message);
    longjmp(err->jump, 1);
}

static void edk_jpeg_quiet(j_common_ptr info, int level) { (void)info; (void)level; }

/// Decodes `size` bytes of JPEG into a malloc'd RGBA buffer (`*out`, free with free()). Returns 0 on success;
/// 1 with `message` set when the data is not a decodable JPEG; 2 when the image exceeds `max_side` or
/// `max_pixels` (`*width`, `*height` set to the declared size).
static inline int edk_jpeg_decode(const unsigned char *data, size_t size, int max_side, long max_pixels,
                                  unsigned char **out, int *width, int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct edk_jpeg_error err;
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile row = NULL;
    *out = NULL;
    *width = 0;
    *height = 0;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&err.base);
    err.base.error_exit = edk_jpeg_fail;
    err.base.emit_message = edk_jpeg_quiet;
    err.message[0] = 0;
    if (setjmp(err.jump)) {
        snprintf(message, message_size, "%s", err.message);
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    *width = (int)info.image_width;
    *height = (int)info.image_height;
    if (info.image_width == 0 || info.image_height == 0 || info.image_width > (unsigned)max_side
        || info.image_height > (unsigned)max_side || (long)info.image_width * (long)info.image_height > max_pixels) {
        jpeg_destroy_decompress(&info);
        return 2;
    }
    info.out_color_space = JCS_RGB;
    jpeg_start_decompress(&info);
    size_t w = info.output_width, h = info.output_height;
    pixels = malloc(w * h * 4);
    row = malloc(w * 3);
    if (!pixels || !row) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    while (info.output_scanline < info.output_height) {
        size_t y = info.output_scanline;
        JSAMPROW rows[1] = { row };
        jpeg_read_scanlines(&info, rows, 1);
        for (size_t x = 0; x < w; x++) {
            pixels[(y * w + x) * 4 + 0] = row[x * 3 + 0];
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
    *out = pixels;
    return 0;
}
