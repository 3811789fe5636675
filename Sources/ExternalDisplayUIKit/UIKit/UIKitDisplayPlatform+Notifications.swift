#if canImport(UIKit)
import ExternalDisplayKit
import UIKit

extension UIKitDisplayPlatform {
    /// App lifecycle → events, through ``PlatformSignals/event(for:)`` (foreground on *will enter
    /// foreground*: AirPlay scenes never get *did activate*).
    func observeLifecycle() {
        let signals: [(NSNotification.Name, LifecycleSignal)] = [
            (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
            (UIApplication.willEnterForegroundNotification, .willEnterForeground),
            (UIApplication.didBecomeActiveNotification, .didBecomeActive),
            (UIApplication.willResignActiveNotification, .willResignActive),
        ]
        for (name, signal) in signals {
            observe(name) { platform, _ in
                if let event = PlatformSignals.event(for: signal) { platform.enqueue([event]) }
            }
        }
    }

    /// Mode changes and screen capture, on both paths.
    func observeScreens() {
        observe(UIScreen.modeDidChangeNotification) { platform, screen in
            guard let screen, let id = platform.id(of: screen), let mode = screen.currentMode else { return }
            let description = screen.externalDisplayDescription
            let current = description.displayMode(ScreenDescription.Mode(
                width: Double(mode.size.width), height: Double(mode.size.height),
                pixelAspectRatio: Double(mode.pixelAspectRatio)))
            platform.enqueue([.modeChanged(id, current)])
        }
        observe(UIScreen.capturedDidChangeNotification) { platform, screen in
            guard let screen else { return }
            platform.enqueue(platform.captureEvents(reportedBy: screen))
        }
    }

    /// Connect and disconnect notifications: the no-scenes path only (in a scene-based app a window made
    /// from them never shows).
    func observeScreenConnections() {
        observe(UIScreen.didConnectNotification) { platform, screen in
            guard let screen, platform.id(of: screen) == nil else { return }
            platform.enqueue(platform.contentSwitch.events(connecting: platform.register(screen)))
        }
        observe(UIScreen.didDisconnectNotification) { platform, screen in
            guard let screen, let id = platform.id(of: screen) else { return }
            platform.forget(id, key: ObjectIdentifier(screen))
            platform.enqueue([.disconnect(id)])
        }
    }

    /// An external scene connected (called by ``ExternalDisplaySceneDelegate``).
    func sceneDidConnect(_ scene: UIWindowScene) {
        guard let display = register(scene) else { return }
        enqueue(contentSwitch.events(connecting: display))
    }

    /// An external scene disconnected.
    func sceneDidDisconnect(_ scene: UIScene) {
        let key = ObjectIdentifier(scene)
        guard let id = identities.id(for: key) else { return }
        forget(id, key: key)
        enqueue([.disconnect(id)])
    }

    /// Capture from the scene capture state (iOS 17+) of the app's scene on the screen where it says, else
    /// the screen's `isCaptured` (whose deprecation Apple announced in favour of the trait).
    func isCaptured(_ screen: UIScreen) -> Bool {
        var state: CaptureState?
        if #available(iOS 17.0, *) {
            let scene = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
                .first { $0.screen === screen && SceneRole($0.session.role) == .application }
            switch (scene?.traitCollection ?? screen.traitCollection).sceneCaptureState {
            case .active: state = .active
            case .inactive: state = .inactive
            default: state = .unspecified
            }
        }
        return PlatformSignals.isCaptured(sceneCaptureState: state, screenIsCaptured: screen.isCaptured)
    }

    /// Observes a notification and hands the platform and the notification's screen (if its object is one)
    /// to `handler` on the main actor. The observer block is not main-actor isolated, so it hops there
    /// explicitly (a task on the main actor) rather than assuming where it runs.
    private func observe(_ name: NSNotification.Name,
                         _ handler: @escaping @MainActor (UIKitDisplayPlatform, UIScreen?) -> Void) {
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) {
            [weak self] notification in
            let screenKey = (notification.object as? UIScreen).map(ObjectIdentifier.init)
            Task { @MainActor in
                guard let self else { return }
                handler(self, screenKey.flatMap { self.knownScreen($0) })
            }
        }
        observers.append(token)
    }
}
#endif
