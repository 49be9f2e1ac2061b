import PanelUI

extension RefreshComponent: ListThemed {
    /// Colours the component's own views with `theme` (``apply(_:)`` does it, and a subclass
    /// that overrides `apply` calls it first): its texts in the secondary colour, its arrows
    /// and spinners in the tint.
    public func applyToSubviews(_ theme: ListTheme) {
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
