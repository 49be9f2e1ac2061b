import FoundationEssentials
import Glibc
import PanelRefresh
import PanelRender

/// The refresh components and rows the configuration asks for.
@MainActor
public enum Appearance {
    /// The header of `configuration.header`'s style, in the configured colour and font.
    public static func header(_ c: Configuration, localizer: RefreshLocalizer) throws -> StateHeader {
        let header: StateHeader
        switch c.header {
        case .normal: header = NormalHeader(localizer: localizer)
        case .state: header = StateHeader(localizer: localizer)
        case .gif:
            let gif = GifHeader(localizer: localizer)
            for (state, images) in try frames(c) { gif.setImages(images, for: state) }
            header = gif
        }
        for label in [header.stateLabel, header.lastUpdatedTimeLabel] { style(label, c) }
        if let path = c.twoLevelImage {
            // Read now: a missing or broken file is a configuration error, not a blank floor.
            let image: Surface
            do {
                image = try PNG.read(path: path)
            } catch {
                throw ConfigurationError(file: "", line: 0, message: "appearance.two-level: \(error)")
            }
            let page = ImageView()
            page.image = ImageReference(name: path, size: Size(width: Double(image.width), height: Double(image.height)))
            page.contentMode = .scaleAspectFit
            page.backgroundColor = .black
            header.twoLevelView = page
        }
        header.triggerDistance = c.triggerDistance
        header.twoLevelTriggerDistance = c.twoLevelDistance
        header.maxDragDistance = c.maxDragDistance
        header.automaticallyChangeAlpha = c.headerAutoAlpha
        header.position = c.headerPosition
        header.minimumRefreshingDuration = c.minimumRefreshingSeconds
        return header
    }

    /// The footer of `configuration.footer`'s style.
    public static func footer(_ c: Configuration, localizer: RefreshLocalizer) throws -> RefreshFooter {
        let footer: RefreshFooter
        switch c.footer {
        case .autoNormal: footer = AutoNormalFooter(localizer: localizer)
        case .autoState: footer = AutoStateFooter(localizer: localizer)
        case .autoGif:
            let gif = AutoGifFooter(localizer: localizer)
            for (state, images) in try frames(c) { gif.setImages(images, for: state) }
            footer = gif
        case .backNormal: footer = BackNormalFooter(localizer: localizer)
        case .backState: footer = BackStateFooter(localizer: localizer)
        case .backGif:
            let gif = BackGifFooter(localizer: localizer)
            for (state, images) in try frames(c) { gif.setImages(images, for: state) }
            footer = gif
        }
        if let titled = footer as? any StateTitled { style(titled.stateLabel, c) }
        if let auto = footer as? AutoFooter {
            auto.triggerAutomaticallyRefreshPercent = c.footerTriggerPercent
            auto.autoTriggerTimes = c.footerTriggerTimes
        }
        footer.hidesWhenContentNotFull = c.footerHidesWhenNotFull
        footer.minimumRefreshingDuration = c.minimumRefreshingSeconds
        return footer
    }

    /// The trailer of `configuration.trailer`'s style, for a horizontal list; nil: none.
    public static func trailer(_ c: Configuration, localizer: RefreshLocalizer) -> Trailer? {
        let trailer: StateTrailer
        switch c.trailer {
        case .none: return nil
        case .normal: trailer = NormalTrailer(localizer: localizer)
        case .state: trailer = StateTrailer(localizer: localizer)
        }
        style(trailer.stateLabel, c)
        trailer.minimumRefreshingDuration = c.minimumRefreshingSeconds
        return trailer
    }

    private static func style(_ label: Label, _ c: Configuration) {
        label.textColor = c.labelColor
        label.font = Font(family: c.font, size: label.font.size, weight: label.font.weight)
    }

    /// Row cells in the configured colours and font.
    public static func styleRows(_ list: ListView, _ c: Configuration) {
        list.rowHeight = .fixed(c.rowHeight)
        list.makeCell = {
            let cell = ListCell()
            cell.backgroundColor = c.background
            cell.titleLabel.textColor = c.textColor
            cell.titleLabel.font = Font(family: c.font, size: cell.titleLabel.font.size)
            cell.subtitleLabel.font = Font(family: c.font, size: cell.subtitleLabel.font.size)
            return cell
        }
    }

    /// The gif frames of `appearance.gif-frames`: idle-*.png, pulling-*.png, refreshing-*.png
    /// in name order, each at its size in the file.
    public static func frames(_ c: Configuration) throws -> [RefreshState: [ImageReference]] {
        guard let folder = c.gifFrames else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames is not set")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: cannot read \(folder)")
        }
        var result: [RefreshState: [ImageReference]] = [:]
        for (prefix, state) in [("idle-", RefreshState.idle), ("pulling-", .pulling), ("refreshing-", .refreshing)] {
            for name in names.filter({ $0.hasPrefix(prefix) && $0.hasSuffix(".png") }).sorted() {
                let path = folder + "/" + name
                let image: Surface
                do {
                    image = try PNG.read(path: path)
                } catch {
                    throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: \(error)")
                }
                result[state, default: []].append(ImageReference(name: path, size: Size(width: Double(image.width), height: Double(image.height))))
            }
        }
        guard result[.refreshing] != nil || result[.idle] != nil else {
            throw ConfigurationError(file: "", line: 0, message: "appearance.gif-frames: no idle-*.png or refreshing-*.png in \(folder)")
        }
        return result
    }
}
