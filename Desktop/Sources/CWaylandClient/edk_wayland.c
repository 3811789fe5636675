/*
 * Listener shims and request wrappers (see edk_wayland.h). Each listener turns one protocol event into a
 * struct edk_wl_event and hands it to the sink; each request wrapper calls wl_proxy_marshal_flags with the
 * opcode the specification gives.
 */
#include "edk_wayland.h"
#include <stdlib.h>
#include <string.h>

static void emit(struct edk_wl_sink *sink, struct edk_wl_event *event) {
    if (sink && sink->handler) sink->handler(sink->context, event);
}

#define EVENT(kind_, object_) struct edk_wl_event ev; memset(&ev, 0, sizeof ev); ev.kind = (kind_); ev.object = (object_)

/* ---- wl_registry ---- */

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                            uint32_t version) {
    EVENT(EDK_REGISTRY_GLOBAL, registry);
    ev.name = name; ev.text = interface; ev.a = (int32_t)version;
    emit(data, &ev);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    EVENT(EDK_REGISTRY_GLOBAL_REMOVE, registry);
    ev.name = name;
    emit(data, &ev);
}

static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

struct wl_registry *edk_registry(struct wl_display *display, struct edk_wl_sink *sink) {
    struct wl_registry *registry = wl_display_get_registry(display);
    if (registry) wl_registry_add_listener(registry, &registry_listener, sink);
    return registry;
}

/* ---- wl_output (version 4: geometry, mode, done, scale, name, description) ---- */

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t w, int32_t h,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {
    (void)subpixel;
    EVENT(EDK_OUTPUT_GEOMETRY, o);
    ev.a = x; ev.b = y; ev.c = w; ev.d = h; ev.e = transform; ev.text = make; ev.text2 = model;
    emit(data, &ev);
}

static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
    EVENT(EDK_OUTPUT_MODE, o);
    ev.a = (int32_t)flags; ev.b = w; ev.c = h; ev.d = refresh;
    emit(data, &ev);
}

static void output_done(void *data, struct wl_output *o) { EVENT(EDK_OUTPUT_DONE, o); emit(data, &ev); }

static void output_scale(void *data, struct wl_output *o, int32_t factor) {
    EVENT(EDK_OUTPUT_SCALE, o);
    ev.a = factor;
    emit(data, &ev);
}

static void output_name(void *data, struct wl_output *o, const char *name) {
    EVENT(EDK_OUTPUT_NAME, o);
    ev.text = name;
    emit(data, &ev);
}

static void output_description(void *data, struct wl_output *o, const char *description) {
    EVENT(EDK_OUTPUT_DESCRIPTION, o);
    ev.text = description;
    emit(data, &ev);
}

static const struct wl_output_listener output_listener = {
    output_geometry, output_mode, output_done, output_scale, output_name, output_description,
};

struct wl_output *edk_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version,
                                  struct edk_wl_sink *sink) {
    struct wl_output *output = wl_registry_bind(registry, name, &wl_output_interface, version);
    if (output) wl_output_add_listener(output, &output_listener, sink);
    return output;
}

void edk_output_release(struct wl_output *output) {
    if (wl_proxy_get_version((struct wl_proxy *)output) >= WL_OUTPUT_RELEASE_SINCE_VERSION)
        wl_output_release(output);
    else
        wl_output_destroy(output);
}

/* ---- zxdg_output_v1 ---- */

static void xdg_position(void *data, struct zxdg_output_v1 *o, int32_t x, int32_t y) {
    EVENT(EDK_XDG_LOGICAL_POSITION, o);
    ev.a = x; ev.b = y;
    emit(data, &ev);
}

static void xdg_size(void *data, struct zxdg_output_v1 *o, int32_t w, int32_t h) {
    EVENT(EDK_XDG_LOGICAL_SIZE, o);
    ev.a = w; ev.b = h;
    emit(data, &ev);
}

static void xdg_done(void *data, struct zxdg_output_v1 *o) { EVENT(EDK_XDG_DONE, o); emit(data, &ev); }

static void xdg_name(void *data, struct zxdg_output_v1 *o, const char *name) {
    EVENT(EDK_XDG_NAME, o);
    ev.text = name;
    emit(data, &ev);
}

