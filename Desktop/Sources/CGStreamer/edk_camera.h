#pragma once
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>

/* The camera publisher's calls Swift cannot make directly (variadic g_object_set, GstBuffer's field macros),
   for DesktopVideo's CameraStream. Everything here is GStreamer's public API; pipewiresink and v4l2sink are
   plugins loaded at run time. */

/// Sets up the camera's `appsrc`: a live source in time format whose queue holds at most `max_buffers` frames and
/// drops the oldest when full (never blocks the caller), with `caps` (a fixed raw video format).
static inline void edk_gst_camera_configure_source(GstElement *appsrc, GstCaps *caps, guint64 max_buffers) {
    g_object_set(appsrc, "is-live", TRUE, "format", GST_FORMAT_TIME, "block", FALSE, "do-timestamp", FALSE,
                 "max-buffers", max_buffers, "max-bytes", (guint64)0, "max-time", (guint64)0,
                 "leaky-type", GST_APP_LEAKY_TYPE_DOWNSTREAM, "emit-signals", FALSE, "caps", caps, NULL);
}

/// Makes `pipewiresink` provide a node other clients connect to (`mode=provide`) with the stream properties that
/// make it a camera: `media.class` Video/Source, `media.role` Camera, and the given node name and description.
static inline void edk_gst_camera_configure_pipewire(GstElement *sink, const char *node_name, const char *description) {
    GstStructure *props = gst_structure_new("props",
                                            "media.class", G_TYPE_STRING, "Video/Source",
                                            "media.role", G_TYPE_STRING, "Camera",
                                            "node.name", G_TYPE_STRING, node_name,
                                            "node.description", G_TYPE_STRING, description,
                                            NULL);
    gst_util_set_object_arg(G_OBJECT(sink), "mode", "provide");
    g_object_set(sink, "client-name", node_name, "stream-properties", props, "sync", FALSE, NULL);
    gst_structure_free(props);
}

/// A new frame buffer of `size` bytes, mapped for writing into `*data` (unmap with ``edk_gst_camera_unmap``).
static inline GstBuffer *edk_gst_camera_new_frame(gsize size, GstMapInfo *map) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, size, NULL);
    if (buffer == NULL) return NULL;
    if (!gst_buffer_map(buffer, map, GST_MAP_WRITE)) {
        gst_buffer_unref(buffer);
        return NULL;
    }
    return buffer;
}

/// Unmaps a frame mapped by ``edk_gst_camera_new_frame``.
static inline void edk_gst_camera_unmap(GstBuffer *buffer, GstMapInfo *map) { gst_buffer_unmap(buffer, map); }

/// Pushes `frame` (kept by the caller) to the appsrc as a new buffer sharing its memory, stamped `pts`
/// nanoseconds; never blocks (the source drops its oldest frame when full). Returns the flow result.
static inline GstFlowReturn edk_gst_camera_push(GstElement *appsrc, GstBuffer *frame, guint64 pts) {
    GstBuffer *copy = gst_buffer_copy(frame);
    if (copy == NULL) return GST_FLOW_ERROR;
    GST_BUFFER_PTS(copy) = pts;
    GST_BUFFER_DTS(copy) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(copy) = GST_CLOCK_TIME_NONE;
    return gst_app_src_push_buffer(GST_APP_SRC(appsrc), copy);
}

/// Releases a frame the caller kept.
static inline void edk_gst_camera_release(GstBuffer *frame) { gst_buffer_unref(frame); }

/// The first error waiting on the pipeline's bus, without waiting: its message and, after " — ", GStreamer's
/// debug detail (free with g_free); NULL when there is none.
static inline char *edk_gst_camera_pop_error(GstElement *pipeline) {
    GstBus *bus = gst_element_get_bus(pipeline);
    if (bus == NULL) return NULL;
    GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    gst_object_unref(bus);
    if (message == NULL) return NULL;
    GError *error = NULL;
    gchar *debug = NULL;
    gst_message_parse_error(message, &error, &debug);
    char *text = debug != NULL && error != NULL ? g_strdup_printf("%s — %s", error->message, debug)
                                                 : g_strdup(error != NULL ? error->message : "unknown error");
    if (error != NULL) g_error_free(error);
    g_free(debug);
    gst_message_unref(message);
    return text;
}

/// Sets the `caps` property (a capsfilter's).
static inline void edk_gst_camera_set_caps(GstElement *element, GstCaps *caps) { g_object_set(element, "caps", caps, NULL); }
