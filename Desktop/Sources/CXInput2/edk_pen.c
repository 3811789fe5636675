#include <math.h>
#include <string.h>
#include "edk_pen.h"
#include <SDL2/SDL_syswm.h>

Display *edk_pen_window_display(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return NULL;
    return info.info.x11.display;
}

/// Selects XInput 2's button and motion events of device `device` on `window` (device-specific selections).
/// Returns 0 on success.
int edk_xi_select_pen(Display *display, Window window, int device) {
    unsigned char bits[XIMaskLen(XI_LASTEVENT)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_ButtonPress);
    XISetMask(bits, XI_ButtonRelease);
    XISetMask(bits, XI_Motion);
    XIEventMask mask = { device, (int)sizeof bits, bits };
    return XISelectEvents(display, window, &mask, 1) == Success ? 0 : -1;
}

/// A device's "Coordinate Transformation Matrix" (9 floats, row by row) into `matrix`; 0 when it has one.
int edk_xi_transformation(Display *display, int device, float matrix[9]) {
    Atom property = XInternAtom(display, "Coordinate Transformation Matrix", True);
    Atom float_type = XInternAtom(display, "FLOAT", True);
    if (property == None || float_type == None) return -1;
    Atom type; int format; unsigned long items, after; unsigned char *data = NULL;
    if (XIGetProperty(display, device, property, 0, 9, False, float_type, &type, &format, &items, &after, &data)
        != Success || data == NULL) return -1;
    int ok = type == float_type && format == 32 && items == 9;
    if (ok) memcpy(matrix, data, 9 * sizeof(float));
    XFree(data);
    return ok ? 0 : -1;
}


#define EDK_PEN_RING 256
#define EDK_PEN_DEVICES 8
static edk_pen_record edk_pen_ring[EDK_PEN_RING];
static unsigned int edk_pen_written = 0;
static int edk_pen_opcode = -1;
static Uint32 edk_pen_event = 0;
static int edk_pen_device_ids[EDK_PEN_DEVICES];
static int edk_pen_axes[EDK_PEN_DEVICES][3]; /* x, y, pressure valuator numbers (-1: none) */
static int edk_pen_device_count = 0;
#define EDK_TOUCHES 16
static int edk_touch_device_ids[EDK_PEN_DEVICES];
static int edk_touch_axes[EDK_PEN_DEVICES];
static int edk_touch_device_count = 0;
static struct { unsigned int id; int device; double pressure; unsigned long age; } edk_touches[EDK_TOUCHES];
static unsigned long edk_touch_age = 0;

static double edk_pen_value(const XIValuatorState *state, const double *values, int axis) {
    if (axis < 0 || axis / 8 >= state->mask_len || !XIMaskIsSet(state->mask, axis)) return NAN;
    int index = 0;
    for (int bit = 0; bit < axis; bit++) if (XIMaskIsSet(state->mask, bit)) index++;
    return values[index];
}

