#pragma once
#include <gst/gst.h>
#include <gst/app/gstappsink.h>

/* What Swift cannot call directly (variadic g_object_set, the g_signal_connect macro, GObject casts), wrapped
   for DesktopVideo. Everything here is GStreamer's public API; the plugins are loaded at run time. */

/// Sets a string property (`location` of filesrc).
static inline void edk_gst_set_string(GstElement *element, const char *name, const char *value) {
    g_object_set(element, name, value, NULL);
}

/// Sets a boolean property (`sync`, `async` of sinks).
static inline void edk_gst_set_bool(GstElement *element, const char *name, int value) {
    g_object_set(element, name, value ? TRUE : FALSE, NULL);
}

/// Sets an unsigned integer property (`n-threads` of videoconvert); nothing when the element has no such property.
static inline void edk_gst_set_uint(GstElement *element, const char *name, unsigned int value) {
    GParamSpec *spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
    if (spec != NULL && spec->value_type == G_TYPE_UINT) g_object_set(element, name, (guint)value, NULL);
}

/// The element as an app sink.
static inline GstAppSink *edk_gst_app_sink(GstElement *element) { return GST_APP_SINK(element); }

/// The element as a bin.
static inline GstBin *edk_gst_bin(GstElement *element) { return GST_BIN(element); }

/// The name of the application message the decoder posts when the file has no video stream.
#define EDK_GST_NO_VIDEO "edk-no-video"
/// The name of the application message posted (with `width` and `height`) for a picture larger than the player
/// accepts; the stream is then discarded before anything is converted.
#define EDK_GST_TOO_LARGE "edk-too-large"
/// The largest picture side the player converts.
#define EDK_GST_MAX_SIDE 8192

static inline gboolean edk_gst_link_sound(GstElement *pipeline, GstPad *pad);

/// decodebin's `pad-added`: the first video stream goes to the element named `edk-convert`; the first sound stream,
/// when the pipeline plays sound (`edk_gst_enable_sound`), to a new sound branch (`edk_gst_link_sound`); every
/// other stream (subtitles, a second video or sound track) to a fakesink of its own that neither syncs nor holds
/// up the preroll.
static inline void edk_gst_pad_added(GstElement *decodebin, GstPad *pad, gpointer data) {
    (void)decodebin;
    GstElement *pipeline = GST_ELEMENT(data);
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps == NULL) caps = gst_pad_query_caps(pad, NULL);
    gboolean video = FALSE, sound = FALSE;
    int width = 0, height = 0;
    if (caps != NULL && gst_caps_get_size(caps) > 0) {
        const GstStructure *structure = gst_caps_get_structure(caps, 0);
        video = g_str_has_prefix(gst_structure_get_name(structure), "video/");
        sound = g_str_has_prefix(gst_structure_get_name(structure), "audio/");
        if (video && gst_structure_get_int(structure, "width", &width) && gst_structure_get_int(structure, "height", &height)
            && (width > EDK_GST_MAX_SIDE || height > EDK_GST_MAX_SIDE)) {
            video = FALSE;
            gst_element_post_message(pipeline, gst_message_new_application(GST_OBJECT(pipeline),
                gst_structure_new(EDK_GST_TOO_LARGE, "width", G_TYPE_INT, width, "height", G_TYPE_INT, height, NULL)));
        }
    }
    if (caps != NULL) gst_caps_unref(caps);
    if (video) {
        GstElement *convert = gst_bin_get_by_name(GST_BIN(pipeline), "edk-convert");
        if (convert != NULL) {
            GstPad *sink = gst_element_get_static_pad(convert, "sink");
            gboolean linked = FALSE;
            if (sink != NULL) {
                linked = !gst_pad_is_linked(sink) && gst_pad_link(pad, sink) == GST_PAD_LINK_OK;
                gst_object_unref(sink);
            }
            gst_object_unref(convert);
            if (linked) return;
        }
    }
    if (sound && edk_gst_link_sound(pipeline, pad)) return;
    GstElement *discard = gst_element_factory_make("fakesink", NULL);
    if (discard == NULL) return;
    g_object_set(discard, "sync", FALSE, "async", FALSE, NULL);
    gst_bin_add(GST_BIN(pipeline), discard);
    gst_element_sync_state_with_parent(discard);
    GstPad *sink = gst_element_get_static_pad(discard, "sink");
    if (sink != NULL) {
        gst_pad_link(pad, sink);
        gst_object_unref(sink);
    }
}

