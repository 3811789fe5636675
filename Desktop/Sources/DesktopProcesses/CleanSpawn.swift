import Foundation

/// Spawn attributes for a child that must answer signals whatever thread starts it: an empty signal mask and
/// default handlers (threads of this process block SIGTERM and others, and a blocked mask is inherited across
/// `exec`: a child started from such a thread ignored the SIGTERM meant to stop it), optionally leading a
/// process group of its own (so a whole tree can be signalled, and Ctrl-C at the terminal does not reach it).
///
/// ```swift
/// CleanSpawn.withAttributes(newProcessGroup: true) { attributes in
///     posix_spawnp(&pid, "pdftoppm", &actions, &attributes, argv, environ)
/// }
/// ```
public enum CleanSpawn {
    /// Calls `body` with attributes that reset the mask and handlers and, with `newProcessGroup`, make the
    /// child lead a new process group (its pid is the group id).
    public static func withAttributes<T>(newProcessGroup: Bool, _ body: (inout posix_spawnattr_t) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return body(&attributes)
    }
}
