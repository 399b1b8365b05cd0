/*
 * PhotoCodec.c — the C shim behind RecipeImages.
 *
 * Why this file exists: libjpeg reports fatal errors by calling error_exit, whose default ends the
 * process, and the only way to recover is to longjmp out of the library. libpng works the same way
 * (png_error longjmps). Swift cannot call setjmp, and a longjmp across Swift frames is undefined
 * behaviour, so every call into either library happens here, in C, under a setjmp that turns the
 * error into an rp_code plus a message.
 *
 * The shim also
 *  - treats libjpeg's "corrupt data" and "premature end" warnings (after which libjpeg would
 *    silently fill the rest of the picture with grey) as errors, so a truncated upload is refused;
 *  - checks the pixel count from the header before anything the size of the image is allocated;
 *  - decodes JPEGs with DCT scaling (1/2, 1/4, 1/8) and shrinks rows with a streaming area-average
 *    filter, so making a thumbnail never holds the full-size picture (except for interlaced PNGs,
 *    whose passes need the whole image, which the pixel limit bounds);
 *  - keeps no global state: each call owns its decoder, so calls may run on many threads at once.
 *
 * To keep longjmp well defined, each public function keeps all of its state in a context struct
 * it owns, and a separate static "run" function calls setjmp and works only through a pointer to
 * that struct; after a longjmp the public function frees whatever the struct records.
 */

#include "CPhotoCodec.h"

#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

/* More scans than any real progressive JPEG uses; a crafted file with thousands of tiny scans
 * would otherwise make decoding take minutes. */
#define RP_MAX_JPEG_SCANS 500

/* ------------------------------------------------------------------------------------------ */
/* Status helpers                                                                              */

static void rp_status_reset(rp_status *status) {
    status->code = RP_OK;
    status->width = 0;
    status->height = 0;
    status->message[0] = '\0';
}

static int rp_fail(rp_status *status, int code, const char *message) {
    status->code = code;
    snprintf(status->message, sizeof status->message, "%s", message != NULL ? message : "");
    return code;
}

void rp_free(void *pointer) {
    free(pointer);
}

/* The thumbnail size for a width x height image: the longer side becomes min(max_side, longer
 * side) — never larger than the image — and the shorter side keeps the aspect ratio (rounded, at
 * least 1). */
