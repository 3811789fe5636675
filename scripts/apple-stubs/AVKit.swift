// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import AVFoundation
import UIKit

@available(iOS 11.0, *)
@MainActor open class AVRoutePickerView: UIView {
    public override init(frame: CGRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open weak var delegate: (any AVRoutePickerViewDelegate)? { get { fatalError() } set {} }
    open var activeTintColor: UIColor! { get { fatalError() } set {} }
    @available(iOS 13.0, *) open var prioritizesVideoDevices: Bool { get { fatalError() } set {} }
}

@available(iOS 11.0, *)
@MainActor public protocol AVRoutePickerViewDelegate: NSObjectProtocol {
    func routePickerViewWillBeginPresentingRoutes(_ routePickerView: AVRoutePickerView)
    func routePickerViewDidEndPresentingRoutes(_ routePickerView: AVRoutePickerView)
}
extension AVRoutePickerViewDelegate {
    public func routePickerViewWillBeginPresentingRoutes(_ routePickerView: AVRoutePickerView) {}
    public func routePickerViewDidEndPresentingRoutes(_ routePickerView: AVRoutePickerView) {}
}
