#pragma once

/// Installs (once) a handler for SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE and SIGTRAP that lets the previous
/// handler run (the Swift runtime's crash report), then restores the default action and raises the signal
/// again, unblocked, so that the process always ends: a previous handler that returns from a signal sent with
/// kill() would otherwise leave it running. The mode-restore watchdog then sees the process go. Only
/// async-signal-safe calls in the handler.
void edk_install_fatal_handlers(void);
