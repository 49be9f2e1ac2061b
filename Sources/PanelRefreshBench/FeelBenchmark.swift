import Foundation
import PanelKiosk
import PanelFeel
import PanelInput

/// How the list follows the finger on the real recordings (docs/benchmarks.md, "Under the
/// finger"): every drag replayed through the whole kiosk (`replay`) in virtual time at 60 Hz,
/// each frame on the glass one period after it is drawn, the list starting in the middle of
/// its range, with resampling off and on. Per
/// recording and setting one line:
///
///     case=feel recording=NAME resample=on|off lag_p50=P lag_p95=P judder=J overshoot=P frames=N
///
/// The figures are `ReplayFeel`'s (lag, judder, the finger's own judder, the judder the
/// pipeline adds, overshoot at a lift, frames counted).
@MainActor
enum FeelBenchmark {
    /// A recording with a drag, and how it is read.
    struct Recording {
        let name: String
        let file: String
        let description: String?
        let axes: (UInt16, UInt16)?
    }

    /// The recordings in Tests/PanelInputTests/Fixtures that hold a drag (03 holds taps only).
    static let recordings = [
        Recording(name: "01-pixel-tablet-swipe", file: "01-pixel-tablet-nvt.mt-b.1fg-swipe.evemu", description: nil, axes: nil),
        Recording(name: "02-atmel-drag-up-down", file: "02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", description: nil, axes: nil),
        Recording(name: "05-elan-drag-up-down", file: "05-elan-cando.mt-b.1fg-drag-up-down.events", description: "05-elan-cando.desc", axes: nil),
        Recording(name: "07-ntrig-drag", file: "07-ntrig.mt-a.1fg-drag-nw-se.events", description: "07-ntrig.desc", axes: nil),
        Recording(name: "10-egalax-drag", file: "10-egalax-usb.single-touch-quirk.events", description: "10-egalax-usb.desc", axes: (AbsCode.z, AbsCode.rx)),
    ]

    /// Prints a line per recording and setting; `folder` holds the recordings. `latencies`:
    /// resampling's sample times to try as well (seconds before presentation), a line each.
    static func run(folder: String = "Tests/PanelInputTests/Fixtures", latencies: [Double] = []) throws {
        let fonts = try FontLibrary()
        for recording in recordings {
            let settings: [(String, Bool, Double?)] = [("off", false, nil), ("on", true, nil)] + latencies.map { ("on", true, $0) }
            for (name, resample, latency) in settings {
                var options = ReplayCommand.Options(file: folder + "/" + recording.file)
                options.descriptionFile = recording.description.map { folder + "/" + $0 }
                options.positionAxes = recording.axes
                options.resample = resample
                options.resampleLatency = latency
                options.displayRate = 60
                // From the middle of the list: a drag either way moves it in its range (from the
                // top, a pull down only rubber-bands).
                options.startShare = 0.5
                let recorded = try EvemuRecording.load(path: options.file, descriptionPath: options.descriptionFile)
                let f = ReplayFeel(try ReplayCommand.run(recorded, options, fonts: fonts))
                let latencyField = latency.map { " latency_ms=\(format($0 * 1000, digits: 1))" } ?? ""
                print("case=feel recording=\(recording.name) resample=\(name)\(latencyField) lag_p50=\(format(f.lagP50))"
                      + " lag_p95=\(format(f.lagP95)) judder=\(format(f.judder, digits: 3)) finger_judder=\(format(f.fingerJudder, digits: 3))"
                      + " excess_judder=\(format(f.excessJudder, digits: 3)) overshoot=\(format(f.overshoot)) frames=\(f.frames)")
            }
        }
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
}
