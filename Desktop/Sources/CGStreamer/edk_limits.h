#pragma once
#include "shim.h"
#include <gst/pbutils/pbutils.h>

/* Limits checked before a decoder allocates a picture, and what is kept about a video stream nobody decodes here
   (DesktopVideo's VideoDecoder+Limits.swift reads both; DecodingLimits.swift holds the same limits). Everything
   here is GStreamer's public API.

   Where the checks sit:
   - decodebin's `autoplug-continue`, for every stream's caps before anything is plugged after it (a demuxer's
     caps from the container's headers, a parser's caps from the bitstream's headers): a size, frame rate or
     stream count over the limits stops the plugging there, so no decoder is even made;
   - a probe on every video or image decoder's sink pad (decodebin's `deep-element-added`), for the caps it is
     given and for each frame before the decoder sees it: the picture size a JPEG frame's SOF header or a VP8 key
     frame's header declares (those streams reach their decoder without a parser: jpegparse is not ranked, VP8
     has none), and the duration upstream says, asked once before the first frame. A refused stream's frames
     never reach the decoder (the probe answers GST_FLOW_ERROR).
   A refusal is one application message on the bus (`EDK_GST_TOO_LARGE` for a size, `EDK_GST_LIMIT` otherwise),
   posted before the error the stopped stream then causes, so the caller reads the refusal first.

   decodebin's `unknown-type` keeps the first video stream no installed decoder takes on the pipeline; the caller
   says it (codec and what to install) instead of "no video stream" or decodebin's "missing a plug-in". */

/// The name of the application message posted when a declared value is over a limit other than the picture size:
/// `what` ("frame rate", "streams", "duration") with `numerator`/`denominator` (a rate), `count` (streams) or
/// `nanoseconds` (a duration).
#define EDK_GST_LIMIT "edk-limit"
/// The key (on the pipeline object) and structure name of what is kept about a video stream no installed decoder
/// takes (see ``edk_gst_unknown_type``).
#define EDK_GST_NO_DECODER "edk-no-decoder"
/// The highest frame rate accepted, frames per second (ExternalDisplayMedia's VideoFrameScheduler range).
#define EDK_GST_MAX_FPS 1000
/// The lowest frame rate accepted, in hundredths of a frame per second (0.01 fps; 0/1 means variable and passes).
#define EDK_GST_MIN_FPS_HUNDREDTHS 1
/// The most streams (video, sound, subtitles …) a file may declare.
#define EDK_GST_MAX_STREAMS 64
/// The longest duration a file may declare, in seconds (7 days).
#define EDK_GST_MAX_DURATION_SECONDS (7 * 24 * 3600)

/// Whether the pipeline has refused its file (a limit message posted): nothing more is plugged or decoded.
static inline int edk_gst_refused(GstElement *pipeline) {
    return g_object_get_data(G_OBJECT(pipeline), "edk-refused") != NULL;
}

/// Posts `structure` as an application message, once per pipeline (the first refusal is the one said).
static inline void edk_gst_refuse(GstElement *pipeline, GstStructure *structure) {
    if (edk_gst_refused(pipeline)) {
        gst_structure_free(structure);
        return;
    }
    g_object_set_data(G_OBJECT(pipeline), "edk-refused", GINT_TO_POINTER(1));
    gst_element_post_message(pipeline, gst_message_new_application(GST_OBJECT(pipeline), structure));
}

/// Refuses a picture size outside 1…EDK_GST_MAX_SIDE; 1 when the size passes.
static inline int edk_gst_check_size(GstElement *pipeline, gint64 width, gint64 height) {
    if (width >= 1 && height >= 1 && width <= EDK_GST_MAX_SIDE && height <= EDK_GST_MAX_SIDE) return 1;
    int w = width > G_MAXINT ? G_MAXINT : (int)width, h = height > G_MAXINT ? G_MAXINT : (int)height;
    edk_gst_refuse(pipeline, gst_structure_new(EDK_GST_TOO_LARGE, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, NULL));
    return 0;
}

