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
    } else if (strcmp(interface, edk_kde_output_management_v2_interface.name) == 0) {
        g->management = name;
    } else if (strcmp(interface, edk_kde_output_device_v2_interface.name) == 0 && version >= 2
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

/* What the product's KDE listeners (CWaylandClient) report: each device's name, and the configuration's answer. */
#define MAX_NAME 64

struct kde_state {
    struct kde_output_device_v2 *devices[MAX_DEVICES];
    char names[MAX_DEVICES][MAX_NAME];
    int count;
    int answer; /* 0 waiting, 1 applied, 2 failed */
};

static void kde_event(void *context, const struct edk_wl_event *event) {
    struct kde_state *state = context;
    if (event->kind == EDK_KDE_DEVICE_NAME) {
        for (int i = 0; i < state->count; i++) {
            if ((void *)state->devices[i] == event->object) snprintf(state->names[i], MAX_NAME, "%s", event->text);
        }
    } else if (event->kind == EDK_CONFIG_SUCCEEDED) {
        state->answer = 1;
    } else if (event->kind == EDK_CONFIG_FAILED) {
        state->answer = 2;
    }
}

static int output(struct wl_display *display, struct wl_registry *registry, struct globals *g, const char *name,
                  int enable) {
    if (g->management == 0 || g->device_count == 0) {
        return fail("kde_output_management_v2 or kde_output_device_v2 is not offered (is this KWin?)");
    }
    struct kde_state state;
    memset(&state, 0, sizeof state);
    struct edk_wl_sink sink = { kde_event, &state };
    for (int i = 0; i < g->device_count; i++) {
        state.devices[state.count++] = edk_bind_kde_output_device(registry, g->devices[i], 2, &sink);
    }
    if (wl_display_roundtrip(display) < 0) return fail("the connection to KWin broke");
    struct kde_output_device_v2 *target = NULL;
    for (int i = 0; i < state.count; i++) {
        if (strcmp(state.names[i], name) == 0) target = state.devices[i];
    }
    if (target == NULL) {
        fprintf(stderr, "kwin-test-client: KWin has no output device named %s\n", name);
        return 1;
    }
    struct kde_output_configuration_v2 *configuration =
        edk_kde_create_configuration(edk_bind_kde_output_management(registry, g->management, 1), &sink);
    /* kde_output_configuration_v2.enable(device, enable): opcode 0; the product never switches outputs off. */
    wl_proxy_marshal_flags((struct wl_proxy *)configuration, 0, NULL, 1, 0, target, enable);
    edk_kde_configuration_apply(configuration);
    while (state.answer == 0) {
        if (wl_display_dispatch(display) < 0) return fail("the connection to KWin broke");
    }
    edk_kde_configuration_destroy(configuration);
    if (state.answer != 1) {
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
