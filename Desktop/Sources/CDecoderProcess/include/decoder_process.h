#pragma once
#include <stddef.h>

/// What the decoder process (`extdisplay-decoder`) and its parent need from Linux that Swift's Glibc module does
/// not declare: sealed shared memory for the frames, the parent-death signal and signal names.

/// A memfd of `size` bytes (close-on-exec), sealed so that no process holding it can shrink it, grow it or change
/// its seals: a mapping of it never faults (SIGBUS) however its other holder misbehaves. -1 with errno on failure.
int edk_sealed_memory(size_t size);

/// Whether `fd` is sealed against shrinking (a mapping of it cannot fault); 0 when not or not a memfd.
int edk_memory_is_sealed(int fd);

/// Asks the kernel to send `signal` to this process when the thread that started it ends (prctl
/// PR_SET_PDEATHSIG). 0 on success, -1 with errno.
int edk_set_parent_death_signal(int signal);

/// The signal's abbreviation without "SIG" ("ABRT"), or NULL when unknown.
const char *edk_signal_abbreviation(int signal);
