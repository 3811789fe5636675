/// The page cache size a user may ask for (`extdisplay present --cache-mb N`), checked before it is used.
///
/// Pages are held compressed (``CompressedPage``): a slide of flat colour takes well under 1 MB even at 4K, a
/// photograph about its decoded size (8 MB at 1080p, 32 MB at 4K). The cache must hold at least the current page
/// and the next one even then, so sizes below ``minimumMegabytes`` are refused, as are sizes above
/// ``maximumMegabytes``.
///
/// ```swift
/// PageCacheSize.bytes(megabytes: 256)  // .success(268_435_456)
/// PageCacheSize.bytes(megabytes: 2)    // .failure: "--cache-mb 2 is too small: …"
/// ```
public enum PageCacheSize {
    /// The default size in megabytes (compressed: hundreds of slides; 23 photographs at 1080p, 5 at 4K).
    public static let defaultMegabytes = 192
    /// The smallest size accepted, in megabytes.
    public static let minimumMegabytes = 16
    /// The largest size accepted, in megabytes.
    public static let maximumMegabytes = 16_384

    /// A refused size: what is wrong and what to use instead.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// The message for the user.
        public var description: String
    }

    /// The budget in bytes for `--cache-mb TEXT` as typed, or why it is refused: not a whole number (`abc`,
    /// `1.5`, `1e3`, too many digits) or outside the range.
    public static func bytes(argument text: String) -> Result<Int, Refusal> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let megabytes = Int(trimmed) else {
            let shown = TextSanitizer.line(String(text.prefix(40)))
            return .failure(Refusal(description: "--cache-mb '\(shown)' is not a whole number of megabytes; accepted: "
                + "\(minimumMegabytes)…\(maximumMegabytes), default \(defaultMegabytes), e.g. --cache-mb 512"))
        }
        return bytes(megabytes: megabytes)
    }

    /// The budget in bytes for `megabytes`, or why that size is refused.
    public static func bytes(megabytes: Int) -> Result<Int, Refusal> {
        let range = "accepted: \(minimumMegabytes)…\(maximumMegabytes) MB, default \(defaultMegabytes)"
        if megabytes < minimumMegabytes {
            return .failure(Refusal(description: "--cache-mb \(megabytes) is too small: the cache must hold the "
                + "current and the next page (a 1080p page is about 8 MB, a 4K page 32 MB); \(range)"))
        }
        if megabytes > maximumMegabytes {
            return .failure(Refusal(description: "--cache-mb \(megabytes) is too large; \(range)"))
        }
        return .success(megabytes << 20)
    }
}
