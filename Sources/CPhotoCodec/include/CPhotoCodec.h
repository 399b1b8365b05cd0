#ifndef RP_PHOTO_CODEC_H
#define RP_PHOTO_CODEC_H

/*
 * A small C shim over libjpeg and libpng for the RecipeImages module.
 *
 * Both libraries report fatal errors by longjmp (or exit), which Swift cannot survive, so every
 * function here catches those errors itself and returns an rp_code together with a message.
 * All decoding works from memory buffers, keeps no global state and is safe to call from many
 * threads at once (each call uses its own decoder instance).
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of every rp_ function. */
typedef enum rp_code {
    RP_OK = 0,
    /* The stream is corrupt or ends early; rp_status.message says why. */
    RP_DAMAGED = 1,
    /* The header declares more pixels than allowed; rp_status.width/height hold the declared size. */
    RP_TOO_MANY_PIXELS = 2,
    /* Memory for the pixel buffers could not be allocated. */
    RP_NO_MEMORY = 3,
    /* The caller passed an impossible argument (null buffer, zero size, bad dimensions). */
    RP_INVALID_ARGUMENT = 4
} rp_code;

/* What a call found out: the code, the size the header declares (when it was read) and a message. */
typedef struct rp_status {
    int code;
    int width;
    int height;
    char message[200];
} rp_status;

/* Tightly packed 8-bit RGB pixels owned by the caller; release `rgb` with rp_free. */
typedef struct rp_pixels {
    unsigned char *rgb;
    int width;
    int height;
} rp_pixels;

/* Decodes a whole JPEG stream (at 1/8 scale, one row at a time) to prove it is complete.
 * Refuses before decoding when width*height exceeds max_pixels. */
int rp_jpeg_check(const unsigned char *data, size_t size, long long max_pixels, rp_status *status);

/* Decodes a whole PNG stream (one row at a time, through IEND) to prove it is complete.
 * Refuses before decoding when width*height exceeds max_pixels. */
int rp_png_check(const unsigned char *data, size_t size, long long max_pixels, rp_status *status);

/* Decodes a JPEG into RGB pixels whose longer side is min(max_side, longer side of the image),
 * using libjpeg's DCT scaling and an area-average filter so the full image is never held. */
int rp_jpeg_thumbnail_pixels(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                             rp_pixels *out, rp_status *status);

/* Decodes a PNG into RGB pixels (alpha composited on white) whose longer side is
 * min(max_side, longer side of the image), using an area-average filter. */
int rp_png_thumbnail_pixels(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                            rp_pixels *out, rp_status *status);

/* Encodes tightly packed RGB pixels as a baseline JFIF JPEG (no EXIF) at the given quality (1-100).
 * On success *out holds a buffer of *out_size bytes; release it with rp_free. */
int rp_jpeg_encode_rgb(const unsigned char *rgb, int width, int height, int quality,
                       unsigned char **out, size_t *out_size, rp_status *status);

/* Releases a buffer returned by this shim. */
void rp_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
