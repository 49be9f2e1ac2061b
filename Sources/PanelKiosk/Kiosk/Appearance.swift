import Glibc
import PanelHost

/// The refresh components and rows the configuration asks for.
@MainActor
public enum Appearance {
    /// The header of `configuration.header`'s style, in the configured colour and font.
    /// - Parameters:
    ///   - c: the configuration.
    ///   - localizer: the texts' language.
    ///   - screen: the screen's size in pixels, for the second floor's budget; nil: not
    ///     known yet (only `limits.image-pixels` applies).
    public static func header(_ c: KioskConfiguration, localizer: RefreshLocalizer, screen: (width: Int, height: Int)? = nil) throws -> StateHeader {
        let header: StateHeader
        switch c.header {
        case .normal: header = NormalHeader(localizer: localizer)
        case .state: header = StateHeader(localizer: localizer)
        case .gif: header = try animated(GifHeader(localizer: localizer), c)
        }
        for label in [header.stateLabel, header.lastUpdatedTimeLabel] { style(label, c) }
        if let path = c.twoLevelImage {
            let size = try twoLevelImageSize(path, c, screen: screen)
            let page = ImageView()
            page.image = ImageReference(name: path, size: Size(width: Double(size.width), height: Double(size.height)))
            page.contentMode = .scaleAspectFit
            page.backgroundColor = .black
            header.twoLevelView = page
        }
        header.position = c.headerPosition
        tune(header, c)
        return header
    }

    /// The header's `[refresh]` options: a reload that changes only these takes them in place.
    public static func tune(_ header: StateHeader, _ c: KioskConfiguration) {
        header.triggerDistance = c.triggerDistance
        header.twoLevelTriggerDistance = c.twoLevelDistance
        header.maxDragDistance = c.maxDragDistance
        header.automaticallyChangeAlpha = c.headerAutoAlpha
        header.minimumRefreshingDuration = c.minimumRefreshingSeconds
    }

    /// The footer of `configuration.footer`'s style.
    public static func footer(_ c: KioskConfiguration, localizer: RefreshLocalizer) throws -> RefreshFooter {
        let footer: RefreshFooter
        switch c.footer {
        case .autoNormal: footer = AutoNormalFooter(localizer: localizer)
        case .autoState: footer = AutoStateFooter(localizer: localizer)
        case .autoGif: footer = try animated(AutoGifFooter(localizer: localizer), c)
        case .backNormal: footer = BackNormalFooter(localizer: localizer)
        case .backState: footer = BackStateFooter(localizer: localizer)
        case .backGif: footer = try animated(BackGifFooter(localizer: localizer), c)
        }
        if let titled = footer as? any StateTitled { style(titled.stateLabel, c) }
        tune(footer, c)
        return footer
    }

    /// The footer's `[refresh]` options: a reload that changes only these takes them in place.
    public static func tune(_ footer: RefreshFooter, _ c: KioskConfiguration) {
        if let auto = footer as? AutoFooter {
            auto.triggerAutomaticallyRefreshPercent = c.footerTriggerPercent
            auto.autoTriggerTimes = c.footerTriggerTimes
        }
        footer.hidesWhenContentNotFull = c.footerHidesWhenNotFull
        footer.minimumRefreshingDuration = c.minimumRefreshingSeconds
        footer.triggerDistance = c.footerTriggerDistance
        footer.maxDragDistance = c.footerMaxDragDistance
    }

    /// The trailer of `configuration.trailer`'s style, for a horizontal list; nil: none.
    public static func trailer(_ c: KioskConfiguration, localizer: RefreshLocalizer) -> Trailer? {
        let trailer: StateTrailer
        switch c.trailer {
        case .none: return nil
        case .normal: trailer = NormalTrailer(localizer: localizer)
        case .state: trailer = StateTrailer(localizer: localizer)
        }
        style(trailer.stateLabel, c)
        tune(trailer, c)
        return trailer
    }

    /// The trailer's `[refresh]` options: a reload that changes only these takes them in place.
    public static func tune(_ trailer: Trailer, _ c: KioskConfiguration) {
        trailer.minimumRefreshingDuration = c.minimumRefreshingSeconds
        trailer.triggerDistance = c.trailerTriggerDistance
        trailer.maxDragDistance = c.trailerMaxDragDistance
    }

    /// The second floor's image size from its header, read now: a missing, special, broken or
    /// oversized file is a configuration error, not a blank floor (or an allocation that ends
    /// the program).
    public static func twoLevelImageSize(_ path: String, _ c: KioskConfiguration, screen: (width: Int, height: Int)?) throws -> (width: Int, height: Int) {
        do {
            return try PNG.size(path: path, maxPixels: twoLevelPixelBudget(c, screen: screen))
        } catch {
            let hint = if case .imageTooLarge = error { " (limits.image-pixels, and four times the screen's pixels)" } else { "" }
            throw ConfigurationError(file: "", line: 0, message: "appearance.two-level: \(error)" + hint)
        }
    }

