import FoundationEssentials
import PanelHost

/// The demo's list: a station's departures board that shows what a kiosk does, with nothing
/// fetched from anywhere. Each row has its line's badge as a picture (drawn by the project's
/// own renderer into PNG files at the start, and loaded by the rows as any picture is), a
/// destination and its way, the time at the trailing edge, and a badge for a delay; a few
/// trains go to places written in Hebrew and Arabic, in their script and direction; a tap
/// opens the train's page. Loads take `delay` seconds of the scene's clock, and the one after
/// `failNext` is set fails, as a server out of reach does.
@MainActor
public final class DemoBoard: ItemSource {
    /// One train line: its name and colour.
    struct Line { var name: String; var color: Color }
    static let lines = [Line(name: "S1", color: Color(red: 0, green: 122, blue: 255)),
                        Line(name: "S3", color: Color(red: 52, green: 199, blue: 89)),
                        Line(name: "S7", color: Color(red: 255, green: 149, blue: 0)),
                        Line(name: "RE", color: Color(red: 255, green: 59, blue: 48)),
                        Line(name: "IC", color: Color(red: 88, green: 86, blue: 214)),
                        Line(name: "S9", color: Color(red: 175, green: 82, blue: 222))]
    /// Destinations, each with its way and its language (empty: the panel's).
    static let destinations: [(String, String, String)] = [
        ("Airport", "via Central · platform 4", ""), ("Harbour", "via Old Town · platform 2", ""),
        ("University", "via Park · platform 1", ""), ("חיפה", "דרך תל אביב · רציף 3", "he"),
        ("Lakeside", "via Mill Road · platform 5", ""), ("العقبة", "عبر المركز · رصيف ٦", "ar"),
        ("North Hills", "via Market · platform 2", ""), ("Stadium", "via Riverside · platform 7", ""),
        ("Zürich HB", "via Baden · platform 8", ""), ("Old Town", "via Bridge Street · platform 1", ""),
    ]

    /// Pages there are; the next is empty (no more data).
    public let pages: Int
    /// Seconds a load takes (on the animator's clock).
    public var delay: Double
    /// Whether the next load fails ("the server is unreachable").
    public var failNext = false
    private let animator: Animator
    private let pictures: [String]
    private var refreshes = 0
    /// When the board was made, Unix seconds (a whole minute).
    private let madeAt: Double

    /// A board of `pages` pages, its line badges drawn into PNG files in `folder` with `fonts`.
    public init(pages: Int = 3, delay: Double = 1, animator: Animator, folder: String, fonts: FontLibrary) throws {
        (self.pages, self.delay, self.animator) = (pages, delay, animator)
        // Whole minutes: the rows' times change at the clock's minutes.
        madeAt = (animator.clock.date.timeIntervalSince1970 / 60).rounded(.down) * 60
        pictures = try Self.lines.map { try Self.badge($0, folder: folder, fonts: fonts) }
    }

    /// The line's picture: its name in white, bold, on its colour, 480x270 pixels (16:9, as the
    /// detail page shows it; a row's square takes its middle), drawn by the renderer as any view is.
    static func badge(_ line: Line, folder: String, fonts: FontLibrary) throws -> String {
        let (width, height) = (480.0, 270.0)
        let scene = Scene(size: Size(width: width, height: height))
        scene.screen.textMeasurer = fonts
        let tile = View(frame: Rect(x: 0, y: 0, width: width, height: height))
        tile.backgroundColor = line.color
        let name = Label(frame: Rect(x: 0, y: 0, width: width, height: height))
        name.text = line.name
        name.font = .bold(120)
        name.textColor = .white
        name.alignment = .center
        tile.addSubview(name)
        scene.screen.rootView.addSubview(tile)
        scene.frame()
        let surface = Surface(width: Int(width), height: Int(height), format: .argb8888)
        Renderer(fonts: fonts).render(scene.screen, into: surface)
        let path = folder + "/line-\(line.name).png"
        try PNG.write(surface, to: path)
        return path
    }

    /// The departures of `page`, after `refreshes` refreshes: each refresh announces one more
    /// train at the top (train k leaves 15 + 3k minutes after the board was made), and each
    /// row's time reads from now ("in 5 min"), drawn again each minute.
    func departures(page: Int, pageSize: Int) -> [Item] {
        let count = page < pages - 1 ? pageSize : (page == pages - 1 ? pageSize / 2 : 0)
        return (0..<count).map { i in
            let k = page * pageSize + i - refreshes
            let n = k + Self.lines.count * Self.destinations.count
            let line = Self.lines[n % Self.lines.count]
            let (place, way, language) = Self.destinations[n % Self.destinations.count]
            let leaves = madeAt + Double(15 + 3 * k) * 60
            let time = ItemClock.neutral.clockText(Date(timeIntervalSince1970: leaves))
            let delayed = n % 5 == 2 ? "+\(n % 7 + 2)" : ""
            // A place in Hebrew or Arabic is the whole title, read from the right; its page says
            // its way and time in the same script.
            let english = language.isEmpty
            var item = Item(id: "train-\(k)", title: english ? "\(line.name) \(place)" : place, subtitle: way,
                            image: pictures[n % pictures.count], detail: "@\(Int64(leaves))", badge: delayed,
                            body: english
                                ? "\(line.name) to \(place), \(way).\nLeaves at \(time)\(delayed.isEmpty ? ", on time" : ", \(delayed) minutes late").\n"
                                    + "Every train of the line calls at each station on its way; the board refreshes by itself, and a pull asks at once."
                                : "\(way)\n\(time)")
            item.timed[.detail] = TimedText(pieces: [.time(TimeValue(seconds: leaves, isLocal: false), relative: true)])
            item.language = language
            return item
        }
    }

    /// Loads page `page` after `delay` seconds; the first page after a refresh shows the board a
    /// minute on. Fails once when `failNext` was set.
    public func load(page: Int, pageSize: Int, completion: @escaping @MainActor (Result<ItemPage, Error>) -> Void) {
        let failing = failNext
        failNext = false
        if page == 0 && !failing { refreshes += 1 }
        animator.schedule(nil, after: delay) { [weak self] in
            guard let self else { return }
            if failing {
                completion(.failure(DataSourceError.unreachable(source: "https://departures.example/board",
                                                                 reason: "Could not resolve host: departures.example")))
            } else {
                completion(.success(ItemPage(items: self.departures(page: page, pageSize: pageSize))))
            }
        }
    }
}
