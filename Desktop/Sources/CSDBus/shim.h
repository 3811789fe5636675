#pragma once
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>

/// A non-blocking, close-on-exec eventfd used to wake a bus thread waiting in poll(2).
/// (The EFD_* flags are macros over enum values that Swift imports awkwardly.)
static inline int edk_make_wake_fd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <time.h>

/// CLOCK_MONOTONIC in microseconds (sd-bus's own timeouts are on this clock).
static inline uint64_t edk_monotonic_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000ULL + (uint64_t)now.tv_nsec / 1000ULL;
}

/// Waits until the bus's descriptor has something for it, sd-bus's own next deadline passes, or `deadline_usec`
/// (CLOCK_MONOTONIC, microseconds), whichever comes first: one step of a bounded loop around sd_bus_process.
static inline void edk_sd_bus_wait_until(sd_bus *bus, uint64_t deadline_usec) {
    const uint64_t now = edk_monotonic_usec();
    uint64_t limit = deadline_usec, bus_deadline = 0;
    if (sd_bus_get_timeout(bus, &bus_deadline) > 0 && bus_deadline != UINT64_MAX && bus_deadline < limit) {
        limit = bus_deadline;
    }
    uint64_t wait_ms = (limit > now ? (limit - now) / 1000ULL : 0) + 1;
    if (wait_ms > 60000) wait_ms = 60000;
    int fd = sd_bus_get_fd(bus);
    int events = sd_bus_get_events(bus);
    if (fd < 0) return;
    struct pollfd descriptor = { .fd = fd, .events = (short)(events > 0 ? events : POLLIN), .revents = 0 };
    (void)poll(&descriptor, 1, (int)wait_ms);
}

/// Drives the handshake of a started bus (authentication, then Hello) until the bus is ready, for at most
/// `timeout_usec`: 0 when ready, -ETIMEDOUT when the other end never answered in time, another negative errno when
/// the connection failed. sd_bus_start only begins the handshake, and a call made before it is over waits for it
/// with sd-bus's 90 s authentication timeout, whatever the call's own timeout: a bus that accepts and never
/// answers would hold the caller that long.
static inline int edk_sd_bus_wait_ready(sd_bus *bus, uint64_t timeout_usec) {
    const uint64_t deadline = edk_monotonic_usec() + timeout_usec;
    for (;;) {
        int ready = sd_bus_is_ready(bus);
        if (ready > 0) return 0;
        if (ready < 0) return ready;
        int step = sd_bus_process(bus, NULL);
        if (step < 0) return step;
        if (step > 0) continue;
        if (sd_bus_get_fd(bus) < 0) return -ENOTCONN;
        if (edk_monotonic_usec() >= deadline) return -ETIMEDOUT;
        edk_sd_bus_wait_until(bus, deadline);
    }
}
