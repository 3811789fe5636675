#pragma once
#include <string.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>

/* The webcam picture-in-picture's calls Swift cannot make directly (GStreamer's callbacks, the device monitor's
   structures), for DesktopVideo's WebcamFeed. Everything here is GStreamer's public API; pipewiresrc and v4l2src
   are plugins loaded at run time. */

/// What stopped a webcam: an error on its pipeline's bus, the end of its stream, or its PipeWire node removed.
typedef enum { EDK_WEBCAM_ERROR = 1, EDK_WEBCAM_ENDED = 2, EDK_WEBCAM_GONE = 3 } EdkWebcamProblem;

/// Where a webcam's news goes, called on GStreamer's threads: `sample` gets each new frame (the callee owns the
/// reference), `problem` what stopped it (the text is only valid during the call). `watched` is the PipeWire
/// node name whose removal is reported (owned, may be NULL).
typedef struct {
    void (*sample)(void *context, GstSample *sample);
    void (*problem)(void *context, int kind, const char *text);
    void *context;
    char *watched;
} EdkWebcamCallbacks;

static inline void edk_webcam_callbacks_free(gpointer data) {
    EdkWebcamCallbacks *callbacks = data;
    g_free(callbacks->watched);
    g_free(callbacks);
}

static inline EdkWebcamCallbacks *edk_webcam_callbacks_copy(const EdkWebcamCallbacks *callbacks, const char *watched) {
    EdkWebcamCallbacks *copy = g_new0(EdkWebcamCallbacks, 1);
    *copy = *callbacks;
    copy->watched = watched != NULL ? g_strdup(watched) : NULL;
    return copy;
}

static inline GstFlowReturn edk_webcam_new_sample(GstAppSink *sink, gpointer data) {
    EdkWebcamCallbacks *callbacks = data;
    GstSample *sample = gst_app_sink_try_pull_sample(sink, 0);
    if (sample != NULL) callbacks->sample(callbacks->context, sample);
    return GST_FLOW_OK;
}

static inline GstBusSyncReply edk_webcam_bus_message(GstBus *bus, GstMessage *message, gpointer data) {
    (void)bus;
    EdkWebcamCallbacks *callbacks = data;
    switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_ERROR: {
        GError *error = NULL;
        gchar *debug = NULL;
        gst_message_parse_error(message, &error, &debug);
        /* The message alone ("Internal data stream error."), and the reason when no format could be agreed. */
        gchar *text = g_strdup_printf("%s%s", error != NULL ? error->message : "unknown error",
                                      debug != NULL && strstr(debug, "not-negotiated") != NULL ? " (not-negotiated)" : "");
        callbacks->problem(callbacks->context, EDK_WEBCAM_ERROR, text);
        g_free(text);
        if (error != NULL) g_error_free(error);
        g_free(debug);
        break;
    }
    case GST_MESSAGE_EOS:
        callbacks->problem(callbacks->context, EDK_WEBCAM_ENDED, "the stream ended");
        break;
    case GST_MESSAGE_DEVICE_REMOVED: {
        if (callbacks->watched == NULL) break;
        GstDevice *device = NULL;
        gst_message_parse_device_removed(message, &device);
        if (device == NULL) break;
        GstStructure *props = gst_device_get_properties(device);
        const char *name = props != NULL ? gst_structure_get_string(props, "node.name") : NULL;
        if (name != NULL && strcmp(name, callbacks->watched) == 0) {
            callbacks->problem(callbacks->context, EDK_WEBCAM_GONE, "its PipeWire node was removed");
        }
        if (props != NULL) gst_structure_free(props);
        gst_object_unref(device);
        break;
    }
    default:
        break;
    }
    gst_message_unref(message);
    return GST_BUS_DROP;
}

/// Sets up the capture's `appsink`: it keeps only the newest frame (drops older ones), never synchronises on a
/// clock, and hands each frame to `callbacks` on the streaming thread.
static inline void edk_webcam_configure_sink(GstElement *appsink, const EdkWebcamCallbacks *callbacks) {
    g_object_set(appsink, "max-buffers", 1, "drop", TRUE, "sync", FALSE, "emit-signals", FALSE, NULL);
    GstAppSinkCallbacks sink_callbacks;
    memset(&sink_callbacks, 0, sizeof sink_callbacks);
    sink_callbacks.new_sample = edk_webcam_new_sample;
    gst_app_sink_set_callbacks(GST_APP_SINK(appsink), &sink_callbacks, edk_webcam_callbacks_copy(callbacks, NULL),
                               edk_webcam_callbacks_free);
}

/// Reports the errors and the end of stream posted on `pipeline`'s bus to `callbacks`, on the thread that posts
/// them (no main loop needed); every message is dropped afterwards.
static inline void edk_webcam_watch_bus(GstElement *pipeline, const EdkWebcamCallbacks *callbacks) {
    GstBus *bus = gst_element_get_bus(pipeline);
    if (bus == NULL) return;
    gst_bus_set_sync_handler(bus, edk_webcam_bus_message, edk_webcam_callbacks_copy(callbacks, NULL),
                             edk_webcam_callbacks_free);
    gst_object_unref(bus);
}

/// Stops reporting `pipeline`'s (or a monitor's) bus messages: no callback runs once this returns.
static inline void edk_webcam_unwatch_bus(GstBus *bus) {
    if (bus == NULL) return;
    gst_bus_set_sync_handler(bus, NULL, NULL, NULL);
}

