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
            observe(name) { platform, _ in platform.enqueue(platform.translator.lifecycle(signal)) }
        }
    }

    /// Mode changes and screen capture, on both paths.
    func observeScreens() {
        observe(UIScreen.modeDidChangeNotification) { platform, screen in
            guard let screen, let mode = screen.currentMode else { return }
            platform.enqueue(platform.translator.modeChanged(
                on: ObjectIdentifier(screen), description: screen.externalDisplayDescription,
                current: ScreenDescription.Mode(width: Double(mode.size.width), height: Double(mode.size.height),
                                                pixelAspectRatio: Double(mode.pixelAspectRatio))))
        }
        observe(UIScreen.capturedDidChangeNotification) { platform, screen in
            guard let screen else { return }
            platform.enqueue(platform.captureEvents(reportedBy: screen))
        }
    }

    /// Connect and disconnect notifications: the no-scenes path only (in a scene-based app a window made
    /// from them never shows). From iOS 16, where the screen notifications are deprecated, a screen arrives
    /// with the first external-display scene UIKit connects on it (`UIScene.willConnectNotification`) and goes
    /// when none is left on it (`UIScene.didDisconnectNotification`); before iOS 16 the screen notifications
    /// say so directly.
    func observeScreenConnections() {
        if #available(iOS 16.0, *) {
            observeScenes(UIScene.willConnectNotification) { platform, sceneKey in
                let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
                // Only external-display scenes bring an external screen; the app's own scenes (Stage Manager
                // windows on a monitor included) never do, as on the scenes path.
                guard let scene = scenes.first(where: { ObjectIdentifier($0) == sceneKey }),
                      ExternalScenePolicy.mayConfigureScreen(for: SceneRole(scene.session.role)) else { return }
                platform.sceneScreenKeys[sceneKey] = ObjectIdentifier(scene.screen)
                platform.screenDidConnect(scene.screen)
            }
            observeScenes(UIScene.didDisconnectNotification) { platform, sceneKey in
                guard let screenKey = platform.sceneScreenKeys.removeValue(forKey: sceneKey),
                      !platform.sceneScreenKeys.values.contains(screenKey),
                      let screen = platform.knownScreen(screenKey) else { return }
                platform.screenDidDisconnect(screen)
            }
        } else {
            observe(UIScreen.didConnectNotification) { platform, screen in
                guard let screen else { return }
                platform.screenDidConnect(screen)
            }
            observe(UIScreen.didDisconnectNotification) { platform, screen in
                guard let screen else { return }
                platform.screenDidDisconnect(screen)
            }
        }
    }

    /// A screen attached (screens path): registered unless it is known or the device's own.
    func screenDidConnect(_ screen: UIScreen) {
        guard id(of: screen) == nil, screen !== deviceScreen() else { return }
        enqueue(translator.connected(register(screen)))
    }

    /// A screen went away (screens path).
    func screenDidDisconnect(_ screen: UIScreen) {
        enqueue(forget(ObjectIdentifier(screen)))
    }

    /// An external scene connected (called by ``ExternalDisplaySceneDelegate``).
    func sceneDidConnect(_ scene: UIWindowScene) {
        guard let display = register(scene) else { return }
        enqueue(translator.connected(display))
    }

    /// An external scene disconnected.
    func sceneDidDisconnect(_ scene: UIScene) {
        enqueue(forget(ObjectIdentifier(scene)))
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

    /// Observes a scene notification and hands the platform and the scene's identity to `handler` on the main
    /// actor (the scene itself is not sendable; the handler finds it, or what the platform knows of it).
    private func observeScenes(_ name: NSNotification.Name,
                               _ handler: @escaping @MainActor (UIKitDisplayPlatform, ObjectIdentifier) -> Void) {
        let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) {
            [weak self] notification in
            let sceneKey = (notification.object as? UIScene).map(ObjectIdentifier.init)
            Task { @MainActor in
                guard let self, let sceneKey else { return }
                handler(self, sceneKey)
            }
        }
        observers.append(token)
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
