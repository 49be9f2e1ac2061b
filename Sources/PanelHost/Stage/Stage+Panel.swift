import PanelDisplay

/// The panel under the stage: blanking and the backlight, a panel that goes away and comes
/// back, another VT in front.
extension Stage {
    /// Turns the panel off now (`ctl blank`), as blanking after `display.blank-after` does: a
    /// touch, `wakeUp()` or new data turns it on again. False when it is off already.
    @discardableResult
    public func blankNow() -> Bool {
        guard !display.isBlank, !isStopped else { return false }
        blank(.asked)
        return display.isBlank
    }

    /// Turns the panel on now (`ctl wake`); false when it is on already.
    @discardableResult
    public func wakeUp() -> Bool {
        guard display.isBlank, !isStopped else { return false }
        wake()
        pump()
        return true
    }

    /// Panel and backlight off for `why`; STATUS says so.
    func blank(_ why: LightStatus.Off) {
        do {
            try display.setBlank(true)
        } catch {
            Log.error("display: cannot blank: \(error)")
            // Without blanking, do not try again at every wake-up: wait a whole period.
            activity(wakes: false)
            return
        }
        switchBacklight(on: false)
        light.off = why
        switch why {
        case .idle: Log.info("blanked the panel after \(TextFormat.number(blankAfter)) s without touch or data change")
        case .offHours: Log.info("blanked the panel for the off hours (\(light.settings.offHours.map { "\($0)" } ?? "")); a touch lights it")
        case .asked: Log.info("blanked the panel (asked)")
        }
        tell(.blank)
    }

    /// Panel and backlight on; the next frame draws everything.
    func wake() {
        do {
            try display.setBlank(false)
        } catch {
            Log.error("display: cannot wake: \(error)")
        }
        switchBacklight(on: true)
        light.off = nil
        // Lit in the off hours (a touch, ctl wake): on until idle again.
        if light.inOffHours { light.litInOffHours = clock.now }
        presenter.invalidate()
        activity(wakes: false)
        notifyShowing()
    }

    /// Blanks with `chosen` from now on (the host chooses it for each configuration): one
    /// replaced while the panel is blank gets its light back, and the new one goes off.
    public func use(backlight chosen: Backlight?) {
        guard chosen !== backlight else { return }
        if display.isBlank { switchBacklight(on: true) }
        replaceBacklight(with: chosen)
        if display.isBlank { switchBacklight(on: false) }
    }

    /// The display after a hotplug event: gone (drawing stops; input and data go on) or back
    /// at the same size (a full frame). Back at another size, the host also calls
    /// ``resize(width:height:)``.
    public func displayProbed(_ probe: DisplayProbe) {
        switch probe {
        case .unchanged: break
        case .disconnected:
            Log.warning("display: the panel went away; input and data go on")
            tell(.disconnected)
        case .connected:
            Log.info("display: the panel is back (\(display.summary))")
            presenter.invalidate()
            presenter.retryNow()
            notifyShowing()
            pump()
        }
    }

    /// Another VT is in front: nothing reaches the glass until `displayResumed`; what shows,
    /// its data and its animations go on in memory.
    public func displayPaused(_ why: String) {
        Log.info("display paused: \(why)")
        tell(.paused(reason: why))
    }

    /// The stage's VT is in front again: a full frame at once.
    public func displayResumed(_ why: String) {
        Log.info("display resumed: \(why)")
        presenter.invalidate()
        presenter.retryNow()
        notifyShowing()
        pump()
    }
}