/// The pipeline's bus (unref it).
static inline GstBus *edk_webcam_pipeline_bus(GstElement *pipeline) { return gst_element_get_bus(pipeline); }

/// Makes `pipewiresrc` capture from the node `target` (a node name or serial) under the client name `client`.
static inline void edk_webcam_configure_pipewire(GstElement *source, const char *target, const char *client) {
    g_object_set(source, "target-object", target, "client-name", client, NULL);
}

/// A running device monitor for video sources (PipeWire nodes, V4L2 devices), or NULL when none starts.
static inline GstDeviceMonitor *edk_webcam_monitor_start(void) {
    GstDeviceMonitor *monitor = gst_device_monitor_new();
    if (monitor == NULL) return NULL;
    gst_device_monitor_add_filter(monitor, "Video/Source", NULL);
    if (!gst_device_monitor_start(monitor)) {
        gst_object_unref(monitor);
        return NULL;
    }
    return monitor;
}

/// Whether the device's properties name the V4L2 device `path` (`api.v4l2.path`, `device.path`, or an
/// `object.path` of `v4l2:PATH`).
static inline int edk_webcam_props_name_path(const GstStructure *props, const char *path) {
    if (path == NULL || path[0] == '\0') return 0;
    const char *keys[] = { "api.v4l2.path", "device.path", "object.path" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *value = gst_structure_get_string(props, keys[i]);
        if (value == NULL) continue;
        if (strcmp(value, path) == 0) return 1;
        if (g_str_has_prefix(value, "v4l2:") && strcmp(value + 5, path) == 0) return 1;
    }
    return 0;
}

/// The PipeWire video sources the monitor sees, in its order, one per line as `NAME\tSERIAL\tDESCRIPTION`,
/// leaving out the node named `exclude_name` and any node of the V4L2 device `exclude_path` (the camera extdisplay
/// publishes itself); newly allocated (free with g_free), empty when there is none.
static inline char *edk_webcam_monitor_list(GstDeviceMonitor *monitor, const char *exclude_name, const char *exclude_path) {
    GString *out = g_string_new(NULL);
    GList *devices = gst_device_monitor_get_devices(monitor);
    for (GList *l = devices; l != NULL; l = l->next) {
        GstDevice *device = GST_DEVICE(l->data);
        GstStructure *props = gst_device_get_properties(device);
        const char *name = props != NULL ? gst_structure_get_string(props, "node.name") : NULL;
        if (name != NULL && (exclude_name == NULL || strcmp(name, exclude_name) != 0)
            && !edk_webcam_props_name_path(props, exclude_path)) {
            const char *serial = gst_structure_get_string(props, "object.serial");
            gchar *description = gst_device_get_display_name(device);
            g_string_append_printf(out, "%s\t%s\t%s\n", name, serial != NULL ? serial : "",
                                   description != NULL ? description : name);
            g_free(description);
        }
        if (props != NULL) gst_structure_free(props);
    }
    g_list_free_full(devices, gst_object_unref);
    return g_string_free(out, FALSE);
}

/// Reports the removal of the PipeWire node `name` (a device-removed message on the monitor's bus) to
/// `callbacks`, on the provider's thread.
static inline void edk_webcam_monitor_watch(GstDeviceMonitor *monitor, const char *name, const EdkWebcamCallbacks *callbacks) {
    GstBus *bus = gst_device_monitor_get_bus(monitor);
    if (bus == NULL) return;
    gst_bus_set_sync_handler(bus, edk_webcam_bus_message, edk_webcam_callbacks_copy(callbacks, name),
                             edk_webcam_callbacks_free);
    gst_object_unref(bus);
}

/// The monitor's bus (unref it).
static inline GstBus *edk_webcam_monitor_bus(GstDeviceMonitor *monitor) { return gst_device_monitor_get_bus(monitor); }

/// Stops and releases a monitor.
static inline void edk_webcam_monitor_stop(GstDeviceMonitor *monitor) {
    gst_device_monitor_stop(monitor);
    gst_object_unref(monitor);
}

/// A frame's width, height and its BGRx bytes mapped for reading (unmap with ``edk_webcam_unmap``); 0 when the
/// sample has no buffer or caps.
static inline int edk_webcam_map(GstSample *sample, GstMapInfo *map, int *width, int *height) {
    GstCaps *caps = gst_sample_get_caps(sample);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    if (caps == NULL || buffer == NULL || gst_caps_get_size(caps) == 0) return 0;
    const GstStructure *s = gst_caps_get_structure(caps, 0);
    if (!gst_structure_get_int(s, "width", width) || !gst_structure_get_int(s, "height", height)) return 0;
    return gst_buffer_map(buffer, map, GST_MAP_READ) ? 1 : 0;
}

/// Unmaps a frame mapped by ``edk_webcam_map``.
static inline void edk_webcam_unmap(GstSample *sample, GstMapInfo *map) {
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    if (buffer != NULL) gst_buffer_unmap(buffer, map);
}

/// Takes a reference to a sample.
static inline GstSample *edk_webcam_sample_ref(GstSample *sample) { return gst_sample_ref(sample); }

/// Drops a reference to a sample.
static inline void edk_webcam_sample_unref(GstSample *sample) { gst_sample_unref(sample); }
