/*
 * CWaylandClient: what ExternalDisplayWayland needs from libwayland-client that Swift cannot do by itself.
 *
 *  - Interface tables for protocols libwayland does not ship: xdg-output-unstable-v1,
 *    wlr-output-management-unstable-v1 and KDE's kde-output-order-v1, kde-output-device-v2 and
 *    kde-output-management-v2 (written by hand from the protocol specifications, in edk_protocols.c).
 *  - Request wrappers: libwayland marshals requests through a variadic function Swift cannot call.
 *  - Listener shims: every event of wl_registry, wl_output, zxdg_output_v1 and the wlr output-management objects
 *    becomes one `struct edk_wl_event` passed to a single handler, so Swift holds one C callback, not thirty.
 *    Objects a server creates (heads, modes) get their listeners here, before their first event is dispatched.
 */
#ifndef EDK_WAYLAND_H
#define EDK_WAYLAND_H

#include <stdint.h>
#include <wayland-client.h>

/* Protocol objects this library speaks, as opaque proxies. */
struct zxdg_output_manager_v1;
struct zxdg_output_v1;
struct zwlr_output_manager_v1;
struct zwlr_output_head_v1;
struct zwlr_output_mode_v1;
struct zwlr_output_configuration_v1;
struct zwlr_output_configuration_head_v1;
struct kde_output_order_v1;
struct kde_output_device_v2;
struct kde_output_device_mode_v2;
struct kde_output_management_v2;
struct kde_output_configuration_v2;

/* What happened; the fields of struct edk_wl_event that carry it are named after each value. */
enum edk_wl_event_kind {
    EDK_REGISTRY_GLOBAL = 1,        /* name, text = interface, a = version */
    EDK_REGISTRY_GLOBAL_REMOVE,     /* name */
    EDK_OUTPUT_GEOMETRY,            /* a, b = x, y; c, d = physical width, height (mm); e = transform;
                                       text = make, text2 = model */
    EDK_OUTPUT_MODE,                /* a = flags (1 current, 2 preferred), b, c = width, height; d = mHz */
    EDK_OUTPUT_DONE,
    EDK_OUTPUT_SCALE,               /* a = integer scale */
    EDK_OUTPUT_NAME,                /* text */
    EDK_OUTPUT_DESCRIPTION,         /* text */
    EDK_XDG_LOGICAL_POSITION,       /* a, b */
    EDK_XDG_LOGICAL_SIZE,           /* a, b */
    EDK_XDG_DONE,
    EDK_XDG_NAME,                   /* text */
    EDK_XDG_DESCRIPTION,            /* text */
    EDK_WLR_HEAD,                   /* other = the new head */
    EDK_WLR_DONE,                   /* a = serial */
    EDK_WLR_FINISHED,
    EDK_HEAD_NAME,                  /* text */
    EDK_HEAD_DESCRIPTION,           /* text */
    EDK_HEAD_PHYSICAL_SIZE,         /* a, b (mm) */
    EDK_HEAD_MODE,                  /* other = the new mode */
    EDK_HEAD_ENABLED,               /* a = 0 or 1 */
    EDK_HEAD_CURRENT_MODE,          /* other = the mode */
    EDK_HEAD_POSITION,              /* a, b */
    EDK_HEAD_TRANSFORM,             /* a */
    EDK_HEAD_SCALE,                 /* scale */
    EDK_HEAD_FINISHED,
    EDK_HEAD_MAKE,                  /* text */
    EDK_HEAD_MODEL,                 /* text */
    EDK_HEAD_SERIAL,                /* text */
    EDK_MODE_SIZE,                  /* a, b */
    EDK_MODE_REFRESH,               /* a = mHz */
    EDK_MODE_PREFERRED,
    EDK_MODE_FINISHED,
    EDK_CONFIG_SUCCEEDED,
    EDK_CONFIG_FAILED,
    EDK_CONFIG_CANCELLED,
    EDK_ORDER_OUTPUT,               /* text = an output name, in the compositor's order (first = primary) */
    EDK_ORDER_DONE,                 /* the order just announced is complete */
    EDK_KDE_DEVICE_NAME,            /* text (kde_output_device_v2, version 2) */
    EDK_KDE_DEVICE_MODE,            /* other = the new kde_output_device_mode_v2 */
    EDK_KDE_DEVICE_CURRENT_MODE,    /* other = the mode */
    EDK_KDE_DEVICE_ENABLED,         /* a = 0 or 1 */
    EDK_KDE_DEVICE_DONE,
    EDK_KDE_MODE_SIZE,              /* a, b */
    EDK_KDE_MODE_REFRESH,           /* a = mHz */
    EDK_KDE_MODE_PREFERRED,
    EDK_KDE_MODE_REMOVED,
    /* kde_output_configuration_v2 answers with EDK_CONFIG_SUCCEEDED (applied) or EDK_CONFIG_FAILED (failed). */
};

/* One event. `object` is the proxy it came from; strings live only for the duration of the handler call. */
struct edk_wl_event {
    enum edk_wl_event_kind kind;
    void *object;
    void *other;
    uint32_t name;
    int32_t a, b, c, d, e;
    double scale;
    const char *text;
    const char *text2;
};

/* Where events go: `handler(context, event)`. One sink serves every object of a connection. */
struct edk_wl_sink {
    void (*handler)(void *context, const struct edk_wl_event *event);
    void *context;
};

