#if canImport(UIKit) && canImport(AVKit)
import AVKit
import UIKit

extension AVRoutePickerView {
    /// A route button (AirPlay and other outputs) for the app's own controls — the replacement for
    /// `MPVolumeView`'s route button. Video apps list video-capable receivers first.
    ///
    /// ```swift
    /// toolbar.addSubview(AVRoutePickerView.routeButton(prioritizingVideo: true))
    /// ```
    public static func routeButton(prioritizingVideo: Bool, activeTint: UIColor? = nil) -> AVRoutePickerView {
        let picker = AVRoutePickerView(frame: CGRect(x: 0, y: 0, width: 44, height: 44))
        if #available(iOS 13.0, *) { picker.prioritizesVideoDevices = prioritizingVideo }
        if let activeTint { picker.activeTintColor = activeTint }
        return picker
    }
}
#endif

#if canImport(UIKit) && canImport(AVKit) && canImport(SwiftUI)
import SwiftUI

/// The system route picker (AirPlay and other outputs) as a SwiftUI view.
///
/// ```swift
/// HStack { PlayButton(); RoutePicker(prioritizesVideoDevices: true) }
/// ```
public struct RoutePicker: UIViewRepresentable {
    /// Whether video-capable receivers are listed first.
    public var prioritizesVideoDevices: Bool

    /// Creates a picker.
    public init(prioritizesVideoDevices: Bool = false) {
        self.prioritizesVideoDevices = prioritizesVideoDevices
    }

    /// Makes the picker view.
    public func makeUIView(context: Context) -> AVRoutePickerView {
        AVRoutePickerView.routeButton(prioritizingVideo: prioritizesVideoDevices)
    }

    /// Keeps the option current.
    public func updateUIView(_ picker: AVRoutePickerView, context: Context) {
        if #available(iOS 13.0, *) { picker.prioritizesVideoDevices = prioritizesVideoDevices }
    }
}
#endif
