import Glibc
import PanelDisplay

/// Signals and reloads: what the real-time driver's signal pipe brings, for the program and for
/// every app.
extension KioskHost {
    /// What a signal asks of the driver.
    public enum SignalOutcome: Sendable, Equatable {
        /// Handled; the loop goes on.
        case handled
        /// The host stopped: the driver ends the process with this code.
        case exit(Int32)
    }

    /// A signal read from the signal pipe (``SignalPipe``): SIGHUP reloads (``onReload``, else
    /// the configuration file, else it says there is nothing to reload), SIGUSR1 logs the
    /// frame timings, SIGUSR2 is the VT's switch signal, SIGTERM and SIGINT stop cleanly
    /// (``stop()``). Nothing else comes through the pipe.
    public func signal(_ number: Int32, at time: Double) -> SignalOutcome {
        var outcome = SignalOutcome.handled
        entry(at: time) {
            switch number {
            case SIGHUP:
                // sd_notify's reload protocol: the service manager sees the reload begin and end
                // (`systemctl reload` of a Type=notify-reload unit waits for READY=1); STATUS
                // goes on saying where the stage stands.
                var reloading = "RELOADING=1"
                if let stopwatch = stage.stopwatch { reloading += "\nMONOTONIC_USEC=\(UInt64(max(0, stopwatch()) * 1_000_000))" }
                stage.notifier.notify(reloading)
                if let onReload { onReload() } else { reloadConfiguration() }
                stage.notifier.notify("READY=1")
            case SIGUSR1:
                stage.reportStatistics()
            case SIGUSR2:
                // The VT's switch signal (VT_PROCESS); without a VT a stray one, changing nothing.
                terminalSwitched()
            default:
                stop()
                outcome = .exit(0)
            }
        }
        return outcome
    }

    /// Stops cleanly: the app's ``onStop``, then STOPPING=1, the display given back (the
    /// CRTC as it was), the VT restored.
    public func stop() {
        guard !stage.isStopped else { return }
        Log.info("stopping")
        onStop?()
        stage.stop()
        terminal?.restore()
    }

    /// SIGHUP without ``onReload``: the configuration file read again and its keys applied in
    /// place (``reconfigure(_:)``); a file that does not read keeps the configuration in use.
    public func reloadConfiguration() {
        guard let path = configurationPath else {
            Log.info("reload: no configuration file: nothing to reload")
            return
        }
        let fresh: Configuration
        do {
            fresh = try Configuration.load(path: path)
        } catch {
            refuseReload(error)
            return
        }
        let changed = fresh.changedKeys(from: configuration)
        reconfigure(fresh)
        Log.info("reloaded \(path)" + (changed.isEmpty ? ": nothing changed" : ": " + changed.sorted().joined(separator: ", ")
            + " applied; the views kept"))
    }

    /// Takes a reloaded configuration's host keys: blanking, the backlight (looked up again),
    /// resampling, the renderer's limits, the language and the state directory in place; the
    /// display and input settings at the next start, as the journal says. STATUS goes on
    /// saying where the stage stands (a failure shown stays shown). Returns whether the
    /// content took them in place (``StageContent/reconfigure(_:)``).
    @discardableResult
    public func reconfigure(_ fresh: Configuration) -> Bool {
        if fresh.deviceSettings != configuration.deviceSettings {
            Log.warning("reload: input and display settings apply at the next start")
        }
        chooseBacklight(for: fresh, current: stage.backlight)
        configuration = fresh
        stage.reloadRefused = nil
        let kept = stage.reconfigure(fresh)
        stage.contentStatusChanged()
        return kept
    }

    /// A reload that cannot be taken: the journal and STATUS say why; what is in use stays.
    public func refuseReload(_ error: any Error) {
        Log.event(.reloadRefused, priority: 3, "reload: \(error); keeping the configuration in use",
                  fields: ["PANEL_REFRESH_ERROR": "\(error)"])
        stage.say("reload refused: \(error); keeping the configuration in use")
        // Kept for ctl status, the broker's status and the metrics, until a reload is taken:
        // STATUS= says it only until the next news.
        stage.reloadRefused = ("\(error)", stage.clock.date)
    }

    /// Gives the stage the backlight `c` blanks with, chosen at the start and at each reload
    /// (the one in use, `current`, kept when it is the same entry, with the brightness it
    /// remembers); the blanking is said when it changed. Without `backlightRoot`, nothing.
    func chooseBacklight(for c: Configuration, current: Backlight?) {
        guard let backlightRoot else { return }
        let chosen = Backlight.chosen(for: c, current: current, root: backlightRoot)
        let now = (after: c.blankAfter, backlight: chosen?.path)
        if c.blankAfter > 0, saidBlanking.map({ $0 != now }) ?? true {
            Log.info("blanking after \(c.blankAfter) s idle; backlight: \(chosen?.path ?? "none")")
        }
        saidBlanking = now
        stage.use(backlight: chosen)
    }
}
