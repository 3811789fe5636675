#pragma once
#include <signal.h>

/// The process groups of the external tools (pdftoppm, pdfinfo, mutool) running now, kept where a signal
/// handler can read them: a fixed table of slots written with atomic operations. Only async-signal-safe calls in
/// the handler.

/// Records a tool's process group; 0 when the table (256 slots) is full (the group is then only killed by the
/// registry at exit, not on a signal).
int edk_tool_group_add(int pgid);

/// Forgets a tool's process group.
void edk_tool_group_remove(int pgid);

/// Sends `sig` to every recorded group.
void edk_tool_groups_kill(int sig);

/// Call before starting a tool, and ``edk_tool_spawn_end`` once its group is recorded (or the start failed):
/// blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in the calling thread (the previous mask is kept in `saved`) so the
/// cleanup handler never runs in the middle of it, and returns 0 — nothing to start, the mask restored — when
/// that handler is ending the process. The handler waits for starts under way to be recorded before it kills:
/// a tool started while it ran was in no slot yet, and outlived the process.
int edk_tool_spawn_begin(sigset_t *saved);

/// Ends what ``edk_tool_spawn_begin`` began (when it returned 1) and restores the signal mask in `saved`.
void edk_tool_spawn_end(const sigset_t *saved);

/// Installs (once) a handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT that kills (SIGKILL) every recorded tool
/// group, then does what was in force before: calls the previous handler (a signal source's, a runtime's),
/// ignores the signal if it was ignored, or, under the default action, restores it and raises the signal again
/// so that the process ends as it would have. A handler installed later replaces it; that runtime's own exit path
/// then kills the tools (at exit).
void edk_install_tool_cleanup(void);
