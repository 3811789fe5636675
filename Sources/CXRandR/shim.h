#pragma once
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