/// Whether a video stream is linked to the element named `edk-convert` (the picture branch).
static inline int edk_gst_video_linked(GstElement *pipeline) {
    GstElement *convert = gst_bin_get_by_name(GST_BIN(pipeline), "edk-convert");
    int linked = 0;
    if (convert != NULL) {
        GstPad *sink = gst_element_get_static_pad(convert, "sink");
        if (sink != NULL) {
            linked = gst_pad_is_linked(sink);
            gst_object_unref(sink);
        }
        gst_object_unref(convert);
    }
    return linked;
}

/// decodebin's `no-more-pads`: when no video stream was linked, tells the bus (an application message named
/// `EDK_GST_NO_VIDEO`) instead of letting the preroll wait for a frame that never comes.
static inline void edk_gst_no_more_pads(GstElement *decodebin, gpointer data) {
    (void)decodebin;
    GstElement *pipeline = GST_ELEMENT(data);
    if (!edk_gst_video_linked(pipeline)) {
        gst_element_post_message(pipeline, gst_message_new_application(GST_OBJECT(pipeline),
                                                                      gst_structure_new_empty(EDK_GST_NO_VIDEO)));
    }
}

/// Connects decodebin's `pad-added` and `no-more-pads` to the handlers above, with the pipeline as their data.
static inline void edk_gst_connect_decodebin(GstElement *decodebin, GstElement *pipeline) {
    g_signal_connect(decodebin, "pad-added", G_CALLBACK(edk_gst_pad_added), pipeline);
    g_signal_connect(decodebin, "no-more-pads", G_CALLBACK(edk_gst_no_more_pads), pipeline);
}

/// Whether an application message is the no-video notice.
static inline int edk_gst_is_no_video(GstMessage *message) {
    const GstStructure *s = gst_message_get_structure(message);
    return s != NULL && gst_structure_has_name(s, EDK_GST_NO_VIDEO);
}

/// Whether an application message is the too-large notice; if so, the picture's size.
static inline int edk_gst_is_too_large(GstMessage *message, int *width, int *height) {
    const GstStructure *s = gst_message_get_structure(message);
    if (s == NULL || !gst_structure_has_name(s, EDK_GST_TOO_LARGE)) return 0;
    if (!gst_structure_get_int(s, "width", width)) *width = 0;
    if (!gst_structure_get_int(s, "height", height)) *height = 0;
    return 1;
}

/// Width, height and frame rate (0/1 when variable or unknown) of a sample's caps; 0 when they are missing.
static inline int edk_gst_sample_geometry(GstSample *sample, int *width, int *height, int *fps_n, int *fps_d) {
    GstCaps *caps = gst_sample_get_caps(sample);
    if (caps == NULL || gst_caps_get_size(caps) == 0) return 0;
    const GstStructure *s = gst_caps_get_structure(caps, 0);
    if (!gst_structure_get_int(s, "width", width) || !gst_structure_get_int(s, "height", height)) return 0;
    if (!gst_structure_get_fraction(s, "framerate", fps_n, fps_d)) { *fps_n = 0; *fps_d = 1; }
    return 1;
}

/// Lowers every `avdec_*` decoder (FFmpeg, GPL-2+ as Debian builds it) to rank none, so decodebin never picks
/// one; returns how many it lowered.
static inline int edk_gst_rank_down_avdec(void) {
    GstRegistry *registry = gst_registry_get();
    GList *features = gst_registry_get_feature_list(registry, GST_TYPE_ELEMENT_FACTORY);
    int lowered = 0;
    for (GList *l = features; l != NULL; l = l->next) {
        GstPluginFeature *feature = GST_PLUGIN_FEATURE(l->data);
        if (g_str_has_prefix(gst_plugin_feature_get_name(feature), "avdec_")) {
            gst_plugin_feature_set_rank(feature, GST_RANK_NONE);
            lowered++;
        }
    }
    gst_plugin_feature_list_free(features);
    return lowered;
}

