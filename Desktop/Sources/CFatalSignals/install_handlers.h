#pragma once
#include <signal.h>

/// Installs `handler` (SA_SIGINFO plus `flags`, nothing blocked while it runs) for each of the `count` signals,
/// keeping the action each replaces in `previous[signal]` (an array of 65). Internal to this module.
void edk_install_handlers(const int *signals, unsigned count, void (*handler)(int, siginfo_t *, void *), int flags,
                          struct sigaction *previous);
