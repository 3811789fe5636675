/*
 * Interface tables for the KDE protocols the KWin tests drive, written by hand from the protocol XML of Debian's
 * plasma-wayland-protocols (fake-input.xml, kde-output-device-v2.xml, kde-output-management-v2.xml): for each
 * interface, its
 * requests and events in opcode order, each with its name, the wire signature libwayland expects ("i" int,
 * "u" uint, "f" fixed, "s" string, "o" object, "n" new_id; a leading digit is the version the message appeared
 * in) and, per argument, the interface of the object it names (NULL for plain values). Test-only: KWin lets
 * only privileged clients bind fake-input, and the product does not speak these.
 */
#include "protocols.h"

#define NONE NULL

static const struct wl_interface *one_value[] = { NONE };
static const struct wl_interface *two_values[] = { NONE, NONE };
static const struct wl_interface *three_values[] = { NONE, NONE, NONE };

/* ---- org_kde_kwin_fake_input (version 4) ---------------------------------------------------------------- */

static const struct wl_message fake_input_requests[] = {
    { "authenticate", "ss", two_values },                   /* 0: application, reason */
    { "pointer_motion", "ff", two_values },                 /* 1: delta_x, delta_y */
    { "button", "uu", two_values },                         /* 2: button, state */
    { "axis", "uf", two_values },                           /* 3: axis, value */
    { "touch_down", "2uff", three_values },                 /* 4: id, x, y */
    { "touch_motion", "2uff", three_values },               /* 5: id, x, y */
    { "touch_up", "2u", one_value },                        /* 6: id */
    { "touch_cancel", "2", NULL },                          /* 7 */
    { "touch_frame", "2", NULL },                           /* 8 */
    { "pointer_motion_absolute", "3ff", two_values },       /* 9: x, y */
    { "keyboard_key", "4uu", two_values },                  /* 10: button (evdev code), state (1 pressed) */
};

const struct wl_interface edk_test_fake_input_interface = {
    "org_kde_kwin_fake_input", 4, 11, fake_input_requests, 0, NULL,
};

/* ---- kde_output_device_v2 (version 2) and kde_output_device_mode_v2 (version 1) -------------------------- */

static const struct wl_interface *device_mode_types[] = { &edk_test_output_device_mode_interface };
static const struct wl_interface *eight_values[] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE };

static const struct wl_message device_events[] = {
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

const struct wl_interface edk_test_output_device_interface = {
    "kde_output_device_v2", 2, 0, NULL, 15, device_events,
};

static const struct wl_message device_mode_events[] = {
    { "size", "ii", two_values },                           /* 0: width, height */
    { "refresh", "i", one_value },                          /* 1: mHz */
    { "preferred", "", NULL },                              /* 2 */
    { "removed", "", NULL },                                /* 3 */
};

const struct wl_interface edk_test_output_device_mode_interface = {
    "kde_output_device_mode_v2", 1, 0, NULL, 4, device_mode_events,
};

/* ---- kde_output_management_v2 and kde_output_configuration_v2 (version 3) -------------------------------- */

static const struct wl_interface *create_configuration_types[] = { &edk_test_output_configuration_interface };

static const struct wl_message management_requests[] = {
    { "create_configuration", "n", create_configuration_types }, /* 0 */
};

const struct wl_interface edk_test_output_management_interface = {
    "kde_output_management_v2", 3, 1, management_requests, 0, NULL,
};

static const struct wl_interface *device_value_types[] = { &edk_test_output_device_interface, NONE };
static const struct wl_interface *device_mode_pair_types[] = { &edk_test_output_device_interface,
                                                               &edk_test_output_device_mode_interface };
static const struct wl_interface *device_two_values_types[] = { &edk_test_output_device_interface, NONE, NONE };
static const struct wl_interface *device_types[] = { &edk_test_output_device_interface };

static const struct wl_message configuration_requests[] = {
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

static const struct wl_message configuration_events[] = {
    { "applied", "", NULL },                                /* 0 */
    { "failed", "", NULL },                                 /* 1 */
};

const struct wl_interface edk_test_output_configuration_interface = {
    "kde_output_configuration_v2", 3, 12, configuration_requests, 2, configuration_events,
};