static void rp_target_size(int width, int height, int max_side, int *target_width, int *target_height) {
    long long w = width, h = height;
    long long longer = w > h ? w : h;
    long long shorter = w > h ? h : w;
    long long target_long = (long long)max_side < longer ? (long long)max_side : longer;
    if (target_long < 1) target_long = 1;
    long long target_short = (shorter * target_long * 2 + longer) / (2 * longer);
    if (target_short < 1) target_short = 1;
    if (target_short > target_long) target_short = target_long;
    if (w >= h) {
        *target_width = (int)target_long;
        *target_height = (int)target_short;
    } else {
        *target_width = (int)target_short;
        *target_height = (int)target_long;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Streaming area-average downsampler                                                          */

/* Each source pixel belongs to exactly one destination pixel (x * dst_w / src_w); a destination
 * pixel is the average of its source pixels. Rows arrive top to bottom, so only one destination
 * row of sums is kept. */
typedef struct rp_sampler {
    int src_width, src_height, dst_width, dst_height;
    int next_src_row;
    int current_dst_row;
    int *column_map;
    unsigned long long *sums;
    unsigned long long *counts;
    unsigned char *rgb;
} rp_sampler;

static void rp_sampler_free(rp_sampler *s) {
    free(s->column_map);
    free(s->sums);
    free(s->counts);
    free(s->rgb);
    memset(s, 0, sizeof *s);
}

static int rp_sampler_init(rp_sampler *s, int src_width, int src_height, int dst_width, int dst_height) {
    memset(s, 0, sizeof *s);
    if (src_width < 1 || src_height < 1 || dst_width < 1 || dst_height < 1 ||
        dst_width > src_width || dst_height > src_height) {
        return RP_INVALID_ARGUMENT;
    }
    s->src_width = src_width;
    s->src_height = src_height;
    s->dst_width = dst_width;
    s->dst_height = dst_height;
    size_t dst_w = (size_t)dst_width, dst_h = (size_t)dst_height;
    if (dst_w > SIZE_MAX / 3 / dst_h) return RP_NO_MEMORY;
    s->column_map = malloc((size_t)src_width * sizeof(int));
    s->sums = calloc(dst_w * 3, sizeof(unsigned long long));
    s->counts = calloc(dst_w, sizeof(unsigned long long));
    s->rgb = malloc(dst_w * dst_h * 3);
    if (s->column_map == NULL || s->sums == NULL || s->counts == NULL || s->rgb == NULL) {
        rp_sampler_free(s);
        return RP_NO_MEMORY;
    }
    for (int x = 0; x < src_width; x++) {
        s->column_map[x] = (int)(((long long)x * dst_width) / src_width);
    }
    return RP_OK;
}

static void rp_sampler_flush(rp_sampler *s) {
    int y = s->current_dst_row;
    if (y < 0 || y >= s->dst_height) return;
    unsigned char *out = s->rgb + (size_t)y * (size_t)s->dst_width * 3;
    for (int x = 0; x < s->dst_width; x++) {
        unsigned long long n = s->counts[x];
        for (int c = 0; c < 3; c++) {
            unsigned long long sum = s->sums[(size_t)x * 3 + (size_t)c];
            out[(size_t)x * 3 + (size_t)c] = n > 0 ? (unsigned char)((sum + n / 2) / n) : 255;
            s->sums[(size_t)x * 3 + (size_t)c] = 0;
        }
        s->counts[x] = 0;
    }
}

/* Adds one source row of src_width RGB pixels. */
static void rp_sampler_add_row(rp_sampler *s, const unsigned char *rgb) {
    if (s->next_src_row >= s->src_height) return;
    int dst_row = (int)(((long long)s->next_src_row * s->dst_height) / s->src_height);
    if (dst_row != s->current_dst_row) {
        rp_sampler_flush(s);
        s->current_dst_row = dst_row;
    }
    for (int x = 0; x < s->src_width; x++) {
        size_t d = (size_t)s->column_map[x];
        s->sums[d * 3] += rgb[(size_t)x * 3];
        s->sums[d * 3 + 1] += rgb[(size_t)x * 3 + 1];
        s->sums[d * 3 + 2] += rgb[(size_t)x * 3 + 2];
        s->counts[d] += 1;
    }
    s->next_src_row++;
}

/* Flushes the last row and hands the pixels to *out; fails when rows are missing. */
static int rp_sampler_finish(rp_sampler *s, rp_pixels *out) {
    if (s->next_src_row != s->src_height) return RP_DAMAGED;
    rp_sampler_flush(s);
    out->rgb = s->rgb;
    out->width = s->dst_width;
    out->height = s->dst_height;
    s->rgb = NULL;
    return RP_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* libjpeg error handling                                                                      */

typedef struct rp_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    rp_status *status;
} rp_jpeg_error;

static void rp_jpeg_fail(j_common_ptr cinfo, int code) {
    rp_jpeg_error *err = (rp_jpeg_error *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    rp_fail(err->status, code, buffer);
    longjmp(err->jump, 1);
}

static void rp_jpeg_error_exit(j_common_ptr cinfo) {
    int code = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? RP_NO_MEMORY : RP_DAMAGED;
    rp_jpeg_fail(cinfo, code);
}

/* libjpeg calls this for warnings (level -1) and trace messages (level >= 0). A warning about
 * corrupt or missing data means libjpeg is about to invent pixels, so it ends the decode. */
static void rp_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;
    cinfo->err->num_warnings++;
    switch (cinfo->err->msg_code) {
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_BOGUS_ICC:
        return; /* harmless: the image data itself is intact */
    default:
        rp_jpeg_fail(cinfo, RP_DAMAGED);
    }
}

static void rp_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo; /* never print to stderr */
}

static void rp_jpeg_error_init(rp_jpeg_error *err, rp_status *status) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = rp_jpeg_error_exit;
    err->pub.emit_message = rp_jpeg_emit_message;
    err->pub.output_message = rp_jpeg_output_message;
    err->status = status;
}

