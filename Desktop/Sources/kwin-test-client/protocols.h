/* The hand-written interface table of the KDE protocol the KWin tests type through (protocols.c), and the
 * product's KDE output-management tables (CWaylandClient). */
#ifndef EDK_KWIN_TEST_PROTOCOLS_H
#define EDK_KWIN_TEST_PROTOCOLS_H

#include <wayland-client.h>
#include "edk_wayland.h"

extern const struct wl_interface edk_test_fake_input_interface;

#endif
