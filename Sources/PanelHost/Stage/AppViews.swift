import PanelRefresh
import PanelUI

/// An app's own views as a stage's content: what its build closure added to the root view, and
/// the object it returned (its controller, data source and delegate, which the views hold
/// weakly, as UIKit does), typed and kept as long as the views. A reload never builds them
/// again; the renderer's limits, the language and the state directory reach them through the
/// stage. ``KioskHost/show(views:)`` makes one and hands the app its object back.
@MainActor
public final class AppViews<App>: StageContent {
    /// What the app's build closure returned.
    public let app: App
    /// The views it added to the root view.
    public let views: [View]

    /// The content of `views`, kept with `app`.
    public init(app: App, views: [View]) { (self.app, self.views) = (app, views) }

    /// The views are on the root view already (the build put them there); headers that keep
    /// their last-updated time in memory get the stage's file (`state.directory`), so the time
    /// survives a restart as the kiosk's does.
    public func attach(to stage: Stage) throws {
        for view in views { Self.keepTimes(in: view, store: stage.lastUpdatedStore) }
    }

    /// The views go with the root view's other subviews.
    public func detach(from stage: Stage) {}

    /// "the panel": an app's views have no count.
    public var contentStatus: ContentStatus { ContentStatus(showing: "the panel") }

    /// Gives `store` to every header under `view` whose time is kept in memory only.
    private static func keepTimes(in view: View, store: any LastUpdatedStore) {
        if let header = view as? RefreshHeader, header.lastUpdatedStore is InMemoryLastUpdatedStore, header.lastUpdatedTime == nil {
            header.lastUpdatedStore = store
        }
        for child in view.subviews { keepTimes(in: child, store: store) }
    }
}