static void rp_jpeg_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > RP_MAX_JPEG_SCANS) {
        rp_jpeg_error *err = (rp_jpeg_error *)cinfo->err;
        rp_fail(err->status, RP_DAMAGED, "the JPEG has an unreasonable number of progressive scans");
        longjmp(err->jump, 1);
    }
}

/* Ends a decode: a failed one's partial pixels are freed, so the caller never sees half an
 * image, and the code is recorded in the status. */
static int rp_finish(int code, rp_pixels *out, rp_status *status) {
    if (code != RP_OK && out != NULL) {
        free(out->rgb);
        memset(out, 0, sizeof *out);
    }
    status->code = code;
    return code;
}

/* Whether a thumbnail call got somewhere to put the pixels and a size; says why not in
 * `status` otherwise. */
static int rp_thumbnail_arguments_valid(const rp_pixels *out, int max_side, rp_status *status) {
    if (out != NULL && max_side >= 1) return 1;
    if (status != NULL) {
        rp_status_reset(status);
        rp_fail(status, RP_INVALID_ARGUMENT, "bad thumbnail arguments");
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* JPEG decoding                                                                               */

typedef struct rp_jpeg_decode {
    struct jpeg_decompress_struct cinfo;
    rp_jpeg_error err;
    struct jpeg_progress_mgr progress;
    const unsigned char *data;
    size_t size;
    long long max_pixels;
    int max_side;      /* 0 = only check */
    unsigned char *row;
    unsigned char *rgb_row;
    rp_sampler sampler;
    rp_pixels *out;
    rp_status *status;
} rp_jpeg_decode;

static int rp_jpeg_run(rp_jpeg_decode *c) {
    if (setjmp(c->err.jump)) {
        return c->status->code != RP_OK ? c->status->code : RP_DAMAGED;
    }
    jpeg_create_decompress(&c->cinfo);
    c->progress.progress_monitor = rp_jpeg_progress;
    c->cinfo.progress = &c->progress;
    jpeg_mem_src(&c->cinfo, c->data, (unsigned long)c->size);
    jpeg_read_header(&c->cinfo, TRUE);

    c->status->width = (int)c->cinfo.image_width;
    c->status->height = (int)c->cinfo.image_height;
    if (c->cinfo.image_width == 0 || c->cinfo.image_height == 0) {
        return rp_fail(c->status, RP_DAMAGED, "the JPEG header declares an empty image");
    }
    if ((long long)c->cinfo.image_width * (long long)c->cinfo.image_height > c->max_pixels) {
        return rp_fail(c->status, RP_TOO_MANY_PIXELS, "the JPEG has too many pixels");
    }

    int target_width = 0, target_height = 0;
    int cmyk = 0;
    if (c->max_side > 0) {
        cmyk = c->cinfo.jpeg_color_space == JCS_CMYK || c->cinfo.jpeg_color_space == JCS_YCCK;
        c->cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
        rp_target_size((int)c->cinfo.image_width, (int)c->cinfo.image_height, c->max_side,
                       &target_width, &target_height);
        /* The coarsest DCT scale that still yields at least the target size. */
        static const unsigned int denominators[] = {8, 4, 2, 1};
        for (size_t i = 0; i < sizeof denominators / sizeof denominators[0]; i++) {
            c->cinfo.scale_num = 1;
            c->cinfo.scale_denom = denominators[i];
            jpeg_calc_output_dimensions(&c->cinfo);
            if ((int)c->cinfo.output_width >= target_width && (int)c->cinfo.output_height >= target_height) {
                break;
            }
        }
    } else {
        /* Checking only needs the entropy-coded data decoded; the smallest output is cheapest. */
        c->cinfo.scale_num = 1;
        c->cinfo.scale_denom = 8;
        c->cinfo.dct_method = JDCT_IFAST;
        c->cinfo.do_fancy_upsampling = FALSE;
    }

    jpeg_start_decompress(&c->cinfo);
    int width = (int)c->cinfo.output_width;
    int height = (int)c->cinfo.output_height;
    int components = c->cinfo.output_components;
    if (width < 1 || height < 1 || components < 1 || components > 4) {
        return rp_fail(c->status, RP_DAMAGED, "the JPEG decodes to an unsupported pixel layout");
    }
    size_t row_size = (size_t)width * (size_t)components;
    c->row = malloc(row_size);
    if (c->row == NULL) return rp_fail(c->status, RP_NO_MEMORY, "out of memory for a JPEG row");

    if (c->max_side > 0) {
        if (components != 3 && components != 4) {
            return rp_fail(c->status, RP_DAMAGED, "the JPEG decodes to an unsupported pixel layout");
        }
        int code = rp_sampler_init(&c->sampler, width, height, target_width, target_height);
        if (code != RP_OK) return rp_fail(c->status, code, "could not prepare the thumbnail");
        c->rgb_row = malloc((size_t)width * 3);
        if (c->rgb_row == NULL) return rp_fail(c->status, RP_NO_MEMORY, "out of memory for a JPEG row");
    }

    int inverted_cmyk = c->cinfo.saw_Adobe_marker;
    while (c->cinfo.output_scanline < c->cinfo.output_height) {
        JSAMPROW rows[1] = {c->row};
        if (jpeg_read_scanlines(&c->cinfo, rows, 1) != 1) {
            return rp_fail(c->status, RP_DAMAGED, "the JPEG data stopped early");
        }
        if (c->max_side <= 0) continue;
        const unsigned char *rgb = c->row;
        if (components == 4) {
            for (int x = 0; x < width; x++) {
                const unsigned char *p = c->row + (size_t)x * 4;
                unsigned int k = inverted_cmyk ? p[3] : 255u - p[3];
                for (int ch = 0; ch < 3; ch++) {
                    unsigned int v = inverted_cmyk ? p[ch] : 255u - p[ch];
                    c->rgb_row[(size_t)x * 3 + (size_t)ch] = (unsigned char)((v * k + 127) / 255);
                }
            }
            rgb = c->rgb_row;
        }
        rp_sampler_add_row(&c->sampler, rgb);
    }
    jpeg_finish_decompress(&c->cinfo);

    if (c->max_side > 0) {
        if (rp_sampler_finish(&c->sampler, c->out) != RP_OK) {
            return rp_fail(c->status, RP_DAMAGED, "the JPEG data stopped early");
        }
    }
    return RP_OK;
}

static int rp_jpeg_decode_main(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                               rp_pixels *out, rp_status *status) {
    if (status == NULL) return RP_INVALID_ARGUMENT;
    rp_status_reset(status);
    if (out != NULL) memset(out, 0, sizeof *out);
    if (data == NULL || size == 0) return rp_fail(status, RP_INVALID_ARGUMENT, "no data");
    if (size > (size_t)ULONG_MAX) return rp_fail(status, RP_INVALID_ARGUMENT, "too much data");

    rp_jpeg_decode *c = calloc(1, sizeof *c);
    if (c == NULL) return rp_fail(status, RP_NO_MEMORY, "out of memory");
    c->data = data;
    c->size = size;
    c->max_pixels = max_pixels;
    c->max_side = max_side;
    c->out = out;
    c->status = status;
    rp_jpeg_error_init(&c->err, status);
    c->cinfo.err = &c->err.pub;

    int code = rp_jpeg_run(c);

    jpeg_destroy_decompress(&c->cinfo);
    free(c->row);
    free(c->rgb_row);
    rp_sampler_free(&c->sampler);
    free(c);
    return rp_finish(code, out, status);
}

int rp_jpeg_check(const unsigned char *data, size_t size, long long max_pixels, rp_status *status) {
    return rp_jpeg_decode_main(data, size, max_pixels, 0, NULL, status);
}

int rp_jpeg_thumbnail_pixels(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                             rp_pixels *out, rp_status *status) {
    if (!rp_thumbnail_arguments_valid(out, max_side, status)) return RP_INVALID_ARGUMENT;
    return rp_jpeg_decode_main(data, size, max_pixels, max_side, out, status);
}

/* ------------------------------------------------------------------------------------------ */
/* PNG decoding                                                                                */

typedef struct rp_png_decode {
    png_structp png;
    png_infop info;
    const unsigned char *data;
    size_t size;
    size_t offset;
    long long max_pixels;
    int max_side;      /* 0 = only check */
    unsigned char *row;
    unsigned char *rgb_row;
    unsigned char *image;
    unsigned char **rows;
    rp_sampler sampler;
    rp_pixels *out;
    rp_status *status;
} rp_png_decode;

static void rp_png_error(png_structp png, png_const_charp message) {
    rp_png_decode *c = (rp_png_decode *)png_get_error_ptr(png);
    int code = RP_DAMAGED;
    if (message != NULL && strstr(message, "memory") != NULL) code = RP_NO_MEMORY;
    rp_fail(c->status, code, message);
    png_longjmp(png, 1);
}

static void rp_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; /* benign problems (bad ancillary chunks) are skipped silently */
}

static void rp_png_read(png_structp png, png_bytep destination, size_t length) {
    rp_png_decode *c = (rp_png_decode *)png_get_io_ptr(png);
    if (length > c->size - c->offset) {
        png_error(png, "the PNG data ends early");
    }
    memcpy(destination, c->data + c->offset, length);
    c->offset += length;
}

/* Converts one transformed PNG row (RGB or RGBA, 8 bits) to RGB, compositing alpha on white. */
static const unsigned char *rp_png_rgb_row(rp_png_decode *c, const unsigned char *row, int width, int channels) {
    if (channels == 3) return row;
    for (int x = 0; x < width; x++) {
        const unsigned char *p = row + (size_t)x * 4;
        unsigned int alpha = p[3];
        for (int ch = 0; ch < 3; ch++) {
            unsigned int v = (p[ch] * alpha + 255u * (255u - alpha) + 127u) / 255u;
            c->rgb_row[(size_t)x * 3 + (size_t)ch] = (unsigned char)v;
        }
    }
    return c->rgb_row;
}

static int rp_png_run(rp_png_decode *c) {
    if (setjmp(png_jmpbuf(c->png))) {
        return c->status->code != RP_OK ? c->status->code : RP_DAMAGED;
    }
    png_set_read_fn(c->png, c, rp_png_read);
    png_read_info(c->png, c->info);

    png_uint_32 width = png_get_image_width(c->png, c->info);
    png_uint_32 height = png_get_image_height(c->png, c->info);
    /* libpng's own user limits keep each side at most 1,000,000, so both fit in an int. */
    c->status->width = (int)width;
    c->status->height = (int)height;
    if (width == 0 || height == 0 || width > INT_MAX || height > INT_MAX) {
        return rp_fail(c->status, RP_DAMAGED, "the PNG header declares an impossible size");
    }
    if ((long long)width * (long long)height > c->max_pixels) {
        return rp_fail(c->status, RP_TOO_MANY_PIXELS, "the PNG has too many pixels");
    }

    if (c->max_side > 0) {
        png_set_expand(c->png);        /* palette -> RGB, low-bit gray -> 8 bit, tRNS -> alpha */
        png_set_scale_16(c->png);      /* 16-bit -> 8-bit */
        png_set_gray_to_rgb(c->png);
    }
    int passes = png_set_interlace_handling(c->png);
    png_read_update_info(c->png, c->info);
    size_t row_bytes = png_get_rowbytes(c->png, c->info);
    int channels = png_get_channels(c->png, c->info);
    if (row_bytes == 0) return rp_fail(c->status, RP_DAMAGED, "the PNG has an unsupported layout");

    if (c->max_side <= 0) {
        /* Check: run every row of every pass through the decoder into one scratch row. */
        c->row = malloc(row_bytes);
        if (c->row == NULL) return rp_fail(c->status, RP_NO_MEMORY, "out of memory for a PNG row");
        for (int pass = 0; pass < passes; pass++) {
            for (png_uint_32 y = 0; y < height; y++) {
                png_read_row(c->png, c->row, NULL);
            }
        }
        png_read_end(c->png, NULL);
        return RP_OK;
    }

    if ((channels != 3 && channels != 4) || png_get_bit_depth(c->png, c->info) != 8 ||
        row_bytes != (size_t)width * (size_t)channels) {
        return rp_fail(c->status, RP_DAMAGED, "the PNG has an unsupported layout");
    }
    int target_width = 0, target_height = 0;
    rp_target_size((int)width, (int)height, c->max_side, &target_width, &target_height);
    int code = rp_sampler_init(&c->sampler, (int)width, (int)height, target_width, target_height);
    if (code != RP_OK) return rp_fail(c->status, code, "could not prepare the thumbnail");
    c->rgb_row = malloc((size_t)width * 3);
    if (c->rgb_row == NULL) return rp_fail(c->status, RP_NO_MEMORY, "out of memory for a PNG row");

    if (passes > 1) {
        /* Adam7 passes fill the rows in several sweeps, so the whole (8-bit) image is needed;
         * the pixel limit checked above bounds it. */
        if ((size_t)height > SIZE_MAX / row_bytes) return rp_fail(c->status, RP_NO_MEMORY, "image too large");
        c->image = malloc((size_t)height * row_bytes);
        c->rows = malloc((size_t)height * sizeof(unsigned char *));
        if (c->image == NULL || c->rows == NULL) {
            return rp_fail(c->status, RP_NO_MEMORY, "out of memory for the PNG image");
        }
        for (png_uint_32 y = 0; y < height; y++) c->rows[y] = c->image + (size_t)y * row_bytes;
        png_read_image(c->png, c->rows);
        for (png_uint_32 y = 0; y < height; y++) {
            rp_sampler_add_row(&c->sampler, rp_png_rgb_row(c, c->rows[y], (int)width, channels));
        }
    } else {
        c->row = malloc(row_bytes);
        if (c->row == NULL) return rp_fail(c->status, RP_NO_MEMORY, "out of memory for a PNG row");
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(c->png, c->row, NULL);
            rp_sampler_add_row(&c->sampler, rp_png_rgb_row(c, c->row, (int)width, channels));
        }
    }
    png_read_end(c->png, NULL);
    if (rp_sampler_finish(&c->sampler, c->out) != RP_OK) {
        return rp_fail(c->status, RP_DAMAGED, "the PNG data stopped early");
    }
    return RP_OK;
}