static void xdg_description(void *data, struct zxdg_output_v1 *o, const char *description) {
    EVENT(EDK_XDG_DESCRIPTION, o);
    ev.text = description;
    emit(data, &ev);
}

static const struct {
    void (*logical_position)(void *, struct zxdg_output_v1 *, int32_t, int32_t);
    void (*logical_size)(void *, struct zxdg_output_v1 *, int32_t, int32_t);
    void (*done)(void *, struct zxdg_output_v1 *);
    void (*name)(void *, struct zxdg_output_v1 *, const char *);
    void (*description)(void *, struct zxdg_output_v1 *, const char *);
} xdg_output_listener = { xdg_position, xdg_size, xdg_done, xdg_name, xdg_description };

/* ---- kde_output_order_v1 ---- */

static void order_output(void *data, struct kde_output_order_v1 *o, const char *name) {
    EVENT(EDK_ORDER_OUTPUT, o);
    ev.text = name;
    emit(data, &ev);
}

static void order_done(void *data, struct kde_output_order_v1 *o) { EVENT(EDK_ORDER_DONE, o); emit(data, &ev); }

static const struct {
    void (*output)(void *, struct kde_output_order_v1 *, const char *);
    void (*done)(void *, struct kde_output_order_v1 *);
} order_listener = { order_output, order_done };

struct kde_output_order_v1 *edk_bind_output_order(struct wl_registry *registry, uint32_t name, uint32_t version,
                                                  struct edk_wl_sink *sink) {
    struct wl_proxy *order = wl_registry_bind(registry, name, &edk_kde_output_order_v1_interface, version);
    if (order) wl_proxy_add_listener(order, (void (**)(void))&order_listener, sink);
    return (struct kde_output_order_v1 *)order;
}

struct zxdg_output_manager_v1 *edk_bind_xdg_output_manager(struct wl_registry *registry, uint32_t name,
                                                           uint32_t version) {
    return wl_registry_bind(registry, name, &edk_zxdg_output_manager_v1_interface, version);
}

struct zxdg_output_v1 *edk_get_xdg_output(struct zxdg_output_manager_v1 *manager, struct wl_output *output,
                                          struct edk_wl_sink *sink) {
    struct wl_proxy *m = (struct wl_proxy *)manager;
    struct wl_proxy *o = wl_proxy_marshal_flags(m, 1, &edk_zxdg_output_v1_interface, wl_proxy_get_version(m), 0,
                                                NULL, output);
    if (o) wl_proxy_add_listener(o, (void (**)(void))&xdg_output_listener, sink);
    return (struct zxdg_output_v1 *)o;
}

void edk_xdg_output_destroy(struct zxdg_output_v1 *output) {
    struct wl_proxy *p = (struct wl_proxy *)output;
    wl_proxy_marshal_flags(p, 0, NULL, wl_proxy_get_version(p), WL_MARSHAL_FLAG_DESTROY);
}

void edk_xdg_output_manager_destroy(struct zxdg_output_manager_v1 *manager) {
    struct wl_proxy *p = (struct wl_proxy *)manager;
    wl_proxy_marshal_flags(p, 0, NULL, wl_proxy_get_version(p), WL_MARSHAL_FLAG_DESTROY);
}

/* ---- zwlr_output_mode_v1 ---- */

static void mode_size(void *data, struct zwlr_output_mode_v1 *m, int32_t w, int32_t h) {
    EVENT(EDK_MODE_SIZE, m);
    ev.a = w; ev.b = h;
    emit(data, &ev);
}

static void mode_refresh(void *data, struct zwlr_output_mode_v1 *m, int32_t refresh) {
    EVENT(EDK_MODE_REFRESH, m);
    ev.a = refresh;
    emit(data, &ev);
}

static void mode_preferred(void *data, struct zwlr_output_mode_v1 *m) { EVENT(EDK_MODE_PREFERRED, m); emit(data, &ev); }
static void mode_finished(void *data, struct zwlr_output_mode_v1 *m) { EVENT(EDK_MODE_FINISHED, m); emit(data, &ev); }

