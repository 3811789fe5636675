#pragma once
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>

/* Macros and unions Swift cannot import, wrapped for ExternalDisplaySDL. */

/// The RandR notify masks we select on the root window (screen, CRTC and output changes).
static inline int edk_rr_notify_mask(void) {
    return RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask;
}

/// Reads the next queued event, lets RandR update Xlib's view of the screen, and returns its type.
static inline int edk_next_event(Display *dpy) {
    XEvent event;
    XNextEvent(dpy, &event);
    XRRUpdateConfiguration(&event);
    return event.type;
}

/* X errors (e.g. a refused XRRSetCrtcConfig) must not end the process: remember the last error code instead. */
static int edk_last_x_error = 0;

static inline int edk_x_error_handler(Display *dpy, XErrorEvent *event) {
    (void)dpy;
    edk_last_x_error = event->error_code;
    return 0;
}

/// Installs the recording error handler (idempotent).
static inline void edk_install_x_error_handler(void) { XSetErrorHandler(edk_x_error_handler); }

/// Returns the last X error code seen and clears it.
static inline int edk_take_x_error(void) {
    int code = edk_last_x_error;
    edk_last_x_error = 0;
    return code;
}

