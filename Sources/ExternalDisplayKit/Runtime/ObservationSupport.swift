#if canImport(Observation)
import Observation

/// Observation plumbing that works on every OS the package supports: a real `ObservationRegistrar` where the
/// Observation framework exists (iOS 17+, macOS 14+, Linux); callers skip it on older systems with
/// `#available`.
@MainActor
final class ObservationSupport {
    private let registrar: Any?

    init() {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            registrar = ObservationRegistrar()
        } else {
            registrar = nil
        }
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    func access<Subject: Observable, Value>(_ subject: Subject, _ keyPath: KeyPath<Subject, Value>) {
        (registrar as? ObservationRegistrar)?.access(subject, keyPath: keyPath)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    func willSet<Subject: Observable, Value>(_ subject: Subject, _ keyPath: KeyPath<Subject, Value>) {
        (registrar as? ObservationRegistrar)?.willSet(subject, keyPath: keyPath)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    func didSet<Subject: Observable, Value>(_ subject: Subject, _ keyPath: KeyPath<Subject, Value>) {
        (registrar as? ObservationRegistrar)?.didSet(subject, keyPath: keyPath)
    }
}
#endif