static const struct {
    void (*size)(void *, struct zwlr_output_mode_v1 *, int32_t, int32_t);
    void (*refresh)(void *, struct zwlr_output_mode_v1 *, int32_t);
    void (*preferred)(void *, struct zwlr_output_mode_v1 *);
    void (*finished)(void *, struct zwlr_output_mode_v1 *);
} mode_listener = { mode_size, mode_refresh, mode_preferred, mode_finished };

/* ---- zwlr_output_head_v1 ---- */

static void head_string(void *data, void *head, enum edk_wl_event_kind kind, const char *text) {
    EVENT(kind, head);
    ev.text = text;
    emit(data, &ev);
}

static void head_name(void *d, struct zwlr_output_head_v1 *h, const char *s) { head_string(d, h, EDK_HEAD_NAME, s); }
static void head_description(void *d, struct zwlr_output_head_v1 *h, const char *s) {
    head_string(d, h, EDK_HEAD_DESCRIPTION, s);
}
static void head_make(void *d, struct zwlr_output_head_v1 *h, const char *s) { head_string(d, h, EDK_HEAD_MAKE, s); }
static void head_model(void *d, struct zwlr_output_head_v1 *h, const char *s) { head_string(d, h, EDK_HEAD_MODEL, s); }
static void head_serial(void *d, struct zwlr_output_head_v1 *h, const char *s) { head_string(d, h, EDK_HEAD_SERIAL, s); }

static void head_pair(void *data, void *head, enum edk_wl_event_kind kind, int32_t a, int32_t b) {
    EVENT(kind, head);
    ev.a = a; ev.b = b;
    emit(data, &ev);
}

static void head_physical_size(void *d, struct zwlr_output_head_v1 *h, int32_t w, int32_t ht) {
    head_pair(d, h, EDK_HEAD_PHYSICAL_SIZE, w, ht);
}
static void head_enabled(void *d, struct zwlr_output_head_v1 *h, int32_t on) { head_pair(d, h, EDK_HEAD_ENABLED, on, 0); }
static void head_position(void *d, struct zwlr_output_head_v1 *h, int32_t x, int32_t y) {
    head_pair(d, h, EDK_HEAD_POSITION, x, y);
}
static void head_transform(void *d, struct zwlr_output_head_v1 *h, int32_t t) { head_pair(d, h, EDK_HEAD_TRANSFORM, t, 0); }
static void head_adaptive_sync(void *d, struct zwlr_output_head_v1 *h, uint32_t s) { (void)d; (void)h; (void)s; }

static void head_mode(void *data, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *mode) {
    wl_proxy_add_listener((struct wl_proxy *)mode, (void (**)(void))&mode_listener, data);
    EVENT(EDK_HEAD_MODE, h);
    ev.other = mode;
    emit(data, &ev);
}

static void head_current_mode(void *data, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *mode) {
    EVENT(EDK_HEAD_CURRENT_MODE, h);
    ev.other = mode;
    emit(data, &ev);
}

static void head_scale(void *data, struct zwlr_output_head_v1 *h, wl_fixed_t scale) {
    EVENT(EDK_HEAD_SCALE, h);
    ev.scale = wl_fixed_to_double(scale);
    emit(data, &ev);
}

static void head_finished(void *data, struct zwlr_output_head_v1 *h) { EVENT(EDK_HEAD_FINISHED, h); emit(data, &ev); }

static const struct {
    void (*name)(void *, struct zwlr_output_head_v1 *, const char *);
    void (*description)(void *, struct zwlr_output_head_v1 *, const char *);
    void (*physical_size)(void *, struct zwlr_output_head_v1 *, int32_t, int32_t);
    void (*mode)(void *, struct zwlr_output_head_v1 *, struct zwlr_output_mode_v1 *);
    void (*enabled)(void *, struct zwlr_output_head_v1 *, int32_t);
    void (*current_mode)(void *, struct zwlr_output_head_v1 *, struct zwlr_output_mode_v1 *);
    void (*position)(void *, struct zwlr_output_head_v1 *, int32_t, int32_t);
    void (*transform)(void *, struct zwlr_output_head_v1 *, int32_t);
    void (*scale)(void *, struct zwlr_output_head_v1 *, wl_fixed_t);
    void (*finished)(void *, struct zwlr_output_head_v1 *);
    void (*make)(void *, struct zwlr_output_head_v1 *, const char *);
    void (*model)(void *, struct zwlr_output_head_v1 *, const char *);
    void (*serial_number)(void *, struct zwlr_output_head_v1 *, const char *);
    void (*adaptive_sync)(void *, struct zwlr_output_head_v1 *, uint32_t);
} head_listener = {
    head_name, head_description, head_physical_size, head_mode, head_enabled, head_current_mode, head_position,
    head_transform, head_scale, head_finished, head_make, head_model, head_serial, head_adaptive_sync,
};