/// Whether the element factory `name` is a hardware decoder (its class says `Hardware`: VA-API's `va` and
/// `vaapi` decoders, V4L2's stateful and stateless ones, NVIDIA's `nvcodec`).
static inline int edk_gst_factory_is_hardware(const char *name) {
    GstElementFactory *factory = gst_element_factory_find(name);
    if (factory == NULL) return 0;
    const char *klass = gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS);
    int hardware = klass != NULL && strstr(klass, "Hardware") != NULL;
    gst_object_unref(factory);
    return hardware;
}

/// Raises every hardware video decoder that is ranked at all (rank above none) to at least primary + 1, above
/// the software decoders (primary), so that decodebin tries it first; one that cannot start (no device, a
/// profile the chip lacks) fails its state change and decodebin goes on to the next. Returns how many it saw.
static inline int edk_gst_prefer_hardware_decoders(void) {
    GList *features = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
    int seen = 0;
    for (GList *l = features; l != NULL; l = l->next) {
        GstPluginFeature *feature = GST_PLUGIN_FEATURE(l->data);
        const char *klass = gst_element_factory_get_metadata(GST_ELEMENT_FACTORY(feature), GST_ELEMENT_METADATA_KLASS);
        if (klass == NULL || strstr(klass, "Decoder") == NULL || strstr(klass, "Video") == NULL
            || strstr(klass, "Hardware") == NULL) continue;
        seen++;
        guint rank = gst_plugin_feature_get_rank(feature);
        if (rank > GST_RANK_NONE && rank <= GST_RANK_PRIMARY) gst_plugin_feature_set_rank(feature, GST_RANK_PRIMARY + 1);
    }
    gst_plugin_feature_list_free(features);
    return seen;
}

/// The factory name of the video decoder inside the pipeline (`vp8dec`, `openh264dec` …), newly allocated (free
/// with g_free), or NULL when there is none yet.
static inline char *edk_gst_video_decoder_name(GstElement *pipeline) {
    GstIterator *iterator = gst_bin_iterate_recurse(GST_BIN(pipeline));
    GValue value = G_VALUE_INIT;
    char *name = NULL;
    gboolean done = FALSE;
    while (!done && name == NULL) {
        switch (gst_iterator_next(iterator, &value)) {
        case GST_ITERATOR_OK: {
            GstElementFactory *factory = gst_element_get_factory(GST_ELEMENT(g_value_get_object(&value)));
            const char *klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
            if (klass != NULL && strstr(klass, "Decoder") != NULL && strstr(klass, "Video") != NULL) {
                name = g_strdup(gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)));
            }
            g_value_reset(&value);
            break;
        }
        case GST_ITERATOR_RESYNC: gst_iterator_resync(iterator); break;
        default: done = TRUE; break;
        }
    }
    g_value_unset(&value);
    gst_iterator_free(iterator);
    return name;
}

/// Takes ownership of a GError: copies its message into a new string (free with g_free) and frees the error.
static inline char *edk_gst_take_error_message(GError *error) {
    if (error == NULL) return NULL;
    char *message = g_strdup(error->message);
    g_error_free(error);
    return message;
}

/// The sound branch (`edk_gst_enable_sound`): converted, resampled, time-stretched so a rate other than 1 keeps the
/// pitch, scaled by the `volume` element named `edk-volume`, played by `pulsesink` (PulseAudio, or PipeWire's pulse
/// server) named `edk-soundsink`, in sync with the pipeline's clock.
#define EDK_GST_SOUND_BRANCH "queue ! audioconvert ! audioresample ! scaletempo ! audioconvert ! volume name=edk-volume " \
    "! pulsesink name=edk-soundsink"

/// Asks the pipeline to play the file's first sound stream through the sound branch.
static inline void edk_gst_enable_sound(GstElement *pipeline) {
    g_object_set_data(G_OBJECT(pipeline), "edk-sound", GINT_TO_POINTER(1));
}

