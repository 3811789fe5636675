#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xcomposite.h>

/* X errors (a window pixmap asked of an unmapped window) must not end the test process: remember the code. */
static int edk_composite_last_error = 0;

static inline int edk_composite_error_handler(Display *dpy, XErrorEvent *event) {
    (void)dpy;
    edk_composite_last_error = event->error_code;
    return 0;
}

/// Installs the recording error handler.
static inline void edk_composite_install_error_handler(void) { XSetErrorHandler(edk_composite_error_handler); }

/// Returns the last X error code seen and clears it.
static inline int edk_composite_take_error(void) {
    int code = edk_composite_last_error;
    edk_composite_last_error = 0;
    return code;
}
