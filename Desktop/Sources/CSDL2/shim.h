#pragma once
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_syswm.h>

/* Macros Swift cannot import, wrapped for ExternalDisplaySDL. */

/// `SDL_LoadBMP(path)`.
static inline SDL_Surface *edk_load_bmp(const char *path) { return SDL_LoadBMP_RW(SDL_RWFromFile(path, "rb"), 1); }

/// The file descriptor of the X connection behind an SDL window, or -1 when it is not an X11 window.
static inline int edk_window_x11_fd(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return -1;
#if defined(SDL_VIDEO_DRIVER_X11)
    if (info.subsystem == SDL_SYSWM_X11) return ConnectionNumber(info.info.x11.display);
#endif
    return -1;
}

/// The X window id behind an SDL window, or 0.
static inline unsigned long edk_window_x11_id(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return 0;
#if defined(SDL_VIDEO_DRIVER_X11)
    if (info.subsystem == SDL_SYSWM_X11) return (unsigned long)info.info.x11.window;
#endif
    return 0;
}

/// The `wl_surface` behind an SDL window on SDL's Wayland driver, or NULL.
static inline void *edk_window_wayland_surface(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return NULL;
#if defined(SDL_VIDEO_DRIVER_WAYLAND)
    if (info.subsystem == SDL_SYSWM_WAYLAND) return (void *)info.info.wl.surface;
#endif
    return NULL;
}

/// The `wl_display` behind an SDL window on SDL's Wayland driver, or NULL.
static inline void *edk_window_wayland_display(SDL_Window *window) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info)) return NULL;
#if defined(SDL_VIDEO_DRIVER_WAYLAND)
    if (info.subsystem == SDL_SYSWM_WAYLAND) return (void *)info.info.wl.display;
#endif
    return NULL;
}