/// In `pad-added`: when the pipeline plays sound and has no sound branch yet, builds one (a bin named
/// `edk-sound`), adds it and links `pad` to it; FALSE (nothing added) otherwise or when it cannot be built.
static inline gboolean edk_gst_link_sound(GstElement *pipeline, GstPad *pad) {
    if (g_object_get_data(G_OBJECT(pipeline), "edk-sound") == NULL) return FALSE;
    GstElement *existing = gst_bin_get_by_name(GST_BIN(pipeline), "edk-sound");
    if (existing != NULL) {
        gst_object_unref(existing);
        return FALSE;
    }
    GError *error = NULL;
    GstElement *branch = gst_parse_bin_from_description(EDK_GST_SOUND_BRANCH, TRUE, &error);
    if (error != NULL) g_error_free(error);
    if (branch == NULL) return FALSE;
    gst_object_set_name(GST_OBJECT(branch), "edk-sound");
    if (!gst_bin_add(GST_BIN(pipeline), branch)) {
        gst_object_unref(branch);
        return FALSE;
    }
    GstPad *sink = gst_element_get_static_pad(branch, "sink");
    gboolean linked = sink != NULL && gst_pad_link(pad, sink) == GST_PAD_LINK_OK;
    if (sink != NULL) gst_object_unref(sink);
    if (!linked) {
        gst_bin_remove(GST_BIN(pipeline), branch);
        return FALSE;
    }
    gst_element_sync_state_with_parent(branch);
    return TRUE;
}

/// The element named `name` inside the pipeline (searched recursively), with a reference (unref it), or NULL.
static inline GstElement *edk_gst_find(GstElement *pipeline, const char *name) {
    return gst_bin_get_by_name(GST_BIN(pipeline), name);
}

/// Sets a double property (`volume` of the volume element).
static inline void edk_gst_set_double(GstElement *element, const char *name, double value) {
    g_object_set(element, name, value, NULL);
}

/// Whether a sound server answers `pulsesink` (PulseAudio, or PipeWire's pulse server): 1 yes, 0 no, -1 when the
/// pulsesink element is not installed. Opening the device connects to the server; nothing is played.
static inline int edk_gst_sound_server_answers(void) {
    GstElement *sink = gst_element_factory_make("pulsesink", NULL);
    if (sink == NULL) return -1;
    gst_object_ref_sink(sink);
    int answers = gst_element_set_state(sink, GST_STATE_READY) != GST_STATE_CHANGE_FAILURE;
    gst_element_set_state(sink, GST_STATE_NULL);
    gst_object_unref(sink);
    return answers;
}

/// Whether a message comes from the element named `name` or from inside it (the sound branch's errors).
static inline int edk_gst_message_from(GstMessage *message, const char *name) {
    GstObject *object = GST_MESSAGE_SRC(message);
    if (object != NULL) gst_object_ref(object);
    int found = 0;
    while (object != NULL && !found) {
        gchar *objectName = gst_object_get_name(object);
        found = objectName != NULL && strcmp(objectName, name) == 0;
        g_free(objectName);
        GstObject *parent = gst_object_get_parent(object);
        gst_object_unref(object);
        object = parent;
    }
    if (object != NULL) gst_object_unref(object);
    return found;
}

/// The licence GStreamer's registry gives the plugin that holds the element factory `name` ("LGPL", "BSD" …),
/// newly allocated (free with g_free); NULL when no such factory is installed. The plugin is not loaded.
static inline char *edk_gst_factory_licence(const char *name) {
    GstElementFactory *factory = gst_element_factory_find(name);
    if (factory == NULL) return NULL;
    char *licence = NULL;
    GstPlugin *plugin = gst_plugin_feature_get_plugin(GST_PLUGIN_FEATURE(factory));
    if (plugin != NULL) {
        licence = g_strdup(gst_plugin_get_license(plugin));
        gst_object_unref(plugin);
    }
    gst_object_unref(factory);
    return licence != NULL ? licence : g_strdup("unknown");
}
