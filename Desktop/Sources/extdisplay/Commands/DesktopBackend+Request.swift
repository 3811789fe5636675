import ExternalDisplayPresenter

extension DesktopBackend {
    /// The presenter core's request for this option.
    var request: PresenterBackend.Request {
        switch self {
        case .auto: .auto
        case .x11: .x11
        case .wayland: .wayland
        }
    }
}
