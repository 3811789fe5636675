#include "fatal_signals.h"
#include "install_handlers.h"
#include "tool_groups.h"
#include <signal.h>
#include <string.h>

static struct sigaction previous_actions[65];

static void fatal_handler(int sig, siginfo_t *info, void *context) {
    // A crash leaves no external tool (pdftoppm…) running behind it.
    edk_tool_groups_kill(SIGKILL);
    if (sig > 0 && sig < 65) {
        struct sigaction *previous = &previous_actions[sig];
        if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction) {
            previous->sa_sigaction(sig, info, context);
        } else if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL
                   && previous->sa_handler != SIG_IGN && previous->sa_handler) {
            previous->sa_handler(sig);
        }
    }
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

void edk_install_fatal_handlers(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    int signals[] = { SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
    edk_install_handlers(signals, sizeof signals / sizeof signals[0], fatal_handler, SA_NODEFER, previous_actions);
}

void edk_install_handlers(const int *signals, unsigned count, void (*handler)(int, siginfo_t *, void *), int flags,
                          struct sigaction *previous) {
    for (unsigned i = 0; i < count; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handler;
        action.sa_flags = SA_SIGINFO | flags;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, &previous[signals[i]]);
    }
}
