#include "tool_groups.h"
#include "install_handlers.h"
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#define EDK_TOOL_SLOTS 256

static _Atomic int slots[EDK_TOOL_SLOTS];
static struct sigaction previous_actions[65];

int edk_tool_group_add(int pgid) {
    if (pgid <= 0) return 0;
    for (int i = 0; i < EDK_TOOL_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&slots[i], &expected, pgid)) return 1;
    }
    return 0;
}

void edk_tool_group_remove(int pgid) {
    if (pgid <= 0) return;
    for (int i = 0; i < EDK_TOOL_SLOTS; i++) {
        int expected = pgid;
        if (atomic_compare_exchange_strong(&slots[i], &expected, 0)) return;
    }
}

void edk_tool_groups_kill(int sig) {
    for (int i = 0; i < EDK_TOOL_SLOTS; i++) {
        int group = atomic_load(&slots[i]);
        if (group > 0) kill(-group, sig);
    }
}

/// A previous handler that put the default action back before returning meant the process to end: the Swift
/// runtime's crash handler (SIGQUIT is one of its signals) prints a backtrace, sets the default action and returns,
/// expecting a fault to come again — a SIGQUIT sent with kill never comes again, and the process ran on, starting
/// new tools. The signal is raised again: blocked while this handler runs, it is delivered as it returns.
static int end_if_default_restored(int sig) {
    struct sigaction current;
    if (sigaction(sig, NULL, &current) == 0 && !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL) {
        raise(sig);
        return 1;
    }
    return 0;
}

/// Tools being started now (between edk_tool_spawn_begin and edk_tool_spawn_end), and whether the cleanup
/// handler is ending the process (no tool starts then).
static atomic_int spawning = 0;
static atomic_int ending = 0;

static void cleanup_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGQUIT);
}

int edk_tool_spawn_begin(sigset_t *saved) {
    sigset_t block;
    cleanup_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, saved);
    // Counted before `ending` is read, as the handler sets `ending` before it reads the count: either the
    // handler waits for this start, or this start sees the handler and does not happen.
    atomic_fetch_add(&spawning, 1);
    if (atomic_load(&ending)) {
        atomic_fetch_sub(&spawning, 1);
        pthread_sigmask(SIG_SETMASK, saved, NULL);
        return 0;
    }
    return 1;
}

void edk_tool_spawn_end(const sigset_t *saved) {
    atomic_fetch_sub(&spawning, 1);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/// Stops new starts and waits (at most 5 s: a thread stopped in a debugger must not hold the exit) for the
/// starts under way to record their groups, so that the kill that follows reaches them.
static void stop_starts(void) {
    atomic_store(&ending, 1);
    struct timespec pause = { 0, 1000000 };
    for (int i = 0; i < 5000 && atomic_load(&spawning) > 0; i++) nanosleep(&pause, NULL);
}

static void tool_cleanup_handler(int sig, siginfo_t *info, void *context) {
    int saved = errno;
    stop_starts();
    edk_tool_groups_kill(SIGKILL);
    struct sigaction *previous = &previous_actions[sig];
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction) previous->sa_sigaction(sig, info, context);
        if (end_if_default_restored(sig)) { errno = saved; return; }
    } else if (previous->sa_handler == SIG_DFL) {
        // The default action ends the process: restore it; the signal raised again is blocked while this
        // handler runs and is delivered as soon as it returns (no tool starts meanwhile).
        signal(sig, SIG_DFL);
        raise(sig);
        errno = saved;
        return;
    } else if (previous->sa_handler != SIG_IGN && previous->sa_handler) {
        previous->sa_handler(sig);
        if (end_if_default_restored(sig)) { errno = saved; return; }
    }
    // The process goes on (the signal ignored, or handled by a handler that returned): tools may start again.
    atomic_store(&ending, 0);
    errno = saved;
}

void edk_install_tool_cleanup(void) {
    static atomic_int installed = 0;
    if (atomic_exchange(&installed, 1)) return;
    int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    edk_install_handlers(signals, sizeof signals / sizeof signals[0], tool_cleanup_handler, SA_RESTART, previous_actions);
}
