import PanelUI

extension RefreshComponent: ListThemed {
    /// Takes the list's theme (`ListView.theme`): its texts in the secondary colour, its
    /// arrows and spinners in the tint. A component added after the theme takes it when it is
    /// attached.
    public func apply(_ theme: ListTheme) {
        func walk(_ view: View) {
            for subview in view.subviews {
                switch subview {
                case let label as Label: label.textColor = theme.secondaryText
                case let spinner as ActivityIndicator: spinner.color = theme.tint
                case let picture as ImageView where picture.image?.artwork != nil: picture.tintColor = theme.tint
                default: break
                }
                walk(subview)
            }
        }
        walk(self)
    }
}
