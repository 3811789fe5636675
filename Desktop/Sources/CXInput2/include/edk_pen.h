#pragma once
#include <SDL2/SDL.h>
#include <X11/Xlib.h>
#include <X11/extensions/XInput2.h>

/// The X display behind an SDL window on SDL's X11 driver, or NULL.
Display *edk_pen_window_display(SDL_Window *window);

/// The X window id behind an SDL window on SDL's X11 driver, or 0.
unsigned long edk_pen_window_id(SDL_Window *window);

/// Selects XInput 2's button and motion events of device `device` on `window` (device-specific selections).
/// Returns 0 on success.
int edk_xi_select_pen(Display *display, Window window, int device);

/// A device's "Coordinate Transformation Matrix" (9 floats, row by row) into `matrix`; 0 when it has one.
int edk_xi_transformation(Display *display, int device, float matrix[9]);

/// One pen event, read from XInput 2 while SDL dispatched it (its data is freed right after).
typedef struct {
    int kind;          /* XI_ButtonPress, XI_ButtonRelease or XI_Motion */
    int detail;        /* the button */
    int device;        /* the source device */
    double x, y, pressure;      /* the device's axes (NAN when the event does not carry one) */
    double event_x, event_y;    /* the pointer in the event window */
    double root_x, root_y;      /* the pointer on the screen */
} edk_pen_record;

/// Starts turning the pen devices' XInput 2 events into SDL events, in the order SDL dispatches the X events:
/// `opcode` is XInput's, `ids` and `axes` (x, y and pressure valuator numbers per device, -1 for none) name up to
/// 8 pens; `touch_ids` and `touch_axes` (the "Abs MT Pressure" valuator's number) up to 8 touch screens, whose
/// pressure is noted from SDL's own touch events (``edk_pen_touch_pressure``). Installs SDL's event filter and
/// turns on window manager events (every other one is dropped). Returns the SDL event type (a user event whose
/// code numbers the record), 0 on failure.
Uint32 edk_pen_install(int opcode, const int *ids, const int *axes, int count,
                       const int *touch_ids, const int *touch_axes, int touch_count);

/// The last pressure (the device's raw value) of the touch numbered `touch` (XInput 2's touch id, SDL's finger
/// id), its device in `device`; NAN when none was noted.
double edk_pen_touch_pressure(unsigned int touch, int *device);

/// The record `number` names (a user event's code), if it is still kept (the last 256); 0 when it is.
int edk_pen_take(Sint32 number, edk_pen_record *record);
