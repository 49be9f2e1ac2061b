/// The colours of a list, its rows and its refresh components in one value: a dark board is
/// `list.theme = .dark`, not a colour set on each cell, label and component. The values are
/// UIKit's system colours, light and dark (Apple's Human Interface Guidelines, "Color").
public struct ListTheme: Sendable, Hashable {
    /// The list's and the rows' background (systemBackground).
    public var background: Color
    /// Titles (label).
    public var text: Color
    /// Subtitles, details and the refresh components' texts (secondaryLabel, opaque).
    public var secondaryText: Color
    /// The line under each row (separator, opaque).
    public var separator: Color
    /// A pressed row (systemGray4).
    public var highlight: Color
    /// The selected row (systemGray5).
    public var selection: Color
    /// The refresh components' spinners and pictures drawn as artwork (an arrow beside a text
    /// takes the text's colour, as MJRefresh's does).
    public var tint: Color

    /// A theme of these colours.
    public init(background: Color, text: Color, secondaryText: Color, separator: Color, highlight: Color, selection: Color, tint: Color) {
        (self.background, self.text, self.secondaryText, self.separator) = (background, text, secondaryText, separator)
        (self.highlight, self.selection, self.tint) = (highlight, selection, tint)
    }

    /// Black on white: the rows' own defaults.
    public static let light = ListTheme(background: .white, text: .black, secondaryText: Color(red: 110, green: 110, blue: 115),
                                        separator: .separator, highlight: Color(red: 209, green: 209, blue: 214),
                                        selection: Color(red: 229, green: 229, blue: 234), tint: Color(red: 90, green: 90, blue: 90))
    /// White on black, for a board in a dim hall: iOS's dark system colours (#000000,
    /// #FFFFFF, #98989F, #38383A, #3A3A3C, #2C2C2E; the tint #AEAEB2).
    public static let dark = ListTheme(background: .black, text: .white, secondaryText: Color(red: 152, green: 152, blue: 159),
                                       separator: Color(red: 56, green: 56, blue: 58), highlight: Color(red: 58, green: 58, blue: 60),
                                       selection: Color(red: 44, green: 44, blue: 46), tint: Color(red: 174, green: 174, blue: 178))
}

/// A view that takes a list's theme: its rows, and the refresh components on the list.
@MainActor
public protocol ListThemed: AnyObject {
    /// Takes `theme`'s colours.
    func apply(_ theme: ListTheme)
}
