// Declarations for type-checking only: written from Apple's documented signatures, not Apple's code.
@_exported import Foundation
import UIKit

@MainActor open class WKWebViewConfiguration: NSObject {
    public override init() { fatalError() }
    @available(iOS 9.0, *) open var allowsAirPlayForMediaPlayback: Bool { get { fatalError() } set {} }
    open var allowsInlineMediaPlayback: Bool { get { fatalError() } set {} }
}

@MainActor open class WKWebView: UIView {
    public init(frame: CGRect, configuration: WKWebViewConfiguration) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    open var configuration: WKWebViewConfiguration { fatalError() }
}
