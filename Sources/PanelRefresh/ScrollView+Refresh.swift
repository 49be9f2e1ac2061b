/// `scrollView.header / .footer / .trailer`: MJRefresh's `mj_header` and friends. Setting one
/// replaces the previous one; components sit at subview index 0, below the content.
extension ScrollView {
    /// The pull-to-refresh header above the content (MJRefresh's `mj_header`).
    public var header: RefreshHeader? {
        get { subviews.lazy.compactMap { $0 as? RefreshHeader }.first }
        set { replaceComponent(header, with: newValue) }
    }

    /// The footer after the content (MJRefresh's `mj_footer`).
    public var footer: RefreshFooter? {
        get { subviews.lazy.compactMap { $0 as? RefreshFooter }.first }
        set { replaceComponent(footer, with: newValue) }
    }

    /// The trailer after the last column of a horizontal list (MJRefresh's `mj_trailer`).
    public var trailer: Trailer? {
        get { subviews.lazy.compactMap { $0 as? Trailer }.first }
        set { replaceComponent(trailer, with: newValue) }
    }

    private func replaceComponent(_ old: RefreshComponent?, with new: RefreshComponent?) {
        guard old !== new else { return }
        old?.removeFromSuperview()
        if let new { insertSubview(new, at: 0) }
    }
}