static int rp_png_decode_main(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                              rp_pixels *out, rp_status *status) {
    if (status == NULL) return RP_INVALID_ARGUMENT;
    rp_status_reset(status);
    if (out != NULL) memset(out, 0, sizeof *out);
    if (data == NULL || size == 0) return rp_fail(status, RP_INVALID_ARGUMENT, "no data");

    rp_png_decode *c = calloc(1, sizeof *c);
    if (c == NULL) return rp_fail(status, RP_NO_MEMORY, "out of memory");
    c->data = data;
    c->size = size;
    c->max_pixels = max_pixels;
    c->max_side = max_side;
    c->out = out;
    c->status = status;

    int code;
    c->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, c, rp_png_error, rp_png_warning);
    if (c->png != NULL) c->info = png_create_info_struct(c->png);
    if (c->png == NULL || c->info == NULL) {
        code = rp_fail(status, RP_NO_MEMORY, "could not create the PNG decoder");
    } else {
        code = rp_png_run(c);
    }

    png_destroy_read_struct(c->png != NULL ? &c->png : NULL, c->info != NULL ? &c->info : NULL, NULL);
    free(c->row);
    free(c->rgb_row);
    free(c->image);
    free(c->rows);
    rp_sampler_free(&c->sampler);
    free(c);
    return rp_finish(code, out, status);
}

