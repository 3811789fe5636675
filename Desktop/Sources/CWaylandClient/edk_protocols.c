/*
 * Interface tables for xdg-output-unstable-v1 (version 3), wlr-output-management-unstable-v1 (version 4) and
 * KDE's kde-output-order-v1 (version 1), kde-output-device-v2 (2) and kde-output-management-v2 (3), written by hand from the protocol specifications: for each interface, its requests and its events in
 * opcode order, each with the name, the wire signature libwayland expects ("i" int, "u" uint, "f" fixed,
 * "s" string, "o" object, "n" new_id; a leading digit is the version the message appeared in), and for each
 * argument the interface of the object it names (NULL for plain values).
 */
#include "edk_wayland.h"

#define NONE NULL

/* ---- xdg-output-unstable-v1 ---------------------------------------------------------------------------- */

/* get_xdg_output(id: new_id zxdg_output_v1, output: object wl_output) */
static const struct wl_interface *xdg_get_output_types[] = { &edk_zxdg_output_v1_interface, &wl_output_interface };
static const struct wl_interface *two_values[] = { NONE, NONE };
static const struct wl_interface *one_value[] = { NONE };

static const struct wl_message xdg_manager_requests[] = {
    { "destroy", "", NULL },                               /* 0: destructor */
    { "get_xdg_output", "no", xdg_get_output_types },      /* 1 */
};

const struct wl_interface edk_zxdg_output_manager_v1_interface = {
    "zxdg_output_manager_v1", 3, 2, xdg_manager_requests, 0, NULL,
};

static const struct wl_message xdg_output_requests[] = {
    { "destroy", "", NULL },                               /* 0: destructor */
};

static const struct wl_message xdg_output_events[] = {
    { "logical_position", "ii", two_values },              /* 0: x, y */
    { "logical_size", "ii", two_values },                  /* 1: width, height */
    { "done", "", NULL },                                  /* 2: deprecated since 3 (wl_output.done instead) */
    { "name", "2s", one_value },                           /* 3: since 2 */
    { "description", "2s", one_value },                    /* 4: since 2 */
};

const struct wl_interface edk_zxdg_output_v1_interface = {
    "zxdg_output_v1", 3, 1, xdg_output_requests, 5, xdg_output_events,
};

/* ---- wlr-output-management-unstable-v1 ----------------------------------------------------------------- */

/* zwlr_output_manager_v1.create_configuration(id: new_id configuration, serial: uint) */
static const struct wl_interface *create_configuration_types[] = { &edk_zwlr_output_configuration_v1_interface, NONE };
/* zwlr_output_manager_v1.head(head: new_id zwlr_output_head_v1) */
static const struct wl_interface *head_event_types[] = { &edk_zwlr_output_head_v1_interface };

static const struct wl_message manager_requests[] = {
    { "create_configuration", "nu", create_configuration_types },   /* 0 */
    { "stop", "", NULL },                                           /* 1 */
};

static const struct wl_message manager_events[] = {
    { "head", "n", head_event_types },                     /* 0 */
    { "done", "u", one_value },                            /* 1: serial */
    { "finished", "", NULL },                              /* 2 */
};

const struct wl_interface edk_zwlr_output_manager_v1_interface = {
    "zwlr_output_manager_v1", 4, 2, manager_requests, 3, manager_events,
};

/* zwlr_output_head_v1.mode(mode: new_id zwlr_output_mode_v1), current_mode(mode: object zwlr_output_mode_v1) */
static const struct wl_interface *head_mode_types[] = { &edk_zwlr_output_mode_v1_interface };

static const struct wl_message head_requests[] = {
    { "release", "3", NULL },                              /* 0: destructor, since 3 */
};

static const struct wl_message head_events[] = {
    { "name", "s", one_value },                            /* 0 */
    { "description", "s", one_value },                     /* 1 */
    { "physical_size", "ii", two_values },                 /* 2: width, height in mm */
    { "mode", "n", head_mode_types },                      /* 3 */
    { "enabled", "i", one_value },                         /* 4 */
    { "current_mode", "o", head_mode_types },              /* 5 */
    { "position", "ii", two_values },                      /* 6 */
    { "transform", "i", one_value },                       /* 7 */
    { "scale", "f", one_value },                           /* 8 */
    { "finished", "", NULL },                              /* 9 */
    { "make", "2s", one_value },                           /* 10: since 2 */
    { "model", "2s", one_value },                          /* 11: since 2 */
    { "serial_number", "2s", one_value },                  /* 12: since 2 */
    { "adaptive_sync", "4u", one_value },                  /* 13: since 4 */
};

