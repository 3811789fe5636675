/*
 * Interface table for the KDE protocol the KWin tests type through, written by hand from the protocol XML of
 * Debian's plasma-wayland-protocols (fake-input.xml): for each interface, its
 * requests and events in opcode order, each with its name, the wire signature libwayland expects ("i" int,
 * "u" uint, "f" fixed, "s" string, "o" object, "n" new_id; a leading digit is the version the message appeared
 * in) and, per argument, the interface of the object it names (NULL for plain values). Test-only: KWin lets
 * only privileged clients bind it, and the product never does. (The KDE output-management tables the tests also
 * use are the product's, in CWaylandClient.)
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