/* Interfaces, for binding globals. */
extern const struct wl_interface edk_zxdg_output_manager_v1_interface;
extern const struct wl_interface edk_zxdg_output_v1_interface;
extern const struct wl_interface edk_zwlr_output_manager_v1_interface;
extern const struct wl_interface edk_zwlr_output_head_v1_interface;
extern const struct wl_interface edk_zwlr_output_mode_v1_interface;
extern const struct wl_interface edk_zwlr_output_configuration_v1_interface;
extern const struct wl_interface edk_zwlr_output_configuration_head_v1_interface;
extern const struct wl_interface edk_kde_output_order_v1_interface;
extern const struct wl_interface edk_kde_output_device_v2_interface;
extern const struct wl_interface edk_kde_output_device_mode_v2_interface;
extern const struct wl_interface edk_kde_output_management_v2_interface;
extern const struct wl_interface edk_kde_output_configuration_v2_interface;
extern const struct wl_interface edk_xdg_activation_v1_interface;
extern const struct wl_interface edk_xdg_activation_token_v1_interface;

/* The registry of `display`, its events going to `sink`. */
struct wl_registry *edk_registry(struct wl_display *display, struct edk_wl_sink *sink);

/* Binds global `name` as wl_output (version `version`) and listens to it. */
struct wl_output *edk_bind_output(struct wl_registry *registry, uint32_t name, uint32_t version,
                                  struct edk_wl_sink *sink);
/* Binds global `name` as zxdg_output_manager_v1. */
struct zxdg_output_manager_v1 *edk_bind_xdg_output_manager(struct wl_registry *registry, uint32_t name,
                                                           uint32_t version);
/* Binds global `name` as zwlr_output_manager_v1 and listens to it (and to every head and mode it announces). */
struct zwlr_output_manager_v1 *edk_bind_output_manager(struct wl_registry *registry, uint32_t name,
                                                       uint32_t version, struct edk_wl_sink *sink);

/* Binds global `name` as kde_output_order_v1 (KWin: output names by priority) and listens to it. */
struct kde_output_order_v1 *edk_bind_output_order(struct wl_registry *registry, uint32_t name, uint32_t version,
                                                  struct edk_wl_sink *sink);

/* Binds global `name` as kde_output_device_v2 (KWin: one output's modes) and listens to it and its modes. */
struct kde_output_device_v2 *edk_bind_kde_output_device(struct wl_registry *registry, uint32_t name,
                                                        uint32_t version, struct edk_wl_sink *sink);
/* Binds global `name` as kde_output_management_v2 (it sends no events). */
struct kde_output_management_v2 *edk_bind_kde_output_management(struct wl_registry *registry, uint32_t name,
                                                                uint32_t version);
/* kde_output_management_v2.create_configuration, listened to; .mode(device, mode), .position(device, x, y),
 * .apply, .destroy. */
struct kde_output_configuration_v2 *edk_kde_create_configuration(struct kde_output_management_v2 *manager,
                                                                 struct edk_wl_sink *sink);
void edk_kde_configuration_mode(struct kde_output_configuration_v2 *c, struct kde_output_device_v2 *device,
                                struct kde_output_device_mode_v2 *mode);
void edk_kde_configuration_position(struct kde_output_configuration_v2 *c, struct kde_output_device_v2 *device,
                                    int32_t x, int32_t y);
void edk_kde_configuration_apply(struct kde_output_configuration_v2 *c);
void edk_kde_configuration_destroy(struct kde_output_configuration_v2 *c);

/* zxdg_output_manager_v1.get_xdg_output, listened to. */
struct zxdg_output_v1 *edk_get_xdg_output(struct zxdg_output_manager_v1 *manager, struct wl_output *output,
                                          struct edk_wl_sink *sink);

/* zwlr_output_manager_v1.create_configuration(serial), listened to. */
struct zwlr_output_configuration_v1 *edk_create_configuration(struct zwlr_output_manager_v1 *manager,
                                                              uint32_t serial, struct edk_wl_sink *sink);
/* zwlr_output_configuration_v1.enable_head / disable_head / apply / destroy. */
struct zwlr_output_configuration_head_v1 *edk_configuration_enable_head(struct zwlr_output_configuration_v1 *c,
                                                                        struct zwlr_output_head_v1 *head);
void edk_configuration_disable_head(struct zwlr_output_configuration_v1 *c, struct zwlr_output_head_v1 *head);
void edk_configuration_apply(struct zwlr_output_configuration_v1 *c);
void edk_configuration_destroy(struct zwlr_output_configuration_v1 *c);
/* zwlr_output_configuration_head_v1.set_mode / set_custom_mode / set_position (the object ends with its
 * configuration). */
void edk_configuration_head_set_mode(struct zwlr_output_configuration_head_v1 *h, struct zwlr_output_mode_v1 *m);
void edk_configuration_head_set_custom_mode(struct zwlr_output_configuration_head_v1 *h, int32_t width,
                                            int32_t height, int32_t refresh_mhz);
void edk_configuration_head_set_position(struct zwlr_output_configuration_head_v1 *h, int32_t x, int32_t y);

/* Hands the focus from `from` to `to`, two surfaces of this client on `display` (a connection another library
 * dispatches: everything here runs on a private event queue), through xdg-activation-v1: a token asked for with
 * `from` (the surface that has the focus, which is what a compositor such as KWin trusts), then `activate(token,
 * to)`. Returns 0 once the request is sent, -1 when the compositor offers no xdg_activation_v1 or sends no
 * token. */
int edk_hand_focus(struct wl_display *display, struct wl_surface *from, struct wl_surface *to);

/* Destroyers: the client side of objects that ended (protocol destructors where the version has one). */
void edk_output_release(struct wl_output *output);
void edk_xdg_output_destroy(struct zxdg_output_v1 *output);
void edk_xdg_output_manager_destroy(struct zxdg_output_manager_v1 *manager);
void edk_output_manager_stop_and_destroy(struct zwlr_output_manager_v1 *manager);
void edk_proxy_destroy(void *proxy);

#endif