const struct wl_interface edk_zwlr_output_head_v1_interface = {
    "zwlr_output_head_v1", 4, 1, head_requests, 14, head_events,
};

static const struct wl_message mode_requests[] = {
    { "release", "3", NULL },                              /* 0: destructor, since 3 */
};

static const struct wl_message mode_events[] = {
    { "size", "ii", two_values },                          /* 0: width, height */
    { "refresh", "i", one_value },                         /* 1: mHz */
    { "preferred", "", NULL },                             /* 2 */
    { "finished", "", NULL },                              /* 3 */
};

const struct wl_interface edk_zwlr_output_mode_v1_interface = {
    "zwlr_output_mode_v1", 4, 1, mode_requests, 4, mode_events,
};

/* enable_head(id: new_id configuration_head, head: object head); disable_head(head: object head) */
static const struct wl_interface *enable_head_types[] = { &edk_zwlr_output_configuration_head_v1_interface,
                                                          &edk_zwlr_output_head_v1_interface };
static const struct wl_interface *disable_head_types[] = { &edk_zwlr_output_head_v1_interface };

static const struct wl_message configuration_requests[] = {
    { "enable_head", "no", enable_head_types },            /* 0 */
    { "disable_head", "o", disable_head_types },           /* 1 */
    { "apply", "", NULL },                                 /* 2 */
    { "test", "", NULL },                                  /* 3 */
    { "destroy", "", NULL },                               /* 4: destructor */
};

static const struct wl_message configuration_events[] = {
    { "succeeded", "", NULL },                             /* 0 */
    { "failed", "", NULL },                                /* 1 */
    { "cancelled", "", NULL },                             /* 2 */
};

const struct wl_interface edk_zwlr_output_configuration_v1_interface = {
    "zwlr_output_configuration_v1", 4, 5, configuration_requests, 3, configuration_events,
};

static const struct wl_interface *three_values[] = { NONE, NONE, NONE };

static const struct wl_message configuration_head_requests[] = {
    { "set_mode", "o", head_mode_types },                  /* 0 */
    { "set_custom_mode", "iii", three_values },            /* 1: width, height, refresh (mHz, 0 = any) */
    { "set_position", "ii", two_values },                  /* 2 */
    { "set_transform", "i", one_value },                   /* 3 */
    { "set_scale", "f", one_value },                       /* 4 */
    { "set_adaptive_sync", "4u", one_value },              /* 5: since 4 */
};

const struct wl_interface edk_zwlr_output_configuration_head_v1_interface = {
    "zwlr_output_configuration_head_v1", 4, 6, configuration_head_requests, 0, NULL,
};

/* ---- kde-output-order-v1 (KWin 5.27): the outputs by priority, the first one primary --------------------- */

static const struct wl_message order_requests[] = {
    { "destroy", "", NULL },                               /* 0: destructor */
};

static const struct wl_message order_events[] = {
    { "output", "s", one_value },                          /* 0: output_name, in priority order */
    { "done", "", NULL },                                  /* 1: the list is complete */
};

const struct wl_interface edk_kde_output_order_v1_interface = {
    "kde_output_order_v1", 1, 1, order_requests, 2, order_events,
};

/* ---- kde-output-device-v2 (KWin 5.27: devices version 2, modes version 1): every output's modes ----------- */

static const struct wl_interface *device_mode_types[] = { &edk_kde_output_device_mode_v2_interface };
static const struct wl_interface *eight_values[] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE };

static const struct wl_message kde_device_events[] = {
    { "geometry", "iiiiissi", eight_values },               /* 0: x, y, physical w, h, subpixel, make, model, transform */
    { "current_mode", "o", device_mode_types },             /* 1 */
    { "mode", "n", device_mode_types },                     /* 2 */
    { "done", "", NULL },                                   /* 3 */
    { "scale", "f", one_value },                            /* 4 */
    { "edid", "s", one_value },                             /* 5 */
    { "enabled", "i", one_value },                          /* 6 */
    { "uuid", "s", one_value },                             /* 7 */
    { "serial_number", "s", one_value },                    /* 8 */
    { "eisa_id", "s", one_value },                          /* 9 */
    { "capabilities", "u", one_value },                     /* 10 */
    { "overscan", "u", one_value },                         /* 11 */
    { "vrr_policy", "u", one_value },                       /* 12 */
    { "rgb_range", "u", one_value },                        /* 13 */
    { "name", "2s", one_value },                            /* 14: since 2 */
};