/// SDL's event filter: an X11 GenericEvent of XInput 2 from a pen becomes an SDL user event (type
/// `edk_pen_event`, code = the record's number), in the order SDL dispatches the X events; every other window
/// manager event is dropped (they are turned on only for this). Runs where SDL pumps its events (the main thread).
static int edk_pen_filter(void *userdata, SDL_Event *event) {
    (void)userdata;
    if (event->type != SDL_SYSWMEVENT) return 1;
    SDL_SysWMmsg *message = event->syswm.msg;
    if (message == NULL || message->subsystem != SDL_SYSWM_X11) return 0;
    XGenericEventCookie *cookie = &message->msg.x11.event.xcookie;
    if (cookie->type != GenericEvent || cookie->extension != edk_pen_opcode || cookie->data == NULL) return 0;
    if (cookie->evtype == XI_TouchBegin || cookie->evtype == XI_TouchUpdate) {
        /* SDL's own touch events (it made its finger event already, with a pressure of 1): the screen's pressure. */
        const XIDeviceEvent *touch = cookie->data;
        for (int i = 0; i < edk_touch_device_count; i++) {
            if (edk_touch_device_ids[i] != touch->sourceid) continue;
            double value = edk_pen_value(&touch->valuators, touch->valuators.values, edk_touch_axes[i]);
            if (isnan(value)) break;
            int slot = 0;
            for (int t = 0; t < EDK_TOUCHES; t++) {
                if (edk_touches[t].id == (unsigned int)touch->detail) { slot = t; break; }
                if (edk_touches[t].age < edk_touches[slot].age) slot = t;
            }
            edk_touches[slot].id = (unsigned int)touch->detail;
            edk_touches[slot].device = touch->sourceid;
            edk_touches[slot].pressure = value;
            edk_touches[slot].age = ++edk_touch_age;
            break;
        }
        return 0;
    }
    if (cookie->evtype != XI_ButtonPress && cookie->evtype != XI_ButtonRelease && cookie->evtype != XI_Motion) return 0;
    const XIDeviceEvent *device_event = cookie->data;
    int slot = -1;
    for (int i = 0; i < edk_pen_device_count; i++) if (edk_pen_device_ids[i] == device_event->sourceid) slot = i;
    if (slot < 0) return 0;
    edk_pen_record *record = &edk_pen_ring[edk_pen_written % EDK_PEN_RING];
    record->kind = cookie->evtype;
    record->detail = device_event->detail;
    record->device = device_event->sourceid;
    record->x = edk_pen_value(&device_event->valuators, device_event->valuators.values, edk_pen_axes[slot][0]);
    record->y = edk_pen_value(&device_event->valuators, device_event->valuators.values, edk_pen_axes[slot][1]);
    record->pressure = edk_pen_value(&device_event->valuators, device_event->valuators.values, edk_pen_axes[slot][2]);
    record->event_x = device_event->event_x;
    record->event_y = device_event->event_y;
    record->root_x = device_event->root_x;
    record->root_y = device_event->root_y;
    SDL_Event pen;
    memset(&pen, 0, sizeof pen);
    pen.type = edk_pen_event;
    pen.user.code = (Sint32)(edk_pen_written & 0x7fffffff);
    edk_pen_written++;
    *event = pen;
    return 1;
}

/// Starts turning the pen devices' XInput 2 events into SDL events: `opcode` is XInput's, `ids` and `axes`
/// (x, y and pressure valuator numbers per device) name up to 8 devices. Returns the SDL event type, 0 on failure.
Uint32 edk_pen_install(int opcode, const int *ids, const int *axes, int count,
                       const int *touch_ids, const int *touch_axes, int touch_count) {
    if (count < 0 || count > EDK_PEN_DEVICES || touch_count < 0 || touch_count > EDK_PEN_DEVICES) return 0;
    if (count + touch_count == 0) return 0;
    edk_touch_device_count = touch_count;
    for (int i = 0; i < touch_count; i++) {
        edk_touch_device_ids[i] = touch_ids[i];
        edk_touch_axes[i] = touch_axes[i];
    }
    if (edk_pen_event == 0) {
        Uint32 type = SDL_RegisterEvents(1);
        if (type == (Uint32)-1) return 0;
        edk_pen_event = type;
    }
    edk_pen_opcode = opcode;
    edk_pen_device_count = count;
    for (int i = 0; i < count; i++) {
        edk_pen_device_ids[i] = ids[i];
        for (int a = 0; a < 3; a++) edk_pen_axes[i][a] = axes[i * 3 + a];
    }
    SDL_SetEventFilter(edk_pen_filter, NULL);
    SDL_EventState(SDL_SYSWMEVENT, SDL_ENABLE);
    return edk_pen_event;
}

/// The record `number` names (a user event's code), if it is still in the ring; 0 when it is.
int edk_pen_take(Sint32 number, edk_pen_record *record) {
    unsigned int n = (unsigned int)number;
    if (n >= edk_pen_written || edk_pen_written - n > EDK_PEN_RING) return -1;
    *record = edk_pen_ring[n % EDK_PEN_RING];
    return 0;
}

unsigned long edk_pen_window_id(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    return (unsigned long)info.info.x11.window;
}

double edk_pen_touch_pressure(unsigned int touch, int *device) {
    for (int t = 0; t < EDK_TOUCHES; t++) {
        if (edk_touches[t].age != 0 && edk_touches[t].id == touch) {
            *device = edk_touches[t].device;
            return edk_touches[t].pressure;
        }
    }
    return NAN;
}
