/* The hand-written interface tables of the KDE protocols the KWin tests drive (protocols.c). */
#ifndef EDK_KWIN_TEST_PROTOCOLS_H
#define EDK_KWIN_TEST_PROTOCOLS_H

#include <wayland-client.h>

extern const struct wl_interface edk_test_fake_input_interface;
extern const struct wl_interface edk_test_output_device_interface;
extern const struct wl_interface edk_test_output_device_mode_interface;
extern const struct wl_interface edk_test_output_management_interface;
extern const struct wl_interface edk_test_output_configuration_interface;

#endif