/// Checks the size and frame rate a video or image stream's caps declare; 1 when they pass (or say nothing).
/// A size of 0 or less in caps passes here (some containers leave it out that way; the decoder's own header
/// check and the player's check of each picture catch a real one).
static inline int edk_gst_check_caps(GstElement *pipeline, const GstCaps *caps) {
    if (caps == NULL) return 1;
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        const GstStructure *s = gst_caps_get_structure(caps, i);
        const char *name = gst_structure_get_name(s);
        if (!g_str_has_prefix(name, "video/") && !g_str_has_prefix(name, "image/")) continue;
        int width = 0, height = 0;
        if (gst_structure_get_int(s, "width", &width) && gst_structure_get_int(s, "height", &height)
            && (width > EDK_GST_MAX_SIDE || height > EDK_GST_MAX_SIDE)) {
            return edk_gst_check_size(pipeline, width, height);
        }
        int n = 0, d = 1;
        if (gst_structure_get_fraction(s, "framerate", &n, &d) && n != 0) {
            gint64 num = n, den = d;
            if (num < 0 || den <= 0 || num > (gint64)EDK_GST_MAX_FPS * den || num * 100 < den * EDK_GST_MIN_FPS_HUNDREDTHS) {
                edk_gst_refuse(pipeline, gst_structure_new(EDK_GST_LIMIT, "what", G_TYPE_STRING, "frame rate",
                                                           "numerator", G_TYPE_INT, n, "denominator", G_TYPE_INT, d, NULL));
                return 0;
            }
        }
    }
    return 1;
}

/// The picture size a JPEG image's first SOF header declares, walking its segments (bounded by the buffer);
/// 0 when there is none in `size` bytes (then the decoder's own error says what is wrong).
static inline int edk_gst_jpeg_size(const guint8 *data, gsize size, gint64 *width, gint64 *height) {
    gsize i = 0;
    while (i + 4 <= size) {
        if (data[i] != 0xFF) { i++; continue; }
        guint8 marker = data[i + 1];
        if (marker == 0xFF) { i++; continue; }
        if (marker == 0xD8 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) { i += 2; continue; }
        if (marker == 0xD9 || marker == 0xDA) return 0;   /* end of image, or scan data before any frame header */
        gsize length = ((gsize)data[i + 2] << 8) | data[i + 3];
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            if (i + 9 > size) return 0;
            *height = ((gint64)data[i + 5] << 8) | data[i + 6];
            *width = ((gint64)data[i + 7] << 8) | data[i + 8];
            return 1;
        }
        if (length < 2) return 0;
        i += 2 + length;
    }
    return 0;
}

/// The picture size a VP8 key frame's header declares (the 14-bit width and height after the start code);
/// 0 for an inter frame or a frame too short to say.
static inline int edk_gst_vp8_size(const guint8 *data, gsize size, gint64 *width, gint64 *height) {
    if (size < 10 || (data[0] & 1) != 0 || data[3] != 0x9D || data[4] != 0x01 || data[5] != 0x2A) return 0;
    *width = (((gint64)data[7] << 8) | data[6]) & 0x3FFF;
    *height = (((gint64)data[9] << 8) | data[8]) & 0x3FFF;
    return 1;
}

/// The probe on a video or image decoder's sink pad (see the top of this file); `data` is the pipeline.
static inline GstPadProbeReturn edk_gst_decoder_input_probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    GstElement *pipeline = GST_ELEMENT(data);
    if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
        GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
        if (GST_EVENT_TYPE(event) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
        GstCaps *caps = NULL;
        gst_event_parse_caps(event, &caps);
        if (!edk_gst_refused(pipeline) && edk_gst_check_caps(pipeline, caps)) return GST_PAD_PROBE_OK;
        gst_event_unref(event);
        GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_NOT_NEGOTIATED;
        return GST_PAD_PROBE_HANDLED;
    }
    if (!(info->type & GST_PAD_PROBE_TYPE_BUFFER)) return GST_PAD_PROBE_OK;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    int pass = !edk_gst_refused(pipeline);
    if (pass && g_object_get_data(G_OBJECT(pad), "edk-duration-checked") == NULL) {
        g_object_set_data(G_OBJECT(pad), "edk-duration-checked", GINT_TO_POINTER(1));
        gint64 duration = -1;
        if (gst_pad_peer_query_duration(pad, GST_FORMAT_TIME, &duration) && duration > 0
            && duration / GST_SECOND > EDK_GST_MAX_DURATION_SECONDS) {
            edk_gst_refuse(pipeline, gst_structure_new(EDK_GST_LIMIT, "what", G_TYPE_STRING, "duration",
                                                       "nanoseconds", G_TYPE_INT64, duration, NULL));
            pass = 0;
        }
    }
    if (pass) {
        GstCaps *caps = gst_pad_get_current_caps(pad);
        const char *name = caps != NULL && gst_caps_get_size(caps) > 0
            ? gst_structure_get_name(gst_caps_get_structure(caps, 0)) : "";
        int jpeg = strcmp(name, "image/jpeg") == 0, vp8 = strcmp(name, "video/x-vp8") == 0;
        if (caps != NULL) gst_caps_unref(caps);
        GstMapInfo map;
        if ((jpeg || vp8) && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
            gint64 width = 0, height = 0;
            int found = jpeg ? edk_gst_jpeg_size(map.data, map.size, &width, &height)
                             : edk_gst_vp8_size(map.data, map.size, &width, &height);
            gst_buffer_unmap(buffer, &map);
            if (found) pass = edk_gst_check_size(pipeline, width, height);
        }
    }
    if (pass) return GST_PAD_PROBE_OK;
    gst_buffer_unref(buffer);
    GST_PAD_PROBE_INFO_FLOW_RETURN(info) = GST_FLOW_ERROR;
    return GST_PAD_PROBE_HANDLED;
}