int rp_png_check(const unsigned char *data, size_t size, long long max_pixels, rp_status *status) {
    return rp_png_decode_main(data, size, max_pixels, 0, NULL, status);
}

int rp_png_thumbnail_pixels(const unsigned char *data, size_t size, long long max_pixels, int max_side,
                            rp_pixels *out, rp_status *status) {
    if (!rp_thumbnail_arguments_valid(out, max_side, status)) return RP_INVALID_ARGUMENT;
    return rp_png_decode_main(data, size, max_pixels, max_side, out, status);
}

/* ------------------------------------------------------------------------------------------ */
/* JPEG encoding                                                                               */

/* A growable in-memory destination. (jpeg_mem_dest would leak its buffer if an error longjmps
 * out after the buffer has grown, because it only publishes the pointer at the end.) */
typedef struct rp_jpeg_encode {
    struct jpeg_compress_struct cinfo;
    rp_jpeg_error err;
    struct jpeg_destination_mgr destination;
    unsigned char *buffer;
    size_t capacity;
    const unsigned char *rgb;
    int width, height, quality;
    rp_status *status;
} rp_jpeg_encode;

#define RP_ENCODE_CHUNK 16384

static void rp_destination_init(j_compress_ptr cinfo) {
    rp_jpeg_encode *c = (rp_jpeg_encode *)cinfo->client_data;
    c->buffer = malloc(RP_ENCODE_CHUNK);
    if (c->buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    c->capacity = RP_ENCODE_CHUNK;
    c->destination.next_output_byte = c->buffer;
    c->destination.free_in_buffer = c->capacity;
}

static boolean rp_destination_empty(j_compress_ptr cinfo) {
    rp_jpeg_encode *c = (rp_jpeg_encode *)cinfo->client_data;
    /* libjpeg calls this only when the buffer is completely full. */
    size_t used = c->capacity;
    if (c->capacity > SIZE_MAX / 2) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 11);
    size_t bigger = c->capacity * 2;
    unsigned char *grown = realloc(c->buffer, bigger);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 12);
    c->buffer = grown;
    c->capacity = bigger;
    c->destination.next_output_byte = c->buffer + used;
    c->destination.free_in_buffer = bigger - used;
    return TRUE;
}

