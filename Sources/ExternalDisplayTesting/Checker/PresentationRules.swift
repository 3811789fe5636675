/// Presentation rules (issue 6): routes, privacy and redaction.
extension CheckerRun {
    mutating func handleNotification(_ json: TraceJSON) {
        switch json["name"]?.string {
        case "route":
            guard let item = json["item"]?.string, let destination = json["to"]?.string else { return }
            route(item, to: destination)
        case "redact":
            if let on = json["on"]?.bool { model.redacted = on }
        case "didAttach", "didDetach", "didChangeLayout":
            checkWindowNotification(json["name"]?.string ?? "", json)
        default:
            break
        }
    }

    mutating func route(_ item: String, to destination: String) {
        if destination != "device" {
            if model.privateItems.contains(item) {
                report(.privateRoutedExternally, "private item \(item) routed to external display \(destination)")
                openStates.insert(Self.stateKey(.privateRoutedExternally, item))  // not again at the batch end
            }
            if !model.isExtended(destination) {
                let why = model.isConnected(destination) ? "is mirrored" : "is not connected"
                report(.routeToUnavailableDisplay, "item \(item) routed to \(destination), which \(why)")
            }
        }
        model.routes[item] = destination
        if destination == "device" { batch?.pendingReturn[item] = nil }
    }

    mutating func checkPresentationAtBatchEnd(_ open: CheckedBatch) {
        // Net effect: a display that went away and came back (extended) within the batch may keep its items.
        for (item, pending) in open.pendingReturn.sorted(by: { $0.key < $1.key })
        where !(model.routes[item] == pending.display && model.isExtended(pending.display)) {
            let now = model.routes[item] ?? "nowhere"
            report(.routeOnDisconnect, "item \(item) was on \(pending.display), which went away (line \(pending.line)), "
                   + "but was not routed to device in that batch (now on \(now))")
        }
        for item in model.privateItems.sorted() {
            if let destination = model.routes[item], destination != "device" {
                reportState(.privateRoutedExternally, item,
                            "private item \(item) is still on external display \(destination) at the batch's end")
            }
        }
        guard features.presentation else { return }
        let mirroredConnected = model.mirrored.filter { model.isConnected($0) }.sorted()
        let wanted = model.captured || !mirroredConnected.isEmpty
        if model.redacted != wanted {
            let why = "captured \(model.captured), mirrored displays [\(mirroredConnected.joined(separator: ","))]"
            reportState(.redaction, String(wanted),
                        "redaction is \(model.redacted ? "on" : "off") but should be \(wanted ? "on" : "off") (\(why))")
        }
    }
}
