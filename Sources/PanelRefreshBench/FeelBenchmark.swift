import Foundation
import PanelKiosk
import PanelFeel
import PanelInput
import PanelDisplay
import PanelUI

/// How the list follows the finger on the real recordings (docs/benchmarks.md, "Under the
/// finger"): every drag replayed through the whole kiosk (`replay`) in virtual time at 60 Hz,
/// the list starting in the middle of its range, each recording as it was reported and
/// decimated to 25 Hz (the Raspberry Pi's official panel reports at 25 Hz through its kernel
/// driver). Per recording, rate and setting one line:
///
///     case=feel recording=NAME rate=native|25hz setting=S lag_p50=P lag_p95=P time_lag_p50=MS time_lag_p95=MS
///         judder=J finger_judder=J excess_judder=J aligned_excess_judder=J highpass_judder=J
///         finger_highpass_judder=J overshoot=P lead=P missed_vblanks=N frames=N
///
/// The settings: `before` (the pipeline before the late start: a frame drawn right after the
/// last flip, sampled half a report interval before, extrapolated up to half an interval),
/// `late-half` (that sampling with the late start), `off` (no resampling, late start), `filter`
/// (the default with the 1-euro filter, `input.filter = one-euro`: its cost), `on` (the
/// default: the late start and the screen's own sampling, `PanResampler.Sampling`). The
/// figures are `ReplayFeel`'s.
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

    /// A setting of the pipeline the bench compares.
    struct Setting {
        let name: String
        let resample: Bool
        let sampling: TouchDispatcher.Sampling
        let window: FrameScheduler.Window
        /// The touch filter (`input.filter`).
        var filter = TouchFilter.off
    }

    /// The settings, the default (`on`) last.
    static let settings = [
        Setting(name: "before", resample: true, sampling: .halfInterval, window: .off),
        Setting(name: "late-half", resample: true, sampling: .halfInterval, window: .fixed(FrameScheduler.defaultWindow)),
        Setting(name: "off", resample: false, sampling: .screen, window: .fixed(FrameScheduler.defaultWindow)),
        Setting(name: "filter", resample: true, sampling: .screen, window: .fixed(FrameScheduler.defaultWindow), filter: .oneEuro(.standard)),
        Setting(name: "on", resample: true, sampling: .screen, window: .fixed(FrameScheduler.defaultWindow)),
    ]

    /// Prints a line per recording, rate and setting; `folder` holds the recordings.
    static func run(folder: String = "Tests/PanelInputTests/Fixtures") throws {
        let fonts = try FontLibrary()
        for recording in recordings {
            var options = ReplayCommand.Options(file: folder + "/" + recording.file)
            options.descriptionFile = recording.description.map { folder + "/" + $0 }
            options.positionAxes = recording.axes
            options.displayRate = 60
            // From the middle of the list: a drag either way moves it in its range (from the
            // top, a pull down only rubber-bands).
            options.startShare = 0.5
            let native = try EvemuRecording.load(path: options.file, descriptionPath: options.descriptionFile)
            for (rate, events) in [("native", native), ("25hz", decimated(native, interval: 0.040))] {
                // The finger as the sensor reported it: a filter's lag is part of what it costs.
                var unfiltered: ReplayCommand.Result?
                for setting in settings {
                    options.resample = setting.resample
                    options.sampling = setting.sampling
                    options.frameWindow = setting.window
                    options.filter = setting.filter
                    let result = try ReplayCommand.run(events, options, fonts: fonts)
                    if setting.filter == .off && unfiltered == nil { unfiltered = result }
                    let f = ReplayFeel(result, finger: setting.filter == .off ? nil : unfiltered)
                    print("case=feel recording=\(recording.name) rate=\(rate) setting=\(setting.name)"
                          + " lag_p50=\(format(f.lagP50)) lag_p95=\(format(f.lagP95))"
                          + " time_lag_p50=\(format(f.timeLagP50, digits: 1)) time_lag_p95=\(format(f.timeLagP95, digits: 1))"
                          + " judder=\(format(f.judder, digits: 3)) finger_judder=\(format(f.fingerJudder, digits: 3))"
                          + " excess_judder=\(format(f.excessJudder, digits: 3)) aligned_excess_judder=\(format(f.alignedExcessJudder, digits: 3))"
                          + " highpass_judder=\(format(f.highPassJudder, digits: 3)) finger_highpass_judder=\(format(f.fingerHighPassJudder, digits: 3))"
                          + " overshoot=\(format(f.overshoot)) lead=\(format(f.lead)) missed_vblanks=\(f.missedVblanks) frames=\(f.frames)")
                }
            }
        }
    }

    /// `recording` as a screen that reports every `interval` seconds would give it: its
    /// reports grouped by the tick they fall in and given at that tick, the first at its own
    /// time. A tick's reports are merged in order (multitouch protocol B and single touch
    /// send changes); under protocol A (SYN_MT_REPORT: every report is the whole state) only
    /// its last report is kept.
    static func decimated(_ recording: EvemuRecording, interval: Double) -> EvemuRecording {
        var groups: [[InputEvent]] = [], current: [InputEvent] = []
        for event in recording.events {
            current.append(event)
            if event.isSynReport { groups.append(current); current = [] }
        }
        guard let first = groups.first?.last?.microseconds else { return recording }
        let protocolA = recording.events.contains { $0.type == EventType.syn && $0.code == 2 }
        let step = Int64(interval * 1_000_000)
        var ticks: [(tick: Int64, events: [InputEvent])] = []
        for group in groups {
            guard let time = group.last?.microseconds else { continue }
            let tick = (time - first + step - 1) / step
            let body = group.filter { !$0.isSynReport }
            if let last = ticks.last, last.tick == tick {
                ticks[ticks.count - 1].events = protocolA ? body : last.events + body
            } else {
                ticks.append((tick, body))
            }
        }
        var events: [InputEvent] = []
        for (tick, body) in ticks {
            let time = first + tick * step
            for event in body { events.append(InputEvent(microseconds: time, type: event.type, code: event.code, value: event.value)) }
            events.append(InputEvent(microseconds: time, type: EventType.syn, code: SynCode.report, value: 0))
        }
        var result = recording
        result.events = events
        return result
    }

    /// `value` with `digits` decimals.
    static func format(_ value: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
}
