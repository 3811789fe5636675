import ExternalDisplayKit

/// Gives each platform screen object a `DisplayID` while it is connected: `"screen-1"`, `"screen-2"`, …
/// in order of arrival, never reused, so a replugged display is a new display (UIKit hands out a new
/// `UIScreen` for it) and engine state is never keyed by a position in `UIScreen.screens`.
///
/// ```swift
/// var ids = DisplayIdentities<ObjectIdentifier>()
/// let id = ids.assign(ObjectIdentifier(screen))  // "screen-1"
/// ids.id(for: ObjectIdentifier(screen))          // "screen-1"
/// ids.remove(ObjectIdentifier(screen))           // "screen-1"
/// ```
public struct DisplayIdentities<Key: Hashable>: Sendable where Key: Sendable {
    private var ids: [Key: DisplayID] = [:]
    private var counter = 0
    private let prefix: String

    /// Creates an empty registry whose ids start with `prefix`.
    public init(prefix: String = "screen") { self.prefix = prefix }

    /// The id of a connected key, assigning the next one if it has none.
    public mutating func assign(_ key: Key) -> DisplayID {
        if let id = ids[key] { return id }
        counter += 1
        let id = DisplayID("\(prefix)-\(counter)")
        ids[key] = id
        return id
    }

    /// The id of a connected key.
    public func id(for key: Key) -> DisplayID? { ids[key] }

    /// The key an id belongs to.
    public func key(for id: DisplayID) -> Key? { ids.first { $0.value == id }?.key }

    /// Forgets a key and returns the id it had.
    @discardableResult
    public mutating func remove(_ key: Key) -> DisplayID? { ids.removeValue(forKey: key) }

    /// Every connected key's id.
    public var all: [DisplayID] { ids.values.sorted() }
}
