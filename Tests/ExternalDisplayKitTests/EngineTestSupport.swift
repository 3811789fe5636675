import ExternalDisplayKit
import ExternalDisplayTesting
import ExternalDisplaySimulator

/// Short, readable spellings of engine effects, so tests state whole traces by hand.
func spell(_ effect: EngineEffect) -> String {
    switch effect {
    case .command(let c):
        let id = c.display.map { " \($0)" } ?? ""
        switch c {
        case .setMode(_, let m): return "setMode\(id) \(m)"
        case .setOverscanCompensation(_, let o): return "compensation\(id) \(o.rawValue)"
        case .createWindow(_, let l): return "create\(id) \(l.frame) safe \(l.safeFrame)"
        case .layoutWindow(_, let l): return "layout\(id) \(l.frame) safe \(l.safeFrame)"
        case .showWindow(_, let content): return "show\(id) \(content.rawValue)"
        case .setContent(_, let content): return "content\(id) \(content.rawValue)"
        case .hideWindow: return "hide\(id)"
        case .destroyWindow: return "destroy\(id)"
        case .startFrameClock(_, let fps, let paused): return "clock\(id) \(fps)\(paused ? " paused" : "")"
        case .pauseFrameClock: return "pauseClock\(id)"
        case .resumeFrameClock: return "resumeClock\(id)"
        case .stopFrameClock: return "stopClock\(id)"
        case .startRefresh(let fps): return "refresh \(fps)"
        case .stopRefresh: return "stopRefresh"
        case .setRenderScale(_, let s): return "renderScale\(id) \(s)"
        case .setFrameRate(_, let fps): return "frameRate\(id) \(fps)"
        }
    case .notification(let n):
        switch n {
        case .didAttach(let a): return "didAttach \(a.display.id)"
        case .didDetach(let id, let reason): return "didDetach \(id) \(reason.rawValue)"
        case .didChangeLayout(let a): return "didChangeLayout \(a.display.id) \(a.layout.frame)"
        case .route(let item, let to): return "route \(item) \(to)"
        case .redact(let on): return "redact \(on)"
        }
    case .diagnostic(let d):
        return "\(d.level.rawValue): \(d.message)"
    }
}

extension DisplayEngine {
    /// Handles a batch and spells the effects.
    mutating func spelled(_ batch: DisplayEvent...) -> [String] { handle(batch).map(spell) }
}

func preset(_ name: String, _ id: DisplayID, current: PixelSize? = nil) -> Display {
    DisplayCatalog.display(named: name, id: id, current: current)!
}
