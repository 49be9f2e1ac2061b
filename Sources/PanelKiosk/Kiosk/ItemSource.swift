import PanelHost

/// Where the list's items come from. `load` may complete later (in virtual time for the
/// built-in sample, from another thread for real sources), always on the main actor.
@MainActor
public protocol ItemSource: AnyObject {
    /// Loads page `page` (0 = first) of `pageSize` items; a page shorter than that means
    /// there is no more data. The answer may say the page is unchanged since this source's
    /// last answer for it (``ItemPage/isUnchanged``) and how long it is fresh.
    func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void)
}
