/*
 * kwin-test-client: keys typed into a headless KWin the way only a privileged Wayland client may, written for the
 * tests only (never part of the product). KWin offers org_kde_kwin_fake_input only to clients it trusts; the test
 * compositor is started with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 and this runs as KWin's own user (KWin hides
 * the global from a client whose executable it cannot read, such as a root process).
 *
 *   kwin-test-client keys KEY[+KEY…]…
 *       authenticates, then types each chord through org_kde_kwin_fake_input.keyboard_key (evdev codes: `29+16`
 *       is Ctrl+Q): every key of the chord pressed in order, then released in reverse order. Exit 0 once KWin has
 *       read them all; KWin delivers them to the focused window like a real keyboard.
 *   kwin-test-client pointer X Y
 *       moves the pointer to (X, Y) in the compositor's global (logical) space: pointer_motion_absolute.
 *   kwin-test-client output NAME enable|disable
 *       switches output NAME on or off through kde_output_management_v2 (as Plasma's display settings do: an
 *       output switched off loses its wl_output, one switched on gets it back), found by its kde_output_device_v2
 *       name. Exit 0 once KWin says `applied`.
 *
 * Failures print one line on stderr saying what is missing, exit 1; usage errors exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "protocols.h"

#define MAX_DEVICES 16

struct globals {
    uint32_t fake_input, fake_input_version;
    uint32_t management;
    uint32_t devices[MAX_DEVICES];
    int device_count;
};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    struct globals *g = data;
    if (strcmp(interface, edk_test_fake_input_interface.name) == 0) {
        g->fake_input = name;
        g->fake_input_version = version;
    } else if (strcmp(interface, edk_test_output_management_interface.name) == 0 && version >= 1) {
        g->management = name;
    } else if (strcmp(interface, edk_test_output_device_interface.name) == 0 && version >= 2
               && g->device_count < MAX_DEVICES) {
        g->devices[g->device_count++] = name;
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = { global, global_remove };

static int fail(const char *what) {
    fprintf(stderr, "kwin-test-client: %s\n", what);
    return 1;
}

static const char *not_offered =
    "not offered by this compositor (KWin offers it to privileged clients only: start it with "
    "KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 and run this as KWin's own user)";

/* Parses `29+16` into codes; returns how many, 0 when malformed. */
static int chord(const char *text, uint32_t *codes, int capacity) {
    int count = 0;
    const char *p = text;
    while (*p && count < capacity) {
        char *end = NULL;
        errno = 0;
        unsigned long code = strtoul(p, &end, 10);
        if (end == p || errno != 0 || code > 767) return 0;
        codes[count++] = (uint32_t)code;
        if (*end == '+') p = end + 1;
        else if (*end == 0) return count;
        else return 0;
    }
    return 0;
}

/* org_kde_kwin_fake_input, bound and authenticated; NULL (said why) when KWin does not offer it. */
static struct wl_proxy *fake_input(struct wl_registry *registry, struct globals *g) {
    if (g->fake_input == 0) {
        fprintf(stderr, "kwin-test-client: org_kde_kwin_fake_input %s\n", not_offered);
        return NULL;
    }
    if (g->fake_input_version < 4) {
        fail("org_kde_kwin_fake_input is older than version 4 (no keyboard_key)");
        return NULL;
    }
    struct wl_proxy *input = wl_registry_bind(registry, g->fake_input, &edk_test_fake_input_interface, 4);
    wl_proxy_marshal_flags(input, 0, NULL, 4, 0, "extdisplay tests", "typing into the presenter under test");
    return input;
}

static int pointer(struct wl_display *display, struct wl_registry *registry, struct globals *g, const char *x,
                   const char *y) {
    struct wl_proxy *input = fake_input(registry, g);
    if (input == NULL) return 1;
    wl_proxy_marshal_flags(input, 9, NULL, 4, 0, wl_fixed_from_int(atoi(x)), wl_fixed_from_int(atoi(y)));
    if (wl_display_roundtrip(display) < 0) return fail("the connection to KWin broke");
    wl_proxy_destroy(input);
    return 0;
}

