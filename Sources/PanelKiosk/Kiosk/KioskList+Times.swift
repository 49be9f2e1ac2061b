import FoundationEssentials
import PanelHost

/// The rows' times: texts that read from now ("in 5 min") or at the local time, drawn again at
/// each whole minute of the calendar, and items dropped once their `rows.expires` time has
/// passed, without a refresh. The minute is a deadline of the host: a list without times wakes
/// nobody.
extension KioskList {
    /// The panel's clock as rows show times: the machine's zone, the list's language.
    var itemClock: ItemClock {
        let utc: @Sendable (Date) -> Int = { _ in 0 }
        return ItemClock(utcOffset: stage?.machine.utcOffset ?? utc, language: statusView.localizer.language)
    }

    /// `page` without the items whose expiry (plus `expiresAfter`) has passed.
    func unexpired(_ page: [Item]) -> [Item] {
        let clock = itemClock, now = scene.clock.date
        return page.filter { item in
            guard let expires = item.expires else { return true }
            return expires.date(utcOffset: clock.utcOffset).addingTimeInterval(expiresAfter) > now
        }
    }

    /// When the rows' times next read otherwise (the next whole minute), seconds of the clock;
    /// nil when no row has a time.
    var nextTimesTick: Double? {
        guard hasTimedRows || board?.showsClock == true else { return nil }
        let date = scene.clock.date
        return scene.clock.now + ItemClock.nextMinute(after: date).timeIntervalSince(date)
    }

    /// At every entry: in a new minute, the items past their expiry leave (the reader's place
    /// kept as a refresh keeps it) and the rows on screen are drawn again with their times.
    func tickTimes() {
        guard hasTimedRows || board?.showsClock == true else { return }
        let minute = (scene.clock.date.timeIntervalSince1970 / 60).rounded(.down)
        guard minute != timesMinute else { return }
        timesMinute = minute
        board?.show(time: scene.clock.date, clock: itemClock)
        guard hasTimedRows else { return }
        let kept = unexpired(items)
        if kept.count != items.count {
            let anchor = list.placeAnchor()
            let dropped = items.count - kept.count
            items = kept
            list.reloadData(keeping: anchor)
            Log.info("rows: \(dropped) item\(dropped == 1 ? "" : "s") past \(dropped == 1 ? "its" : "their") time left the list")
            statusView.status = items.isEmpty ? .empty : nil
            onItemsChanged?()
        } else {
            list.reloadRows(list.visibleCells.keys)
        }
        detailPage?.showFacts(now: scene.clock.date, clock: itemClock, badge: badgeStyle)
    }
}