/// A demuxer's `pad-added`: counts the file's streams; one over EDK_GST_MAX_STREAMS refuses the file.
static inline void edk_gst_count_stream(GstElement *demuxer, GstPad *pad, gpointer data) {
    (void)demuxer; (void)pad;
    GstElement *pipeline = GST_ELEMENT(data);
    int count = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(pipeline), "edk-streams")) + 1;
    g_object_set_data(G_OBJECT(pipeline), "edk-streams", GINT_TO_POINTER(count));
    if (count > EDK_GST_MAX_STREAMS) {
        edk_gst_refuse(pipeline, gst_structure_new(EDK_GST_LIMIT, "what", G_TYPE_STRING, "streams",
                                                   "count", G_TYPE_INT, count, NULL));
    }
}

/// decodebin's `deep-element-added`: a demuxer gets its streams counted; a video or image decoder gets the input
/// probe, before anything is linked to it.
static inline void edk_gst_element_added(GstBin *bin, GstBin *sub, GstElement *element, gpointer data) {
    (void)bin; (void)sub;
    GstElementFactory *factory = gst_element_get_factory(element);
    const char *klass = factory != NULL ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
    if (klass == NULL) return;
    if (strstr(klass, "Demux") != NULL) {
        g_signal_connect(element, "pad-added", G_CALLBACK(edk_gst_count_stream), data);
    } else if (strstr(klass, "Decoder") != NULL && (strstr(klass, "Video") != NULL || strstr(klass, "Image") != NULL)) {
        GstPad *sink = gst_element_get_static_pad(element, "sink");
        if (sink != NULL) {
            gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                              edk_gst_decoder_input_probe, data, NULL);
            gst_object_unref(sink);
        }
    }
}

/// decodebin's `autoplug-continue`: FALSE (plug nothing more: the stream is exposed as it is and discarded) once
/// the file is refused or when these caps declare a size or rate over the limits.
static inline gboolean edk_gst_autoplug_continue(GstElement *decodebin, GstPad *pad, GstCaps *caps, gpointer data) {
    (void)decodebin; (void)pad;
    GstElement *pipeline = GST_ELEMENT(data);
    return !edk_gst_refused(pipeline) && edk_gst_check_caps(pipeline, caps);
}

/// The name of an installed video decoder ranked down to none (FFmpeg's avdec_*, or one ranked none by its
/// plugin) that takes `caps`, newly allocated (free with g_free), or NULL.
static inline char *edk_gst_ranked_down_decoder(const GstCaps *caps) {
    GList *features = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
    char *found = NULL;
    for (GList *l = features; l != NULL && found == NULL; l = l->next) {
        GstElementFactory *factory = GST_ELEMENT_FACTORY(l->data);
        const char *klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
        if (klass == NULL || strstr(klass, "Decoder") == NULL
            || (strstr(klass, "Video") == NULL && strstr(klass, "Image") == NULL)) continue;
        if (gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(factory)) != GST_RANK_NONE) continue;
        if (gst_element_factory_can_sink_all_caps(factory, caps)) {
            found = g_strdup(gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)));
        }
    }
    gst_plugin_feature_list_free(features);
    return found;
}

