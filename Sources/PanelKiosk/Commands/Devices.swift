import Glibc
import PanelHost

/// `panel-refresh devices`: touchscreens and DRM cards, as text.
@MainActor
public enum DevicesCommand {
    /// The report: udev's touchscreens with their axes, and each DRM card's connectors and modes.
    public static func report(drm: any DRMCalls = LibDRM()) -> String {
        var out = "Touchscreens:\n"
        do {
            let screens = try TouchscreenDiscovery.list()
            if screens.isEmpty { out += "  none found (udev lists no ID_INPUT_TOUCHSCREEN=1 event node)\n" }
            for s in screens {
                out += "  \(s.node)  \(s.name)"
                if let device = try? EvdevDevice(path: s.node, requireDirect: false) {
                    let protocolName = device.device.touchProtocol.rawValue
                    let x = device.device.absInfo[AbsCode.mtPositionX] ?? device.device.absInfo[AbsCode.x]
                    let y = device.device.absInfo[AbsCode.mtPositionY] ?? device.device.absInfo[AbsCode.y]
                    out += "  \(protocolName)"
                    if let x, let y { out += "  x \(x.minimum)...\(x.maximum)  y \(y.minimum)...\(y.maximum)" }
                }
                if let c = s.calibration { out += "  calibration \(c)" }
                if let bad = s.invalidCalibration { out += "  invalid calibration \"\(bad)\" (ignored)" }
                if let f = s.filter { out += "  filter \(f)" }
                if let bad = s.invalidFilter { out += "  invalid filter \"\(bad)\" (ignored)" }
                out += "\n"
            }
        } catch {
            out += "  cannot ask udev: \(error)\n"
        }
        out += "DRM cards:\n"
        let cards = drm.cards()
        if cards.isEmpty { out += "  none (no /dev/dri/card*)\n" }
        for card in cards {
            out += "  \(card)\n"
            guard let fd = try? drm.open(card) else {
                out += "    cannot open\n"
                continue
            }
            defer { drm.close(fd) }
            guard let resources = try? drm.resources(fd) else {
                out += "    not a KMS device\n"
                continue
            }
            for id in resources.connectors {
                guard let c = try? drm.connector(fd, id) else { continue }
                let modes = c.modes.prefix(4).map { "\($0.width)x\($0.height)@\($0.refresh)\($0.isPreferred ? "*" : "")" }
                out += "    connector \(id): \(c.isConnected ? "connected" : "disconnected")  \(modes.joined(separator: " "))\n"
            }
        }
        return out
    }
}