static void rp_destination_term(j_compress_ptr cinfo) {
    (void)cinfo; /* the used size is capacity - free_in_buffer */
}

static int rp_jpeg_encode_run(rp_jpeg_encode *c) {
    if (setjmp(c->err.jump)) {
        return c->status->code != RP_OK ? c->status->code : RP_DAMAGED;
    }
    jpeg_create_compress(&c->cinfo);
    c->cinfo.client_data = c;
    c->destination.init_destination = rp_destination_init;
    c->destination.empty_output_buffer = rp_destination_empty;
    c->destination.term_destination = rp_destination_term;
    c->cinfo.dest = &c->destination;

    c->cinfo.image_width = (JDIMENSION)c->width;
    c->cinfo.image_height = (JDIMENSION)c->height;
    c->cinfo.input_components = 3;
    c->cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c->cinfo);
    jpeg_set_quality(&c->cinfo, c->quality, TRUE); /* TRUE: baseline-compatible tables */
    c->cinfo.optimize_coding = TRUE;               /* smaller files, still baseline */
    c->cinfo.write_JFIF_header = TRUE;
    jpeg_start_compress(&c->cinfo, TRUE);
    size_t stride = (size_t)c->width * 3;
    while (c->cinfo.next_scanline < c->cinfo.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(c->rgb + (size_t)c->cinfo.next_scanline * stride)};
        jpeg_write_scanlines(&c->cinfo, rows, 1);
    }
    jpeg_finish_compress(&c->cinfo);
    return RP_OK;
}