/// decodebin's `unknown-type`: the first video or image stream no installed decoder takes is kept on the pipeline
/// (its caps, GStreamer's name for the codec and, when a decoder for it is installed but ranked down to none —
/// FFmpeg's avdec_* — that decoder's name) for ``edk_gst_undecodable_video``; sound and subtitles without a decoder
/// are left alone (they are discarded anyway).
static inline void edk_gst_unknown_type(GstElement *decodebin, GstPad *pad, GstCaps *caps, gpointer data) {
    (void)decodebin; (void)pad;
    GstElement *pipeline = GST_ELEMENT(data);
    if (caps == NULL || gst_caps_get_size(caps) == 0) return;
    const char *name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
    if (!g_str_has_prefix(name, "video/") && !g_str_has_prefix(name, "image/")) return;
    if (g_object_get_data(G_OBJECT(pipeline), EDK_GST_NO_DECODER) != NULL) return;
    gchar *text = gst_caps_to_string(caps);
    gchar *description = gst_pb_utils_get_codec_description(caps);
    char *rankedDown = edk_gst_ranked_down_decoder(caps);
    GstStructure *s = gst_structure_new(EDK_GST_NO_DECODER, "caps", G_TYPE_STRING, text != NULL ? text : name,
                                        "description", G_TYPE_STRING, description != NULL ? description : name, NULL);
    if (rankedDown != NULL) gst_structure_set(s, "ranked-down", G_TYPE_STRING, rankedDown, NULL);
    g_free(text);
    g_free(description);
    g_free(rankedDown);
    g_object_set_data_full(G_OBJECT(pipeline), EDK_GST_NO_DECODER, s, (GDestroyNotify)gst_structure_free);
}

/// When no video stream is linked and one was found that no installed decoder takes: 1, with its caps, GStreamer's
/// name for its codec and the name of a ranked-down decoder for it (or NULL), newly allocated (free with g_free).
static inline int edk_gst_undecodable_video(GstElement *pipeline, char **caps, char **description, char **rankedDown) {
    if (edk_gst_video_linked(pipeline)) return 0;
    const GstStructure *s = g_object_get_data(G_OBJECT(pipeline), EDK_GST_NO_DECODER);
    if (s == NULL) return 0;
    *caps = g_strdup(gst_structure_get_string(s, "caps"));
    *description = g_strdup(gst_structure_get_string(s, "description"));
    *rankedDown = g_strdup(gst_structure_get_string(s, "ranked-down"));
    return 1;
}

/// Connects the limit checks and the missing-decoder notice to `decodebin`, with the pipeline as their data.
/// Call before the pipeline leaves the NULL state.
static inline void edk_gst_guard_decodebin(GstElement *decodebin, GstElement *pipeline) {
    static gsize initialised = 0;
    if (g_once_init_enter(&initialised)) {
        gst_pb_utils_init();
        g_once_init_leave(&initialised, 1);
    }
    g_signal_connect(decodebin, "deep-element-added", G_CALLBACK(edk_gst_element_added), pipeline);
    g_signal_connect(decodebin, "autoplug-continue", G_CALLBACK(edk_gst_autoplug_continue), pipeline);
    g_signal_connect(decodebin, "unknown-type", G_CALLBACK(edk_gst_unknown_type), pipeline);
}

/// Whether an application message is a refusal from the checks above other than the size (`EDK_GST_LIMIT`): 1
/// with `what` ("frame rate", "streams", "duration"; newly allocated, free with g_free) and its value, else 0.
static inline int edk_gst_parse_limit(GstMessage *message, char **what, int *numerator, int *denominator, int *count,
                                      gint64 *nanoseconds) {
    const GstStructure *s = gst_message_get_structure(message);
    if (s == NULL || !gst_structure_has_name(s, EDK_GST_LIMIT)) return 0;
    *what = g_strdup(gst_structure_get_string(s, "what"));
    if (!gst_structure_get_int(s, "numerator", numerator)) *numerator = 0;
    if (!gst_structure_get_int(s, "denominator", denominator)) *denominator = 1;
    if (!gst_structure_get_int(s, "count", count)) *count = 0;
    if (!gst_structure_get_int64(s, "nanoseconds", nanoseconds)) *nanoseconds = 0;
    return 1;
}

/// Whether an error message is GStreamer's failed negotiation (a core negotiation error, or a stream stopped with
/// `not-negotiated`): the formats the elements declare do not fit, which says nothing a user can act on.
static inline int edk_gst_is_negotiation_error(GstMessage *message) {
    GError *error = NULL;
    gchar *debug = NULL;
    gst_message_parse_error(message, &error, &debug);
    int negotiation = error != NULL
        && ((error->domain == GST_CORE_ERROR && error->code == GST_CORE_ERROR_NEGOTIATION)
            || (debug != NULL && strstr(debug, "not-negotiated") != NULL));
    if (error != NULL) g_error_free(error);
    g_free(debug);
    return negotiation;
}