/* ---- zwlr_output_manager_v1 ---- */

static void manager_head(void *data, struct zwlr_output_manager_v1 *m, struct zwlr_output_head_v1 *head) {
    wl_proxy_add_listener((struct wl_proxy *)head, (void (**)(void))&head_listener, data);
    EVENT(EDK_WLR_HEAD, m);
    ev.other = head;
    emit(data, &ev);
}

static void manager_done(void *data, struct zwlr_output_manager_v1 *m, uint32_t serial) {
    EVENT(EDK_WLR_DONE, m);
    ev.a = (int32_t)serial;
    emit(data, &ev);
}

static void manager_finished(void *data, struct zwlr_output_manager_v1 *m) { EVENT(EDK_WLR_FINISHED, m); emit(data, &ev); }

static const struct {
    void (*head)(void *, struct zwlr_output_manager_v1 *, struct zwlr_output_head_v1 *);
    void (*done)(void *, struct zwlr_output_manager_v1 *, uint32_t);
    void (*finished)(void *, struct zwlr_output_manager_v1 *);
} manager_listener = { manager_head, manager_done, manager_finished };

struct zwlr_output_manager_v1 *edk_bind_output_manager(struct wl_registry *registry, uint32_t name,
                                                       uint32_t version, struct edk_wl_sink *sink) {
    struct wl_proxy *m = wl_registry_bind(registry, name, &edk_zwlr_output_manager_v1_interface, version);
    if (m) wl_proxy_add_listener(m, (void (**)(void))&manager_listener, sink);
    return (struct zwlr_output_manager_v1 *)m;
}

void edk_output_manager_stop_and_destroy(struct zwlr_output_manager_v1 *manager) {
    struct wl_proxy *p = (struct wl_proxy *)manager;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0);   /* stop */
    wl_proxy_destroy(p);
}

/* ---- zwlr_output_configuration_v1 and its heads ---- */

static void configuration_event(void *data, void *c, enum edk_wl_event_kind kind) { EVENT(kind, c); emit(data, &ev); }
static void configuration_succeeded(void *d, struct zwlr_output_configuration_v1 *c) {
    configuration_event(d, c, EDK_CONFIG_SUCCEEDED);
}
static void configuration_failed(void *d, struct zwlr_output_configuration_v1 *c) {
    configuration_event(d, c, EDK_CONFIG_FAILED);
}
static void configuration_cancelled(void *d, struct zwlr_output_configuration_v1 *c) {
    configuration_event(d, c, EDK_CONFIG_CANCELLED);
}

static const struct {
    void (*succeeded)(void *, struct zwlr_output_configuration_v1 *);
    void (*failed)(void *, struct zwlr_output_configuration_v1 *);
    void (*cancelled)(void *, struct zwlr_output_configuration_v1 *);
} configuration_listener = { configuration_succeeded, configuration_failed, configuration_cancelled };

struct zwlr_output_configuration_v1 *edk_create_configuration(struct zwlr_output_manager_v1 *manager,
                                                              uint32_t serial, struct edk_wl_sink *sink) {
    struct wl_proxy *m = (struct wl_proxy *)manager;
    struct wl_proxy *c = wl_proxy_marshal_flags(m, 0, &edk_zwlr_output_configuration_v1_interface,
                                                wl_proxy_get_version(m), 0, NULL, serial);
    if (c) wl_proxy_add_listener(c, (void (**)(void))&configuration_listener, sink);
    return (struct zwlr_output_configuration_v1 *)c;
}

