import FoundationEssentials
import PanelHost

/// The last good list, kept in the state directory (`last-list.jsonl`): written whole, off the
/// loop, to a new file renamed over the old one after every refresh that changed the list;
/// read at the start and shown before any source answers, with its age in the banner ("items
/// from 07:42"), then refreshed without the header. Power cuts and network outages come
/// together: a board after a reboot shows what it showed, not "Loading…".
///
/// The file is JSON lines: `{"savedAt":UNIX}` first, then each item's object as the source
/// sent it; it is read with the configured row fields, so a reload that renames them reads it
/// anew. Items made by the program itself (the sample source) are not kept.
extension KioskList {
    /// The kept list's file in `directory`.
    public static func keptListPath(in directory: String) -> String { directory + "/last-list.jsonl" }

    /// Writes the items shown now, off the loop (the file may be megabytes); a failure is logged once per cause.
    func keepList() {
        guard let path = keptListPath, let executor = stage?.executor else { return }
        var bytes = Array("{\"savedAt\":\(Int64(scene.clock.date.timeIntervalSince1970))}\n".utf8)
        for item in items {
            guard let json = item.sourceJSON else { return }
            bytes += json
            bytes.append(0x0a)
        }
        let document = bytes
        executor.execute(in: nil, {
            Result { () throws(AtomicFile.Failure) -> Void in try AtomicFile.write(document, to: path) }
        }, then: { [weak self] result in
            guard case .failure(let error) = result else {
                self?.keptListTrouble = nil
                return
            }
            let said = "the last good list is not kept: \(path): \(error)"
            if self?.keptListTrouble != said { Log.warning(said) }
            self?.keptListTrouble = said
        })
    }

    /// Shows the kept list, when there is one the row fields can read: true when it shows.
    /// Its time is the items' time (the banner says it until a refresh succeeds).
    func showKeptList() -> Bool {
        guard let path = keptListPath, items.isEmpty,
              let bytes = try? BoundedFile.read(path, limit: ItemParser.maxBytes) else { return false }
        guard let end = bytes.firstIndex(of: 0x0a), case .object(let header)? = try? JSONValue.parse(bytes[..<end]),
              let saved = header["savedAt"]?.number else {
            Log.warning("\(path): not a kept list; the list waits for its source")
            return false
        }
        var fields = keptListFields
        fields.list = []
        let kept: [Item]
        do {
            let rest = bytes[(end + 1)...]
            kept = rest.allSatisfy({ $0 == 0x0a }) ? [] : try ItemParser.parse(rest, source: path, fields: fields)
        } catch {
            Log.warning("the kept list cannot be read with the rows' fields: \(error); the list waits for its source")
            return false
        }
        items = unexpired(kept)
        guard !items.isEmpty else { return false }
        showsPictures = items.contains { !$0.image.isEmpty }
        itemsDate = Date(timeIntervalSince1970: saved)
        keptListShown = true
        list.reloadData()
        statusView.status = nil
        let age = scene.clock.date.timeIntervalSince1970 - saved
        Log.info("showing the last good list: \(items.count) items from \(TextFormat.number((age / 60).rounded())) min ago, until the source answers")
        showBanner(nil)
        return true
    }
}