static int keys(struct wl_display *display, struct wl_registry *registry, struct globals *g, int argc, char **argv) {
    struct wl_proxy *input = fake_input(registry, g);
    if (input == NULL) return 1;
    for (int i = 0; i < argc; i++) {
        uint32_t codes[4];
        int count = chord(argv[i], codes, 4);
        if (count == 0) {
            fprintf(stderr, "kwin-test-client: not a key: %s (evdev codes joined by +, e.g. 29+16)\n", argv[i]);
            return 2;
        }
        for (int k = 0; k < count; k++) wl_proxy_marshal_flags(input, 10, NULL, 4, 0, codes[k], 1u);
        if (wl_display_roundtrip(display) < 0) return fail("the connection to KWin broke");
        usleep(20000);
        for (int k = count - 1; k >= 0; k--) wl_proxy_marshal_flags(input, 10, NULL, 4, 0, codes[k], 0u);
        if (wl_display_roundtrip(display) < 0) return fail("the connection to KWin broke");
        usleep(20000);
    }
    wl_proxy_destroy(input);
    return 0;
}

/* kde_output_device_v2 and its modes: only the device's name matters here; every other event is read and ignored. */
struct device {
    struct wl_proxy *proxy;
    char name[64];
};

static void mode_size(void *d, struct wl_proxy *p, int32_t w, int32_t h) { (void)d, (void)p, (void)w, (void)h; }
static void mode_refresh(void *d, struct wl_proxy *p, int32_t mhz) { (void)d, (void)p, (void)mhz; }
static void mode_flag(void *d, struct wl_proxy *p) { (void)d, (void)p; }

static const struct {
    void (*size)(void *, struct wl_proxy *, int32_t, int32_t);
    void (*refresh)(void *, struct wl_proxy *, int32_t);
    void (*preferred)(void *, struct wl_proxy *);
    void (*removed)(void *, struct wl_proxy *);
} mode_listener = { mode_size, mode_refresh, mode_flag, mode_flag };

static void device_geometry(void *d, struct wl_proxy *p, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t sub,
                            const char *make, const char *model, int32_t transform) {
    (void)d, (void)p, (void)x, (void)y, (void)pw, (void)ph, (void)sub, (void)make, (void)model, (void)transform;
}
static void device_object(void *d, struct wl_proxy *p, struct wl_proxy *o) { (void)d, (void)p, (void)o; }
static void device_mode(void *d, struct wl_proxy *p, struct wl_proxy *mode) {
    (void)d, (void)p;
    wl_proxy_add_listener(mode, (void (**)(void))&mode_listener, NULL);
}
static void device_none(void *d, struct wl_proxy *p) { (void)d, (void)p; }
static void device_int(void *d, struct wl_proxy *p, int32_t v) { (void)d, (void)p, (void)v; }
static void device_uint(void *d, struct wl_proxy *p, uint32_t v) { (void)d, (void)p, (void)v; }
static void device_text(void *d, struct wl_proxy *p, const char *t) { (void)d, (void)p, (void)t; }
static void device_name(void *d, struct wl_proxy *p, const char *name) {
    (void)p;
    struct device *device = d;
    snprintf(device->name, sizeof device->name, "%s", name);
}

static const struct {
    void (*geometry)(void *, struct wl_proxy *, int32_t, int32_t, int32_t, int32_t, int32_t, const char *,
                     const char *, int32_t);
    void (*current_mode)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*mode)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*done)(void *, struct wl_proxy *);
    void (*scale)(void *, struct wl_proxy *, int32_t);
    void (*edid)(void *, struct wl_proxy *, const char *);
    void (*enabled)(void *, struct wl_proxy *, int32_t);
    void (*uuid)(void *, struct wl_proxy *, const char *);
    void (*serial_number)(void *, struct wl_proxy *, const char *);
    void (*eisa_id)(void *, struct wl_proxy *, const char *);
    void (*capabilities)(void *, struct wl_proxy *, uint32_t);
    void (*overscan)(void *, struct wl_proxy *, uint32_t);
    void (*vrr_policy)(void *, struct wl_proxy *, uint32_t);
    void (*rgb_range)(void *, struct wl_proxy *, uint32_t);
    void (*name)(void *, struct wl_proxy *, const char *);
} device_listener = { device_geometry, device_object, device_mode, device_none, device_int, device_text, device_int,
                      device_text, device_text, device_text, device_uint, device_uint, device_uint, device_uint,
                      device_name };