struct zwlr_output_configuration_head_v1 *edk_configuration_enable_head(struct zwlr_output_configuration_v1 *c,
                                                                        struct zwlr_output_head_v1 *head) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    return (struct zwlr_output_configuration_head_v1 *)wl_proxy_marshal_flags(
        p, 0, &edk_zwlr_output_configuration_head_v1_interface, wl_proxy_get_version(p), 0, NULL, head);
}

void edk_configuration_disable_head(struct zwlr_output_configuration_v1 *c, struct zwlr_output_head_v1 *head) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0, head);
}

void edk_configuration_apply(struct zwlr_output_configuration_v1 *c) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 2, NULL, wl_proxy_get_version(p), 0);
}

void edk_configuration_destroy(struct zwlr_output_configuration_v1 *c) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 4, NULL, wl_proxy_get_version(p), WL_MARSHAL_FLAG_DESTROY);
}

void edk_configuration_head_set_mode(struct zwlr_output_configuration_head_v1 *h, struct zwlr_output_mode_v1 *m) {
    struct wl_proxy *p = (struct wl_proxy *)h;
    wl_proxy_marshal_flags(p, 0, NULL, wl_proxy_get_version(p), 0, m);
}

void edk_configuration_head_set_custom_mode(struct zwlr_output_configuration_head_v1 *h, int32_t width,
                                            int32_t height, int32_t refresh_mhz) {
    struct wl_proxy *p = (struct wl_proxy *)h;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0, width, height, refresh_mhz);
}

void edk_configuration_head_set_position(struct zwlr_output_configuration_head_v1 *h, int32_t x, int32_t y) {
    struct wl_proxy *p = (struct wl_proxy *)h;
    wl_proxy_marshal_flags(p, 2, NULL, wl_proxy_get_version(p), 0, x, y);
}

void edk_proxy_destroy(void *proxy) { wl_proxy_destroy((struct wl_proxy *)proxy); }

/* ---- kde_output_device_v2 (version 2) and its kde_output_device_mode_v2 objects ---- */

static void kde_mode_size(void *data, struct kde_output_device_mode_v2 *m, int32_t w, int32_t h) {
    EVENT(EDK_KDE_MODE_SIZE, m);
    ev.a = w; ev.b = h;
    emit(data, &ev);
}

static void kde_mode_refresh(void *data, struct kde_output_device_mode_v2 *m, int32_t refresh) {
    EVENT(EDK_KDE_MODE_REFRESH, m);
    ev.a = refresh;
    emit(data, &ev);
}

static void kde_mode_preferred(void *data, struct kde_output_device_mode_v2 *m) {
    EVENT(EDK_KDE_MODE_PREFERRED, m); emit(data, &ev);
}
static void kde_mode_removed(void *data, struct kde_output_device_mode_v2 *m) {
    EVENT(EDK_KDE_MODE_REMOVED, m); emit(data, &ev);
}

static const struct {
    void (*size)(void *, struct kde_output_device_mode_v2 *, int32_t, int32_t);
    void (*refresh)(void *, struct kde_output_device_mode_v2 *, int32_t);
    void (*preferred)(void *, struct kde_output_device_mode_v2 *);
    void (*removed)(void *, struct kde_output_device_mode_v2 *);
} kde_mode_listener = { kde_mode_size, kde_mode_refresh, kde_mode_preferred, kde_mode_removed };

static void kde_device_geometry(void *data, struct kde_output_device_v2 *d, int32_t x, int32_t y, int32_t w,
                                int32_t h, int32_t subpixel, const char *make, const char *model, int32_t transform) {
    (void)data; (void)d; (void)x; (void)y; (void)w; (void)h; (void)subpixel; (void)make; (void)model; (void)transform;
}

static void kde_device_current_mode(void *data, struct kde_output_device_v2 *d, struct kde_output_device_mode_v2 *m) {
    EVENT(EDK_KDE_DEVICE_CURRENT_MODE, d);
    ev.other = m;
    emit(data, &ev);
}

