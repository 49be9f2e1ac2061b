import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk
import PanelFeel
import PanelInput
import PanelDisplay
import PanelUI

/// Replays at the panel's cadence, and how the list follows the finger in them.
@MainActor
@Suite("Replays at a display rate, and the feel of a drag")
struct ReplayFeelTests {
    static let fonts = Result { try FontLibrary() }

    /// `file` (with `desc`) replayed from the middle of the list at `rate` frames a second.
    static func replay(_ file: String, desc: String? = nil, axes: (UInt16, UInt16)? = nil, resample: Bool,
                       rate: Double? = 60, window: FrameScheduler.Window = .fixed(FrameScheduler.defaultWindow),
                       sampling: TouchDispatcher.Sampling = .screen) throws -> ReplayCommand.Result {
        var options = ReplayCommand.Options(file: fixtures + "/" + file)
        options.frameWindow = window
        options.sampling = sampling
        options.descriptionFile = desc.map { fixtures + "/" + $0 }
        options.positionAxes = axes
        options.resample = resample
        options.displayRate = rate
        options.startShare = 0.5
        let recording = try EvemuRecording.load(path: options.file, descriptionPath: options.descriptionFile)
        return try ReplayCommand.run(recording, options, fonts: try fonts.get())
    }

    static func frameTimes(_ result: ReplayCommand.Result) -> [Double] {
        result.trace.compactMap { if case let .frame(t, _, _, _, _) = $0 { return t } else { return nil } }
    }

    @Test("at 60 Hz the frames of a drag reach the glass a period apart; with events, a frame for every event at its time")
    func cadence() throws {
        let paced = try Self.replay("02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", resample: false)
        let times = Self.frameTimes(paced)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        // While the finger moves (a frame waits for the one in flight), 16.7 ms apart.
        let even = gaps.filter { abs($0 - 1.0 / 60) < 1e-6 }.count
        #expect(Double(even) > Double(gaps.count) * 0.8, "\(even) of \(gaps.count) gaps are one period")
        #expect(gaps.allSatisfy { $0 >= 1.0 / 60 - 1e-6 }, "no two frames closer than a period")

        let events = try Self.replay("02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", resample: false, rate: nil)
        let panTimes = Set(events.trace.compactMap { if case let .pan(t, phase, _, _, _, _, _) = $0, phase == "changed" { return t } else { return nil } })
        let atEvents = Self.frameTimes(events).filter { panTimes.contains($0) }.count
        #expect(Double(atEvents) > Double(panTimes.count) * 0.9, "\(atEvents) frames at the \(panTimes.count) events' times")
        #expect(Self.frameTimes(events).count > times.count, "more frames than at 60 Hz")
    }

    @Test("resampled, the list on the Atmel drag moves by the finger's own steps: the judder the pipeline adds at least halved, p95 time lag no worse")
    func atmelDrag() throws {
        let off = ReplayFeel(try Self.replay("02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", resample: false))
        let on = ReplayFeel(try Self.replay("02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu", resample: true))
        #expect(off.frames > 100 && on.frames > 100)
        #expect(on.excessJudder <= off.excessJudder / 2, "excess judder \(on.excessJudder) against \(off.excessJudder)")
        #expect(on.judder < off.judder && abs(on.judder - on.fingerJudder) < 0.05,
                "judder \(on.judder) (off \(off.judder)), the finger's own \(on.fingerJudder)")
        // Time lag is what the eye sees; the lag in points follows the finger's speed, and the
        // Atmel's noise rule gives a few hundredths of a point of it back (7.52 against 7.52).
        #expect(on.timeLagP95 <= off.timeLagP95, "p95 time lag \(on.timeLagP95) ms against \(off.timeLagP95)")
        #expect(on.lagP95 <= off.lagP95 + 0.1, "p95 lag \(on.lagP95) pt against \(off.lagP95)")
    }

    @Test("no recording's drag shows the content past the finger at its lift by more than a point, resampled")
    func noOvershoot() throws {
        // Every golden-trace fixture but the taps.
        let drags = goldenTraceFixtures.filter { $0.name != "03-fast-taps" }
        #expect(drags.count == 5)
        for (_, file, desc, axes) in drags {
            let feel = ReplayFeel(try Self.replay(file, desc: desc, axes: axes, resample: true))
            #expect(feel.frames > 0, "\(file): frames in range")
            #expect(feel.overshoot <= 1, "\(file): \(feel.overshoot) px past the finger")
        }
    }

    @Test("frames start the window before their vblank: on the glass at vblanks, none missed, and the list's time lag cut against frames drawn right after the flip")
    func lateStart() throws {
        let file = "02-atmel-maxtouch.mt-b.1fg-drag-up-down.evemu"
        let late = try Self.replay(file, resample: true)
        let before = try Self.replay(file, resample: true, window: .off, sampling: .halfInterval)
        #expect(late.missedVblanks == 0)
        // Every frame on the glass at a vblank: a whole number of periods after the first.
        let times = Self.frameTimes(late)
        let first = try #require(times.first)
        for t in times {
            let periods = (t - first) * 60
            #expect(abs(periods - periods.rounded()) < 1e-6, "a frame at \(t), off the vblank grid")
        }
        let (a, b) = (ReplayFeel(late), ReplayFeel(before))
        #expect(a.timeLagP95 <= 16 && a.timeLagP95 < b.timeLagP95 * 0.7, "p95 time lag \(a.timeLagP95) ms against \(b.timeLagP95)")
        #expect(a.alignedExcessJudder <= 0.10 && a.overshoot <= 0.5 && a.lead <= 1,
                "judder added \(a.alignedExcessJudder), overshoot \(a.overshoot), lead \(a.lead)")
    }

    @Test("with the late start on, a tap's press is on the glass within 2 frame periods of the event that shows it")
    func tapPress() throws {
        let result = try Self.replay("03-atmel-maxtouch.mt-b.1fg-fast-taps.evemu", resample: true)
        // A quick tap shows its press at its lift (UITableView's order), a held one after the
        // press delay: the trace's press time is that moment.
        let presses = result.trace.compactMap { if case let .press(t, _, down) = $0, down { return t } else { return nil } }
        #expect(presses.count >= 5, "\(presses.count) presses")
        let frames = Self.frameTimes(result)
        for t in presses {
            let frame = try #require(frames.first { $0 > t + 1e-9 })
            #expect(frame - t <= 2.0 / 60 + 1e-9, "a press at \(t) on the glass at \(frame)")
        }
    }

    @Test("a paced replay is the same bytes twice")
    func deterministic() throws {
        let a = try Self.replay("05-elan-cando.mt-b.1fg-drag-up-down.events", desc: "05-elan-cando.desc", resample: true)
        let b = try Self.replay("05-elan-cando.mt-b.1fg-drag-up-down.events", desc: "05-elan-cando.desc", resample: true)
        #expect(a.trace.map(\.json) == b.trace.map(\.json))
    }
}
