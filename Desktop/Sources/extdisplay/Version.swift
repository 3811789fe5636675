/// The version of `extdisplay`: the one place it is written. `extdisplay --version` prints it, the Debian
/// package (`scripts/build-deb.sh`) and the AppStream metadata's release are named after it, and the man pages
/// carry it.
enum ExtDisplayVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    static let current = "0.4.0"
}
