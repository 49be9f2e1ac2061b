import PanelUI

/// What the stage keeps of the burn-in shift between entries (``Stage/shift``).
struct ShiftControl {
    /// The configuration's keys.
    var settings = PixelShift()
    /// The step of the walk the picture is at.
    var step = 0
    /// When the picture last moved, or the shift was configured, seconds of the clock.
    var movedAt = -Double.infinity
}

/// Burn-in care on the stage: the picture moves a pixel every `display.shift-every` seconds
/// while nobody touches it (``PixelShift``), never under a finger or on a blank panel; each
/// step is a deadline of the loop (``nextShift``) and damages the whole screen. Touch is taken
/// back by the same amount (``Screen/contentShift``), so a tap lands on what it shows.
extension Stage {
    /// The burn-in shift in use.
    public var pixelShift: PixelShift { shift.settings }

    /// Where the picture is moved to now, points (pixels at scale 1).
    public var shiftOffset: Point { scene.screen.contentShift }

    /// Takes a configuration's shift keys (at the start and at a reload): the count starts
    /// now; turned off, the picture goes back to its place.
    func configureShift(_ settings: PixelShift) {
        guard settings != shift.settings else { return }
        shift = ShiftControl(settings: settings, step: 0, movedAt: clock.now)
        scene.screen.contentShift = .zero
        if settings.every > 0 {
            Log.info("burn-in care: the picture moves a pixel every \(TextFormat.number(settings.every)) s while untouched, at most \(settings.pixels) px")
        }
    }

    /// When the picture next moves, seconds of the clock; nil: never, or the panel is blank.
    var nextShift: Double? {
        guard shift.settings.every > 0, !display.isBlank else { return nil }
        return max(shift.movedAt, lastTouch ?? -.infinity) + shift.settings.every
    }

    /// At every entry: the next step when it is due and no finger is down.
    func followShift() {
        guard let due = nextShift, clock.now >= due, !scene.dispatcher.isTouching else { return }
        shift.step = (shift.step + 1) % shift.settings.period
        shift.movedAt = clock.now
        let offset = shift.settings.offset(atStep: shift.step)
        let scale = scene.screen.scale
        scene.screen.contentShift = Point(x: offset.x / scale, y: offset.y / scale)
    }
}
