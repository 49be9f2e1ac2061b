/// A row of a list with nothing in it: what every row has (its row, reuse, the press, the
/// selection and the tap that tells the list's delegate), and no view of its own. An app's
/// own row subclasses it and adds its views (UICollectionViewCell's place; `ListCell` is the
/// ready row with a title, subtitle, picture, detail and badge on top of it). The list makes
/// and configures such rows through `ListView.register(_:configure:)`, typed: no downcast.
@MainActor
open class RowCell: View, ListThemed {
    /// The row shown, or -1 when unused.
    public internal(set) var row = -1
    /// The list the row is in.
    public internal(set) weak var list: ListView?
    /// The shortest an automatic row gets, points (UITableView's 44).
    public var minimumHeight: Double = ListView.defaultRowHeight
    /// Whether the row shows as pressed (UITableViewCell's highlight: `highlightColor` over
    /// its background while a finger rests on it).
    public var isHighlighted = false { didSet { if isHighlighted != oldValue { updateBackground() } } }
    /// Whether the row is the list's selected row (`ListView.selectedRow`): `selectedColor`
    /// over its background until another row is selected.
    public var isSelected = false { didSet { if isSelected != oldValue { updateBackground() } } }
    /// The background of a pressed row: UIKit's systemGray4 (#D1D1D6), its selection colour.
    public var highlightColor = Color(red: 209, green: 209, blue: 214)
    /// The background of the selected row: UIKit's systemGray5 (#E5E5EA), one step lighter
    /// than the press, so a pressed selected row still shows the press.
    public var selectedColor = Color(red: 229, green: 229, blue: 234)
    /// The background the app gave the row, shown again when it is neither pressed nor selected.
    private var restingColor: Color?
    private var decorated = false

    /// An empty row, white.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
    }

    /// The press shows over the selection, the selection over the app's colour; the app's
    /// colour (set while the row was plain) comes back when both are gone.
    private func updateBackground() {
        let decoration = isHighlighted ? highlightColor : isSelected ? selectedColor : nil
        if let decoration {
            if !decorated { restingColor = backgroundColor }
            decorated = true
            backgroundColor = decoration
        } else if decorated {
            decorated = false
            backgroundColor = restingColor
        }
    }

    /// Takes the list's theme (`ListView.theme`): the background, press and selection
    /// colours. A subclass colours its own views too, and calls this.
    open func apply(_ theme: ListTheme) {
        highlightColor = theme.highlight
        selectedColor = theme.selection
        // Pressed or selected now: the theme's background comes when that ends.
        if decorated { restingColor = theme.background } else { backgroundColor = theme.background }
        updateBackground()
    }

    /// Clears what the previous row left before the row is configured for another: the press
    /// (the selection is set again by the list). Subclasses clear their own views and call this.
    open func prepareForReuse() {
        isHighlighted = false
        setNeedsLayout()
    }

    /// The row height the content needs at `width` (an automatic row's): `minimumHeight`
    /// unless a subclass measures its views.
    open func fittingHeight(width: Double) -> Double { minimumHeight }

    /// A row shows the press (UITableViewCell's highlight).
    open override var showsPress: Bool { true }

    /// Highlights the row while pressed.
    open override func setPressed(_ pressed: Bool) { isHighlighted = pressed }

    /// Selects the row when the list selects on tap, then tells the list's delegate.
    open override func handleTap(at point: Point) -> Bool {
        guard let list, row >= 0 else { return false }
        if list.selectsRowOnTap { list.selectedRow = row }
        list.delegate?.list(list, didSelectRow: row)
        return true
    }
}