static void kde_device_mode(void *data, struct kde_output_device_v2 *d, struct kde_output_device_mode_v2 *m) {
    /* The mode's own events follow at once: listen before they are dispatched. */
    wl_proxy_add_listener((struct wl_proxy *)m, (void (**)(void))&kde_mode_listener, data);
    EVENT(EDK_KDE_DEVICE_MODE, d);
    ev.other = m;
    emit(data, &ev);
}

static void kde_device_done(void *data, struct kde_output_device_v2 *d) { EVENT(EDK_KDE_DEVICE_DONE, d); emit(data, &ev); }

static void kde_device_enabled(void *data, struct kde_output_device_v2 *d, int32_t enabled) {
    EVENT(EDK_KDE_DEVICE_ENABLED, d);
    ev.a = enabled;
    emit(data, &ev);
}

static void kde_device_name(void *data, struct kde_output_device_v2 *d, const char *name) {
    EVENT(EDK_KDE_DEVICE_NAME, d);
    ev.text = name;
    emit(data, &ev);
}

/* Events not needed here (scale as wl_fixed, strings, flags) are read and dropped. */
static void kde_device_int(void *data, struct kde_output_device_v2 *d, int32_t v) { (void)data; (void)d; (void)v; }
static void kde_device_text(void *data, struct kde_output_device_v2 *d, const char *t) { (void)data; (void)d; (void)t; }
static void kde_device_uint(void *data, struct kde_output_device_v2 *d, uint32_t v) { (void)data; (void)d; (void)v; }

static const struct {
    void (*geometry)(void *, struct kde_output_device_v2 *, int32_t, int32_t, int32_t, int32_t, int32_t,
                     const char *, const char *, int32_t);
    void (*current_mode)(void *, struct kde_output_device_v2 *, struct kde_output_device_mode_v2 *);
    void (*mode)(void *, struct kde_output_device_v2 *, struct kde_output_device_mode_v2 *);
    void (*done)(void *, struct kde_output_device_v2 *);
    void (*scale)(void *, struct kde_output_device_v2 *, int32_t);
    void (*edid)(void *, struct kde_output_device_v2 *, const char *);
    void (*enabled)(void *, struct kde_output_device_v2 *, int32_t);
    void (*uuid)(void *, struct kde_output_device_v2 *, const char *);
    void (*serial_number)(void *, struct kde_output_device_v2 *, const char *);
    void (*eisa_id)(void *, struct kde_output_device_v2 *, const char *);
    void (*capabilities)(void *, struct kde_output_device_v2 *, uint32_t);
    void (*overscan)(void *, struct kde_output_device_v2 *, uint32_t);
    void (*vrr_policy)(void *, struct kde_output_device_v2 *, uint32_t);
    void (*rgb_range)(void *, struct kde_output_device_v2 *, uint32_t);
    void (*name)(void *, struct kde_output_device_v2 *, const char *);
} kde_device_listener = {
    kde_device_geometry, kde_device_current_mode, kde_device_mode, kde_device_done, kde_device_int, kde_device_text,
    kde_device_enabled, kde_device_text, kde_device_text, kde_device_text, kde_device_uint, kde_device_uint,
    kde_device_uint, kde_device_uint, kde_device_name,
};

struct kde_output_device_v2 *edk_bind_kde_output_device(struct wl_registry *registry, uint32_t name,
                                                        uint32_t version, struct edk_wl_sink *sink) {
    struct wl_proxy *device = wl_registry_bind(registry, name, &edk_kde_output_device_v2_interface, version);
    if (device) wl_proxy_add_listener(device, (void (**)(void))&kde_device_listener, sink);
    return (struct kde_output_device_v2 *)device;
}

/* ---- kde_output_management_v2 and kde_output_configuration_v2 ---- */

struct kde_output_management_v2 *edk_bind_kde_output_management(struct wl_registry *registry, uint32_t name,
                                                                uint32_t version) {
    return wl_registry_bind(registry, name, &edk_kde_output_management_v2_interface, version);
}

static void kde_configuration_applied(void *d, struct kde_output_configuration_v2 *c) {
    configuration_event(d, c, EDK_CONFIG_SUCCEEDED);
}
static void kde_configuration_failed(void *d, struct kde_output_configuration_v2 *c) {
    configuration_event(d, c, EDK_CONFIG_FAILED);
}