const struct wl_interface edk_kde_output_device_v2_interface = {
    "kde_output_device_v2", 2, 0, NULL, 15, kde_device_events,
};

static const struct wl_message kde_mode_events[] = {
    { "size", "ii", two_values },                           /* 0: width, height */
    { "refresh", "i", one_value },                          /* 1: mHz */
    { "preferred", "", NULL },                              /* 2 */
    { "removed", "", NULL },                                /* 3 */
};

const struct wl_interface edk_kde_output_device_mode_v2_interface = {
    "kde_output_device_mode_v2", 1, 0, NULL, 4, kde_mode_events,
};

/* ---- kde_output_management_v2 and kde_output_configuration_v2 (version 3) -------------------------------- */

static const struct wl_interface *kde_create_configuration_types[] = { &edk_kde_output_configuration_v2_interface };

static const struct wl_message kde_management_requests[] = {
    { "create_configuration", "n", kde_create_configuration_types }, /* 0 */
};

const struct wl_interface edk_kde_output_management_v2_interface = {
    "kde_output_management_v2", 3, 1, kde_management_requests, 0, NULL,
};

static const struct wl_interface *device_value_types[] = { &edk_kde_output_device_v2_interface, NONE };
static const struct wl_interface *device_mode_pair_types[] = { &edk_kde_output_device_v2_interface,
                                                               &edk_kde_output_device_mode_v2_interface };
static const struct wl_interface *device_two_values_types[] = { &edk_kde_output_device_v2_interface, NONE, NONE };
static const struct wl_interface *device_types[] = { &edk_kde_output_device_v2_interface };

static const struct wl_message kde_configuration_requests[] = {
    { "enable", "oi", device_value_types },                 /* 0 */
    { "mode", "oo", device_mode_pair_types },               /* 1 */
    { "transform", "oi", device_value_types },              /* 2 */
    { "position", "oii", device_two_values_types },         /* 3 */
    { "scale", "of", device_value_types },                  /* 4 */
    { "apply", "", NULL },                                  /* 5 */
    { "destroy", "", NULL },                                /* 6: destructor */
    { "overscan", "ou", device_value_types },               /* 7 */
    { "set_vrr_policy", "ou", device_value_types },         /* 8 */
    { "set_rgb_range", "ou", device_value_types },          /* 9 */
    { "set_primary_output", "2o", device_types },           /* 10: since 2 */
    { "set_priority", "3ou", device_value_types },          /* 11: since 3 */
};

static const struct wl_message kde_configuration_events[] = {
    { "applied", "", NULL },                                /* 0 */
    { "failed", "", NULL },                                 /* 1 */
};

const struct wl_interface edk_kde_output_configuration_v2_interface = {
    "kde_output_configuration_v2", 3, 12, kde_configuration_requests, 2, kde_configuration_events,
};

/* ---- xdg-activation-v1 (staging): handing the focus from one surface of this client to another ------------- */

static const struct wl_interface *activation_token_types[] = { &edk_xdg_activation_token_v1_interface };
static const struct wl_interface *activate_types[] = { NONE, &wl_surface_interface };

static const struct wl_message activation_requests[] = {
    { "destroy", "", NULL },                               /* 0: destructor */
    { "get_activation_token", "n", activation_token_types }, /* 1 */
    { "activate", "so", activate_types },                  /* 2: token, surface */
};

const struct wl_interface edk_xdg_activation_v1_interface = {
    "xdg_activation_v1", 1, 3, activation_requests, 0, NULL,
};

static const struct wl_interface *serial_seat_types[] = { NONE, &wl_seat_interface };
static const struct wl_interface *surface_types[] = { &wl_surface_interface };

static const struct wl_message activation_token_requests[] = {
    { "set_serial", "uo", serial_seat_types },             /* 0 */
    { "set_app_id", "s", one_value },                      /* 1 */
    { "set_surface", "o", surface_types },                 /* 2 */
    { "commit", "", NULL },                                /* 3 */
    { "destroy", "", NULL },                               /* 4: destructor */
};

static const struct wl_message activation_token_events[] = {
    { "done", "s", one_value },                            /* 0: token */
};

const struct wl_interface edk_xdg_activation_token_v1_interface = {
    "xdg_activation_token_v1", 1, 5, activation_token_requests, 1, activation_token_events,
};
