// A scripted pull-to-refresh session through the PanelRefresh core, in virtual time: pull the
// list down to refresh, scroll to the end to load pages until there are no more, then switch
// the language. Prints every state change, callback and settled position.
import Foundation
import PanelRefresh

/// Seconds a (pretend) load takes, in virtual time.
let loadSeconds = 1.0

let scene = Scene(size: Size(width: 800, height: 480))
let list = ListView(frame: Rect(x: 0, y: 0, width: 800, height: 480), animator: scene.animator)
list.rowHeight = .fixed(60)
scene.screen.rootView.addSubview(list)
scene.dispatcher.scrollView = list

let data = SampleData(pageSize: 12, pageCount: 3)
data.reload()
list.dataSource = data
list.reloadData()

@MainActor func log(_ text: String) {
    print(String(format: "t=%6.3f  ", scene.clock.now) + text)
}

let header = NormalHeader()
let footer = AutoNormalFooter()
header.stateDidChangeHandler = { log("header  \($0.rawValue) -> \($1.rawValue)   \"\(header.stateLabel.text)\"") }
footer.stateDidChangeHandler = { log("footer  \($0.rawValue) -> \($1.rawValue)   \"\(footer.stateLabel.text)\"") }
header.refreshingAction = {
    log("header  refreshing callback: reloading")
    scene.animator.schedule(nil, after: loadSeconds) {
        data.reload()
        list.reloadData()
        header.endRefreshing()
    }
}
footer.refreshingAction = {
    log("footer  refreshing callback: loading page \(data.loadedPages + 1)")
    scene.animator.schedule(nil, after: loadSeconds) {
        data.loadNextPage()
        list.reloadData()
        if data.hasMore { footer.endRefreshing() } else { footer.endRefreshingWithNoMoreData() }
    }
}
header.endRefreshingCompletion = { log("header  closed; \(header.lastUpdatedTimeLabel.text)") }
list.header = header
list.footer = footer

scene.frame()
/// Points with one decimal; + 0 turns the -0.0 a clamp can leave into 0.0.
@MainActor func points(_ value: Double) -> String { String(format: "%.1f", value + 0) }

log("start: \(list.numberOfRows) rows, offset \(points(list.contentOffset.y))")

var script = GestureScript(start: 0.5)
// Pull down 200 px in 0.4 s and let go: the header arms and refreshes.
script.drag(from: Point(x: 400, y: 100), to: Point(x: 400, y: 300), duration: 0.4)
scene.play(script.frames)
scene.settle()
log("after refresh: offset \(points(list.contentOffset.y)), inset top \(points(list.adjustedContentInset.top))")

// Swipe up fast until every page is loaded.
var swipes = 0
while data.hasMore || footer.state == .refreshing, swipes < 20 {
    var swipe = GestureScript(start: scene.clock.now + 0.2)
    swipe.drag(from: Point(x: 400, y: 420), to: Point(x: 400, y: 60), duration: 0.12)
    scene.play(swipe.frames)
    scene.settle()
    swipes += 1
    log("swipe \(swipes): offset \(Int(list.contentOffset.y)) of max \(Int(list.maximumContentOffset.y)), \(list.numberOfRows) rows")
}

RefreshLocalizer.shared.language = RefreshLanguage(code: "zh_CN.UTF-8")
log("language \(RefreshLocalizer.shared.language.rawValue): header \"\(header.stateLabel.text)\", footer \"\(footer.stateLabel.text)\"")
log("done: \(scene.frameCount) frames drawn, header \(header.state.rawValue), footer \(footer.state.rawValue)")
