// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import Foundation

@available(iOS 13.0, *)
public protocol ObservableObject: AnyObject {}

@available(iOS 13.0, *)
@propertyWrapper public struct Published<Value> {
    public init(wrappedValue: Value) {}
    public var wrappedValue: Value { get { fatalError() } set {} }
}