    /// The most pixels the second floor's image may have: `limits.image-pixels`, and four times
    /// the screen's pixels (an image twice the screen's width and height), since it is shown
    /// scaled to fit the screen and more pixels only cost memory.
    public static func twoLevelPixelBudget(_ c: KioskConfiguration, screen: (width: Int, height: Int)?) -> Int {
        guard let screen else { return c.maxImagePixels }
        return min(c.maxImagePixels, max(1, screen.width) * max(1, screen.height) * 4)
    }

    private static func style(_ label: Label, _ c: KioskConfiguration) {
        label.textColor = c.labelColor
        label.font = Font(family: c.font, size: label.font.size, weight: label.font.weight)
    }

    /// Row cells in the configured colours and font.
    public static func styleRows(_ list: ListView, _ c: KioskConfiguration) {
        // Texts of more than one line size their rows (vertical lists; columns keep their width).
        // So do pictures taller than the rows (their 8-point margins included).
        // Larger text makes its rows taller: they are measured (a board read from 3 m).
        let wraps = c.titleLines != 1 || c.subtitleLines != 1 || c.imageSize + 16 > c.rowHeight || c.textScale > 1
        list.rowHeight = wraps && list.orientation == .vertical ? .automatic(estimated: c.rowHeight) : .fixed(c.rowHeight)
        let scale = c.textScale
        list.makeCell = {
            let cell = ListCell()
            cell.titleLabel.numberOfLines = c.titleLines
            cell.subtitleLabel.numberOfLines = c.subtitleLines
            cell.minimumHeight = c.rowHeight
            cell.backgroundColor = c.background
            cell.titleLabel.textColor = c.textColor
            for label in [cell.titleLabel, cell.subtitleLabel, cell.detailLabel, cell.badgeLabel] {
                label.font = Font(family: c.font, size: (label.font.size * scale).rounded(), weight: label.font.weight)
            }
            return cell
        }
        // The dark theme's colours replace the light rows' (background, text-color).
        if c.theme == .dark { list.theme = .dark }
        list.reloadData()
    }

    /// `component` with `appearance.gif-frames`' pictures for each state.
    static func animated<Component: GifAnimated>(_ component: Component, _ c: KioskConfiguration) throws -> Component {
        for (state, images) in try frames(c) { component.setImages(images, for: state) }
        return component
    }

    /// The gif frames of `appearance.gif-frames`: idle-*.png, pulling-*.png, refreshing-*.png
    /// in name order, each at its size in the file. Only the headers are read here (the
    /// renderer decodes a frame when it is drawn, at the size it is drawn, into its bounded
    /// cache); a folder with more than `limits.gif-frames` frames, or frames that would take
    /// more than `limits.gif-mb` decoded, is a configuration error.
    public static func frames(_ c: KioskConfiguration) throws -> [RefreshState: [ImageReference]] {
        guard let folder = c.gifFrames else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames is not set")
        }
        guard let names = DirectoryNames.of(folder) else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: cannot read \(folder)")
        }
        func fail(_ message: String) -> ConfigurationError { ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: \(message)") }
        var result: [RefreshState: [ImageReference]] = [:]
        var count = 0, bytes = 0
        for (prefix, state) in [("idle-", RefreshState.idle), ("pulling-", .pulling), ("refreshing-", .refreshing)] {
            for name in names.filter({ $0.hasPrefix(prefix) && $0.hasSuffix(".png") }).sorted() {
                count += 1
                guard count <= c.gifMaxFrames else {
                    throw fail("\(folder) holds more than \(c.gifMaxFrames) frames (limits.gif-frames)")
                }
                let path = folder + "/" + name
                let size: (width: Int, height: Int)
                do {
                    size = try PNG.size(path: path, maxPixels: c.maxImagePixels)
                } catch {
                    let hint = if case .imageTooLarge = error { " (limits.image-pixels)" } else { "" }
                    throw fail("\(error)" + hint)
                }
                bytes += size.width * size.height * 4
                guard bytes <= c.gifMaxBytes else {
                    throw fail("the frames in \(folder) would take more than \(c.gifMaxBytes >> 20) MiB decoded (limits.gif-mb)")
                }
                result[state, default: []].append(ImageReference(name: path, size: Size(width: Double(size.width), height: Double(size.height))))
            }
        }
        guard result[.refreshing] != nil || result[.idle] != nil else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: no idle-*.png or refreshing-*.png in \(folder)")
        }
        return result
    }
}
