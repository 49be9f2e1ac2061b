import Glibc
import PanelDisplay
import PanelInput

/// The seat: VT switches on the groups path and logind's pauses and resumes.
extension KioskHost {
    /// The VT's switch signal: away (stop drawing and reading, drop DRM master, let the switch
    /// go on) or back (take them again, draw a full frame).
    func terminalSwitched() {
        guard let terminal else { return }
        let outcome = terminal.switchSignal(stopDrawing: { pause("another VT is in front") },
                                            startDrawing: { resume("a stray SIGUSR2: no switch was pending") })
        switch outcome {
        case .released: Log.info("VT \(terminal.number) switched away: not drawing, DRM master dropped, touchscreens closed")
        case .acquired: resume("VT \(terminal.number) is in front again")
        case .none: break
        }
    }

    /// logind's session has events: a paused or resumed card or touchscreen.
    public func sessionEvents(at time: Double) {
        entry(at: time) {
            guard let session else { return }
            for event in session.receive() { handle(event, of: session) }
        }
    }

    private func handle(_ event: LogindSession.Event, of session: LogindSession) {
        switch event {
        case let .pause(number, kind):
            if number.major == DeviceNumber.drmMajor {
                pause("logind paused the card \(number) (\(kind))")
            } else if number.major == DeviceNumber.inputMajor, let touchscreens {
                // (Its descriptor may have been revoked and read as gone already: then
                // the set has forgotten it, and the resume finds it again.)
                let nodes = touchscreens.nodes(of: number)
                stage.handle(touchscreens.suspend(nodes, now: clock.now))
                Log.info("touchscreen \(number) paused by logind (\(kind))")
                pausedInputs[number] = nodes
            }
            // "pause" waits for the answer before logind goes on; "force" and "gone" do not.
            if kind == "pause" { session.pauseComplete(number) }
        case let .resume(number, fd):
            if number.major == DeviceNumber.drmMajor {
                // The same open card as the host's own descriptor, master again.
                Glibc.close(fd)
                resume("logind resumed the card \(number)")
            } else if number.major == DeviceNumber.inputMajor {
                // A new descriptor (the old one was revoked): opened through it.
                session.keep(fd, for: number)
                resumeTouchscreen(number)
            } else {
                Glibc.close(fd)
            }
        }
    }

    /// A touchscreen logind resumed, opened again through the descriptor it gave. One whose
    /// revoked descriptor was read as gone before the pause arrived is looked up by udev.
    private func resumeTouchscreen(_ number: DeviceNumber) {
        guard let touchscreens else { return }
        let nodes = pausedInputs.removeValue(forKey: number) ?? []
        touchscreens.resume(nodes)
        if nodes.isEmpty {
            let found = ((try? TouchscreenDiscovery.list()) ?? []).filter { DeviceNumber(path: $0.node) == number }
            for info in found { stage.handle(touchscreens.handle(.added(info), now: clock.now)) }
        }
        let open = touchscreens.nodes(of: number)
        Log.info("touchscreen \(number) resumed by logind: " + (open.isEmpty ? "not opened again" : open.joined(separator: ", ")))
    }

    /// Stops drawing (DRM master given up) and reading the touchscreens (their contacts end
    /// cancelled); the UI goes on in memory.
    private func pause(_ why: String) {
        guard !isPaused else { return }
        isPaused = true
        display.pause()
        // Under logind each touchscreen is paused by its own event.
        if session == nil, let touchscreens { stage.handle(touchscreens.suspend(now: clock.now)) }
        stage.displayPaused(why)
    }

    /// Draws again: DRM master back, the mode set, a full frame; the touchscreens opened again.
    private func resume(_ why: String) {
        guard isPaused else { return }
        isPaused = false
        display.resume()
        if session == nil { touchscreens?.resume() }
        stage.displayResumed(why)
    }
}

extension TouchscreenSet {
    /// The nodes in use that are the device `number` (logind names devices by number).
    fileprivate func nodes(of number: DeviceNumber) -> [String] { nodes.filter { DeviceNumber(path: $0) == number } }
}