int rp_jpeg_encode_rgb(const unsigned char *rgb, int width, int height, int quality,
                       unsigned char **out, size_t *out_size, rp_status *status) {
    if (status == NULL) return RP_INVALID_ARGUMENT;
    rp_status_reset(status);
    if (out == NULL || out_size == NULL) return rp_fail(status, RP_INVALID_ARGUMENT, "no output");
    *out = NULL;
    *out_size = 0;
    if (rgb == NULL || width < 1 || height < 1 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        return rp_fail(status, RP_INVALID_ARGUMENT, "bad image size for JPEG");
    }
    if (quality < 1) quality = 1;
    if (quality > 100) quality = 100;

    rp_jpeg_encode *c = calloc(1, sizeof *c);
    if (c == NULL) return rp_fail(status, RP_NO_MEMORY, "out of memory");
    c->rgb = rgb;
    c->width = width;
    c->height = height;
    c->quality = quality;
    c->status = status;
    rp_jpeg_error_init(&c->err, status);
    c->cinfo.err = &c->err.pub;

    int code = rp_jpeg_encode_run(c);

    jpeg_destroy_compress(&c->cinfo);
    if (code == RP_OK) {
        *out = c->buffer;
        *out_size = c->capacity - c->destination.free_in_buffer;
    } else {
        free(c->buffer);
    }
    free(c);
    status->code = code;
    return code;
}