static const struct {
    void (*applied)(void *, struct kde_output_configuration_v2 *);
    void (*failed)(void *, struct kde_output_configuration_v2 *);
} kde_configuration_listener = { kde_configuration_applied, kde_configuration_failed };

struct kde_output_configuration_v2 *edk_kde_create_configuration(struct kde_output_management_v2 *manager,
                                                                 struct edk_wl_sink *sink) {
    struct wl_proxy *m = (struct wl_proxy *)manager;
    struct wl_proxy *c = wl_proxy_marshal_flags(m, 0, &edk_kde_output_configuration_v2_interface,
                                                wl_proxy_get_version(m), 0, NULL);
    if (c) wl_proxy_add_listener(c, (void (**)(void))&kde_configuration_listener, sink);
    return (struct kde_output_configuration_v2 *)c;
}

void edk_kde_configuration_mode(struct kde_output_configuration_v2 *c, struct kde_output_device_v2 *device,
                                struct kde_output_device_mode_v2 *mode) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 1, NULL, wl_proxy_get_version(p), 0, device, mode);
}

void edk_kde_configuration_position(struct kde_output_configuration_v2 *c, struct kde_output_device_v2 *device,
                                    int32_t x, int32_t y) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 3, NULL, wl_proxy_get_version(p), 0, device, x, y);
}

void edk_kde_configuration_apply(struct kde_output_configuration_v2 *c) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 5, NULL, wl_proxy_get_version(p), 0);
}

void edk_kde_configuration_destroy(struct kde_output_configuration_v2 *c) {
    struct wl_proxy *p = (struct wl_proxy *)c;
    wl_proxy_marshal_flags(p, 6, NULL, wl_proxy_get_version(p), WL_MARSHAL_FLAG_DESTROY);
}

/* ---- xdg_activation_v1: the focus handed from one surface to another (private queue) ---- */

struct activation_search { uint32_t name; char *token; };

static void activation_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                              uint32_t version) {
    (void)registry; (void)version;
    if (strcmp(interface, edk_xdg_activation_v1_interface.name) == 0) ((struct activation_search *)data)->name = name;
}

static void activation_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener activation_registry_listener = { activation_global, activation_global_remove };

static void activation_token_done(void *data, struct wl_proxy *token, const char *text) {
    (void)token;
    ((struct activation_search *)data)->token = strdup(text);
}

static const struct { void (*done)(void *, struct wl_proxy *, const char *); } activation_token_listener = {
    activation_token_done,
};

int edk_hand_focus(struct wl_display *display, struct wl_surface *from, struct wl_surface *to) {
    struct wl_event_queue *queue = wl_display_create_queue(display);
    if (queue == NULL) return -1;
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    if (wrapper == NULL) {
        wl_event_queue_destroy(queue);
        return -1;
    }
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    struct activation_search search = { 0, NULL };
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_registry_add_listener(registry, &activation_registry_listener, &search);
    int result = -1;
    if (wl_display_roundtrip_queue(display, queue) >= 0 && search.name != 0) {
        struct wl_proxy *activation = wl_registry_bind(registry, search.name, &edk_xdg_activation_v1_interface, 1);
        struct wl_proxy *token = wl_proxy_marshal_flags(activation, 1, &edk_xdg_activation_token_v1_interface, 1, 0,
                                                        NULL);
        wl_proxy_add_listener(token, (void (**)(void))&activation_token_listener, &search);
        wl_proxy_marshal_flags(token, 2, NULL, 1, 0, from);
        wl_proxy_marshal_flags(token, 3, NULL, 1, 0);
        for (int i = 0; i < 4 && search.token == NULL; i++) {
            if (wl_display_roundtrip_queue(display, queue) < 0) break;
        }
        wl_proxy_marshal_flags(token, 4, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
        if (search.token != NULL) {
            wl_proxy_marshal_flags(activation, 2, NULL, 1, 0, search.token, to);
            free(search.token);
            result = 0;
        }
        wl_proxy_marshal_flags(activation, 0, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
        wl_display_flush(display);
    }
    wl_registry_destroy(registry);
    wl_proxy_wrapper_destroy(wrapper);
    wl_event_queue_destroy(queue);
    return result;
}
