#if canImport(UIKit) && canImport(SwiftUI)
import ExternalDisplayKit
import SwiftUI

extension View {
    /// Shows `content` on every external display while this view is on screen, with the display, its safe
    /// frame and size classes in the environment, and `placeholder` until the app reports its content ready
    /// (``ExternalDisplayController/contentIsReady()``).
    ///
    /// Put it on the app's root view. Scene-based apps also return the external configuration from their app
    /// delegate (see ``ExternalDisplaySceneDelegate``); on iOS 27 register the scene accessory.
    ///
    /// ```swift
    /// PhotoGrid(selection: $selected)
    ///     .externalDisplay { attachment in
    ///         FullScreenPhoto(photo: selected)
    ///     } placeholder: {
    ///         Text("Photos").font(.largeTitle)
    ///     }
    /// ```
    @MainActor
    public func externalDisplay<Content: View, Placeholder: View>(
        configuration: DisplayConfiguration = DisplayConfiguration(),
        @ViewBuilder content: @escaping (DisplayAttachment) -> Content,
        @ViewBuilder placeholder: @escaping () -> Placeholder
    ) -> some View {
        modifier(ExternalDisplayModifier(configuration: configuration, content: content, placeholder: placeholder))
    }

    /// Shows `content` on every external display, with the package's default placeholder.
    ///
    /// ```swift
    /// ContentView().externalDisplay { _ in ScoreboardView() }
    /// ```
    @MainActor
    public func externalDisplay<Content: View>(
        configuration: DisplayConfiguration = DisplayConfiguration(),
        @ViewBuilder content: @escaping (DisplayAttachment) -> Content
    ) -> some View {
        externalDisplay(configuration: configuration, content: content) { EmptyView() }
    }
}

/// The published attachment of each display with SwiftUI content, kept current by the controller's
/// notifications.
@MainActor
private final class ExternalDisplayModels {
    var byDisplay: [DisplayID: ExternalDisplayModel] = [:]
}

/// Installs SwiftUI content builders in ``ExternalDisplayController/shared`` and starts it. Main-actor
/// isolated itself: `ViewModifier` is only from the iOS 18 SDK on, and the controller is main-actor state.
@MainActor
struct ExternalDisplayModifier<ExternalContent: View, Placeholder: View>: ViewModifier {
    let configuration: DisplayConfiguration
    let content: (DisplayAttachment) -> ExternalContent
    let placeholder: () -> Placeholder

    func body(content view: Content) -> some View {
        #if canImport(UIKit, _version: 9127) && !targetEnvironment(macCatalyst)
        if #available(iOS 27.0, *) {
            view.background(ExternalDisplayAccessoryHost()).onAppear { install() }
        } else {
            view.onAppear { install() }
        }
        #else
        view.onAppear { install() }
        #endif
    }

    private func install() {
        let controller = ExternalDisplayController.shared
        guard controller.coordinator == nil else { return }
        let placeholder = self.placeholder
        if Placeholder.self != EmptyView.self {
            controller.makePlaceholder = { _ in UIHostingController(rootView: placeholder()) }
        }
        let content = self.content
        let models = ExternalDisplayModels()
        controller.addListener { notification in
            switch notification {
            case .didChangeLayout(let attachment): models.byDisplay[attachment.display.id]?.attachment = attachment
            case .didDetach(let id, _): models.byDisplay[id] = nil
            default: break
            }
        }
        controller.start(configuration: configuration) { attachment in
            let model = ExternalDisplayModel(attachment)
            models.byDisplay[attachment.display.id] = model
            return UIHostingController(rootView: ExternalDisplayRoot(model: model, content: content))
        }
    }
}
#endif