static void configuration_result(void *d, struct wl_proxy *p) { (void)p, *(int *)d = 1; }
static void configuration_failure(void *d, struct wl_proxy *p) { (void)p, *(int *)d = 2; }

static const struct {
    void (*applied)(void *, struct wl_proxy *);
    void (*failed)(void *, struct wl_proxy *);
} configuration_listener = { configuration_result, configuration_failure };

static int output(struct wl_display *display, struct wl_registry *registry, struct globals *g, const char *name,
                  int enable) {
    if (g->management == 0 || g->device_count == 0) {
        return fail("kde_output_management_v2 or kde_output_device_v2 is not offered (is this KWin?)");
    }
    struct device devices[MAX_DEVICES];
    for (int i = 0; i < g->device_count; i++) {
        devices[i].name[0] = 0;
        devices[i].proxy = wl_registry_bind(registry, g->devices[i], &edk_test_output_device_interface, 2);
        wl_proxy_add_listener(devices[i].proxy, (void (**)(void))&device_listener, &devices[i]);
    }
    if (wl_display_roundtrip(display) < 0) return fail("the connection to KWin broke");
    struct wl_proxy *target = NULL;
    for (int i = 0; i < g->device_count; i++) {
        if (strcmp(devices[i].name, name) == 0) target = devices[i].proxy;
    }
    if (target == NULL) {
        fprintf(stderr, "kwin-test-client: KWin has no output device named %s\n", name);
        return 1;
    }
    struct wl_proxy *management = wl_registry_bind(registry, g->management, &edk_test_output_management_interface, 1);
    struct wl_proxy *configuration = wl_proxy_marshal_flags(management, 0, &edk_test_output_configuration_interface,
                                                            1, 0, NULL);
    int result = 0;
    wl_proxy_add_listener(configuration, (void (**)(void))&configuration_listener, &result);
    wl_proxy_marshal_flags(configuration, 0, NULL, 1, 0, target, enable);
    wl_proxy_marshal_flags(configuration, 5, NULL, 1, 0);
    while (result == 0) {
        if (wl_display_dispatch(display) < 0) return fail("the connection to KWin broke");
    }
    wl_proxy_marshal_flags(configuration, 6, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    if (result != 1) {
        fprintf(stderr, "kwin-test-client: KWin refused to %s %s\n", enable ? "enable" : "disable", name);
        return 1;
    }
    return 0;
}

static int usage(void) {
    fprintf(stderr, "usage: kwin-test-client keys KEY[+KEY…]… | pointer X Y | output NAME enable|disable\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) return usage();
    int is_keys = strcmp(argv[1], "keys") == 0;
    int is_output = strcmp(argv[1], "output") == 0 && argc == 4
                    && (strcmp(argv[3], "enable") == 0 || strcmp(argv[3], "disable") == 0);
    int is_pointer = strcmp(argv[1], "pointer") == 0 && argc == 4;
    if (!is_keys && !is_output && !is_pointer) return usage();
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) return fail("cannot connect to the compositor (WAYLAND_DISPLAY, XDG_RUNTIME_DIR)");
    struct globals g;
    memset(&g, 0, sizeof g);
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, &g);
    if (wl_display_roundtrip(display) < 0) return fail("the connection to the compositor broke");
    int status = is_keys      ? keys(display, registry, &g, argc - 2, argv + 2)
                 : is_pointer ? pointer(display, registry, &g, argv[2], argv[3])
                              : output(display, registry, &g, argv[2], strcmp(argv[3], "enable") == 0);
    wl_registry_destroy(registry);
    wl_display_disconnect(display);
    return status;
}
