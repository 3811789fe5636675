#pragma once
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>

/// A non-blocking, close-on-exec eventfd used to wake a bus thread waiting in poll(2).
/// (The EFD_* flags are macros over enum values that Swift imports awkwardly.)
static inline int edk_make_wake_fd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
