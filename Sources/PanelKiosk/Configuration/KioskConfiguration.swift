import Glibc
import PanelHost

/// Everything an operator can set for the kiosk program, with the defaults of a fresh install:
/// the host's keys (``host``: the display, the touchscreens, the language, the pictures' limits,
/// the state directory), read through to as if they were its own (`configuration.blankAfter`),
/// and the program's own: its data source, rows, list, refreshes, broker, control socket and
/// metrics. See docs/configuration.md (a test checks that it documents every key).
@dynamicMemberLookup
public struct KioskConfiguration: KeyedConfiguration {
    /// The host's part: what an app's configuration holds too.
    public var host = Configuration()

    /// A host setting, read and written through (`configuration.blankAfter`).
    public subscript<T>(dynamicMember path: WritableKeyPath<Configuration, T>) -> T {
        get { host[keyPath: path] }
        set { host[keyPath: path] = newValue }
    }

    /// Where the items come from (`data.source`).
    public enum SourceKind: String, Sendable, CaseIterable {
        /// Made-up items (``SampleItemSource``).
        case sample
        /// A program's output (``CommandItemSource``).
        case command
        /// A JSON file (``FileItemSource``).
        case file
        /// A JSON document over HTTP(S) (``HTTPItemSource``).
        case http
        /// A JSON document pushed by an MQTT broker on `data.mqtt-topic` (``MQTTListSource``).
        case mqtt
    }
    /// The header's look (`appearance.header`): MJRefresh's normal, state and gif headers.
    public enum HeaderStyle: String, Sendable, CaseIterable {
        /// Arrow, spinner, state text and last-updated line.
        case normal
        /// State text and last-updated line.
        case state
        /// Frames from `appearance.gif-frames`.
        case gif
    }
    /// The footer's look and kind (`appearance.footer`): auto footers load when scrolled into
    /// view, back footers when pulled.
    public enum FooterStyle: String, Sendable, CaseIterable {
        /// Auto footer with spinner and text.
        case autoNormal = "auto-normal"
        /// Auto footer with text.
        case autoState = "auto-state"
        /// Auto footer with frames.
        case autoGif = "auto-gif"
        /// Back footer with arrow, spinner and text.
        case backNormal = "back-normal"
        /// Back footer with text.
        case backState = "back-state"
        /// Back footer with frames.
        case backGif = "back-gif"
    }
    /// The trailer of a horizontal list (MJRefreshNormalTrailer, MJRefreshStateTrailer, none).
    public enum TrailerStyle: String, Sendable, CaseIterable {
        /// Arrow and vertical text.
        case normal
        /// Vertical text only.
        case state
        /// No trailer: the first page only.
        case none
    }
    /// Which way the list runs.
    public enum Orientation: String, Sendable, CaseIterable {
        /// Rows, with header and footer.
        case vertical
        /// Columns, with the trailer.
        case horizontal
    }

    // [data]
    /// `data.source`: where items come from.
    public var source: SourceKind = .sample
    /// `data.command`: the program and its arguments.
    public var command: [String] = []
    /// `data.file`: a JSON file of items.
    public var file: String?
    /// `data.url`: an http(s) URL of a JSON document.
    public var url: String?
    /// A file holding the HTTP password (absolute, or a credential's name in
    /// `$CREDENTIALS_DIRECTORY`); nil: the URL's own, if any.
    public var urlPasswordFile: String?
    /// `data.header-file`: a file of extra HTTP request headers (absolute, or a credential's
    /// name in `$CREDENTIALS_DIRECTORY`); nil: none.
    public var headerFile: String?
    /// `data.redirect-headers`: names of the header file's headers that may follow a redirect
    /// to another host; the rest go to `data.url`'s own origin only. Default none.
    public var redirectHeaders: [String] = []
    /// `data.mqtt-url`: the MQTT broker (`mqtt://host:port`, `mqtts://host:port`), for the
    /// mqtt source and for presence beside any source; nil: no broker.
    public var mqttBroker: MQTTAddress?
    /// `data.mqtt-topic`: the topic whose messages are the list (normally retained).
    public var mqttTopic: String?
    /// `data.mqtt-user`: the user the broker knows the panel as; nil: none.
    public var mqttUser: String?
    /// `data.mqtt-password-file`: the broker password's file (absolute, or a credential's name
    /// in `$CREDENTIALS_DIRECTORY`).
    public var mqttPasswordFile: String?
    /// `data.mqtt-client-id`: the panel's client id; nil: derived from the machine id.
    public var mqttClientID: String?
    /// `data.mqtt-ca-file`: a CA certificate (PEM) the broker's must chain to (`mqtts://`);
    /// nil: the system's CAs.
    public var mqttCAFile: String?
    /// `mqtt.status-topic`: where the panel's state is published, retained; `CLIENT-ID` in it is
    /// the client id. nil: `panel-refresh/CLIENT-ID/status`.
    public var mqttStatusTopic: String?
    /// `mqtt.stale-after`: seconds without the broker before the banner says the panel is
    /// offline.
    public var mqttStaleAfter: Double = 120
    /// `mqtt.tap-topic`: where `rows.tap = publish` sends a tapped item; `CLIENT-ID` in it is
    /// the client id. nil: `panel-refresh/CLIENT-ID/tap`.
    public var mqttTapTopic: String?
    /// `mqtt.commands`: whether the words on `mqtt.command-topic` (those `FleetLink.knownCommands` names)
    /// act as `panel-refresh ctl` does. Off by default: whoever may publish there may blank the panel.
    public var mqttCommands = false
    /// `mqtt.screenshot-max-kb`: the largest screenshot published over the broker, KiB.
    public var mqttScreenshotMaxKB = 1024
    /// `mqtt.interval-range`: the refresh intervals `interval N` may set, seconds.
    public var mqttIntervalRange: ClosedRange<Double> = 60...3600
    /// `mqtt.discovery`: whether the panel announces itself to Home Assistant (MQTT discovery).
    public var mqttDiscovery = false
    /// `mqtt.discovery-prefix`: Home Assistant's discovery prefix.
    public var mqttDiscoveryPrefix = HomeAssistantDiscovery.defaultPrefix
    /// `mqtt.command-topic`: where commands come; `CLIENT-ID` in it is the client id. nil:
    /// `panel-refresh/CLIENT-ID/command`.
    public var mqttCommandTopic: String?
    /// `refresh.trigger-topic`: a message there starts a refresh of any source after a random
    /// delay of up to `refresh.trigger-jitter` seconds; nil: none.
    public var refreshTriggerTopic: String?
    /// `refresh.trigger-jitter`: the longest delay before a triggered refresh, seconds.
    public var refreshTriggerJitter: Double = 5
    /// `data.timeout`: seconds a command or request may take.
    public var timeout: Double = 10
    /// `panel.name`: the panel's name; nil: the machine's host name.
    public var panelName: String?
    /// `data.stale-after`: seconds a failing file, command or HTTP source is let be before the
    /// banner says since when the panel has had no answer; 0: each failed refresh is said at once.
    public var staleAfter = 0.0
    /// `data.page-size`: items per page.
    public var pageSize = 20
    /// `data.refresh-seconds`: how long the sample source takes, seconds.
    public var refreshSeconds = 1.0
    /// `[rows]`' title, subtitle, image, detail, badge, body, id and lang: the item fields a
    /// row and its detail page show, and those that identify an item and name its language.
    public var rowFields = ItemParser.Fields()

    /// A row key's value: a field's name as it is, or a template checked here (its braces and formats).
    static func template(_ spec: String) throws(ConfigurationValueError) -> String {
        if FieldTemplate.isTemplate(spec) { _ = try FieldTemplate(spec) }
        return spec
    }
    /// What a tap on a row does (`rows.tap`).
    public enum TapAction: String, Sendable, CaseIterable {
        /// Nothing (a trace line).
        case none
        /// The item's detail page.
        case detail
        /// `rows.tap-command` with the item.
        case command
        /// The item's JSON published to `mqtt.tap-topic`.
        case publish
    }
    /// `rows.tap`: what a tap on a row does.
    public var tapAction = TapAction.none
    /// `rows.tap-command`: the program and arguments run for a tapped row.
    public var tapCommand: [String] = []
    /// `rows.tap-timeout`: seconds a tap command may take.
    public var tapTimeout = 10.0
    /// `rows.image-size`: the picture's side, points: 56 (a list thumbnail of iOS's and
    /// Android's medium list items).
    public var imageSize = 56.0
    /// How badges show by their value (`rows.badge-hide`, `rows.badge-colors`).
    public var badgeStyle = BadgeStyle()
    /// Seconds an item stays past its `rows.expires` time.
    public var expiresAfter = 0.0
    // [list]
    /// Vertical: rows with header and footer; horizontal: columns with a trailer.
    public var orientation: Orientation = .vertical
    // [appearance]
    /// `appearance.header`.
    public var header: HeaderStyle = .normal
    /// `appearance.footer`.
    public var footer: FooterStyle = .autoNormal
    /// `appearance.gif-frames`: the folder of the gif styles' frames.
    public var gifFrames: String?
    /// A PNG shown as the header's second floor (two-level refresh); nil: off.
    public var twoLevelImage: String?
    /// Where the header is while it shows: push, behind or front.
    public var headerPosition: RefreshHeader.Position = .push
    /// The trailer of a horizontal list.
    public var trailer: TrailerStyle = .normal
    /// `appearance.home-after`: seconds without a touch before the list goes back to its start; 0: never.
    public var homeAfter = 120.0
    /// `appearance.page-every`: seconds without a touch between an untouched board's moves
    /// by a screen; 0: never.
    public var pageEvery = 0.0
    /// `state.keep-list`: the last good list kept in the state directory and shown at the start.
    public var keepsList = true
    /// `appearance.theme`: the list's colours.
    public enum Theme: String, Sendable, CaseIterable {
        /// Black on white (the rows' own colours, `background` and `text-color`).
        case light
        /// White on black (`ListTheme.dark`).
        case dark
    }
    /// `appearance.theme`.
    public var theme = Theme.light
    /// `appearance.text-size`, as a factor (1: the rows' own sizes).
    public var textScale = 1.0
    /// `appearance.board-title`: the name over the rows; empty: none.
    public var boardTitle = ""
    /// `appearance.board-clock`: the local time over the rows.
    public var boardClock = false
    /// `appearance.board-color`: the bar's background.
    public var boardColor = Color(red: 28, green: 28, blue: 30)
    /// `appearance.background`: the rows' background.
    public var background = Color.white
    /// `appearance.text-color`: the rows' title colour.
    public var textColor = Color.black
    /// `appearance.label-color`: the refresh texts' and arrow's colour.
    public var labelColor = Color(red: 90, green: 90, blue: 90)
    /// `appearance.font`: the texts' fontconfig family.
    public var font = "sans-serif"
    /// `rows.height`: a row's height (a column's width across), points; with more than one line
    /// of title or subtitle, the shortest a row gets (rows grow to their text).
    public var rowHeight = 72.0
    /// `rows.title-lines`: lines a row's title wraps to, 1 to 8 (0: as many as it needs).
    public var titleLines = 1
    /// `rows.subtitle-lines`: lines a row's subtitle wraps to, 1 to 8 (0: as many as it needs).
    public var subtitleLines = 1
    /// `appearance.failure-seconds`: how long a failure shows, seconds.
    public var failureSeconds = 2.0
    // [refresh]
    /// Pull distance that arms the header, points; nil: its height (54).
    public var triggerDistance: Double?
    /// Largest pull, points; nil: the rubber band only.
    public var maxDragDistance: Double?
    /// Pull distance that arms the second floor, points; nil: 2.5 times the trigger distance.
    public var twoLevelDistance: Double?
    /// `refresh.footer-trigger-distance`: pull past the end that arms a back footer, points;
    /// nil: its height.
    public var footerTriggerDistance: Double?
    /// `refresh.footer-max-drag`: largest pull past the end under a footer, points; nil: the
    /// rubber band only.
    public var footerMaxDragDistance: Double?
    /// `refresh.trailer-trigger-distance`: pull past the last column that arms the trailer,
    /// points; nil: its width (60).
    public var trailerTriggerDistance: Double?
    /// `refresh.trailer-max-drag`: largest pull past the last column, points; nil: the rubber
    /// band only.
    public var trailerMaxDragDistance: Double?
    /// The header fades in with the pull (MJRefresh's automaticallyChangeAlpha).
    public var headerAutoAlpha = false
    /// How much of an auto footer must show before it loads (1: all of it; below 0: earlier).
    public var footerTriggerPercent = 1.0
    /// Automatic loads per drag of an auto footer; −1: unlimited.
    public var footerTriggerTimes = 1
    /// Hide the footer while the rows do not fill the screen.
    public var footerHidesWhenNotFull = false
    /// Seconds a successful refresh shows "Up to date" before the header closes.
    public var resultSeconds = 0.0
    /// Seconds a refresh shows its spinner at least.
    public var minimumRefreshingSeconds = RefreshComponent.defaultMinimumRefreshingDuration
    /// `refresh.every`: seconds between the kiosk's own refreshes; 0: only when asked.
    public var refreshEvery = 0.0
    /// `refresh.jitter`: the fraction each wait varies by (0 to 0.5; 0.1).
    public var refreshJitter = 0.1
    /// `refresh.quiet-after-touch`: seconds after the last touch before a due refresh runs (30).
    public var quietAfterTouch = 30.0
    /// `refresh.auto-style`: how the kiosk's own refreshes show.
    public var autoStyle = KioskList.AutoStyle.silent
    /// `refresh.backoff-max`: the longest wait after failed refreshes, seconds (900).
    public var backoffMax = 900.0
    // [state]
    /// `state.cache-directory`: where pictures fetched over HTTP are kept; nil: `$CACHE_DIRECTORY`
    /// (the unit's `CacheDirectory=`), else they are kept in memory only.
    public var cacheDirectory: String?
    /// `state.control-socket`: the control socket's path; nil: `$RUNTIME_DIRECTORY/control`
    /// (the unit's `RuntimeDirectory=`), else `/run/panel-refresh/control`.
    public var controlSocket: String?
    /// `state.control-socket = none`: no control socket.
    public var controlSocketDisabled = false
    /// `state.metrics-file`: where the metrics are written every `metricsSeconds`; nil: nowhere.
    public var metricsFile: String?
    /// `state.metrics-seconds`: seconds between writes of the metrics file (60).
    public var metricsSeconds = 60.0
    // [limits]
    /// `limits.picture-cache-mb`: bytes the rows' decoded thumbnails may take: 16 MiB, some
    /// 1,300 thumbnails of 56 points at scale 1 (12.5 KB each), 330 at scale 2.
    public var pictureCacheBytes = 16 << 20
    /// `limits.picture-disk-mb`: bytes the fetched pictures may take in the cache directory: 64 MiB.
    public var pictureDiskBytes = 64 << 20
    /// `limits.picture-mb`: the largest picture file or download: 8 MiB.
    public var pictureMaxBytes = 8 << 20
    /// The most frames `appearance.gif-frames` may hold: 240 (8 s at MJRefresh's 30 frames
    /// a second, for each state).
    public var gifMaxFrames = 240
    /// The most bytes the gif frames may take decoded at their size in the files: 64 MiB.
    public var gifMaxBytes = 64 << 20

    /// The built-in defaults (what an empty file gives).
    public init() {}

    /// `data.refresh-seconds` (and `replay --refresh-seconds`): 0 to 60 s.
    public static let refreshSecondsRange = 0.0...60

    /// The documented default path.
    public static let defaultPath = "/etc/panel-refresh/config"

    /// What is wrong with the files the keys name: the item file, the command, the password
    /// file, the second floor's image and the gif frames.
    @MainActor
    public func fileProblems(screen: (width: Int, height: Int)?) -> [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        if let file {
            do throws(BoundedFile.Failure) {
                _ = try BoundedFile.read(file, limit: ItemParser.maxBytes)
            } catch {
                problems.append(("data.file", "data.file: \(file): \(error)"))
            }
        }
        if let program = command.first {
            if !BoundedFile.isRegularFile(program) || access(program, X_OK) != 0 {
                problems.append(("data.command", "data.command: \(program) is not an executable file"))
            }
        }
        /// A file a key names by path or as a systemd credential, read as the kiosk reads it.
        /// Outside the unit a credential's folder is not set: only a path can be checked here.
        func credential(_ key: String, _ name: String?, _ read: (String) throws -> Void) {
            guard let name else { return }
            do { try read(name) } catch {
                if name.hasPrefix("/") || getenv("CREDENTIALS_DIRECTORY") != nil { problems.append((key, "\(key): \(error)")) }
            }
        }
        credential("data.url-password-file", urlPasswordFile) { _ = try HTTPItemSource.readPassword($0) }
        credential("data.mqtt-password-file", mqttPasswordFile) { _ = try HTTPItemSource.readPassword($0, key: "data.mqtt-password-file") }
        if let file = mqttCAFile {
            do throws(BoundedFile.Failure) {
                _ = try BoundedFile.read(file, limit: 1 << 20)
            } catch {
                problems.append(("data.mqtt-ca-file", "data.mqtt-ca-file: \(file): \(error)"))
            }
        }
        credential("data.header-file", headerFile) { _ = try HTTPItemSource.readHeaders($0) }
        if let path = twoLevelImage {
            do { _ = try Appearance.twoLevelImageSize(path, self, screen: screen) } catch {
                problems.append(("appearance.two-level", (error as? ConfigurationError)?.message ?? "\(error)"))
            }
        }
        if gifFrames != nil {
            do { _ = try Appearance.frames(self) } catch {
                problems.append(("appearance.gif-frames", (error as? ConfigurationError)?.message ?? "\(error)"))
            }
        }
        return problems
    }

    /// The keys set and their text (PanelHost's `KeyedConfiguration.setKeys`).
    public var setKeys: [String: String] = [:]

    /// Checks what single keys cannot: a source needs its location.
    public func validate(file path: String) throws(ConfigurationError) {
        switch source {
        case .command where command.isEmpty: throw ConfigurationError(file: path, line: 0, message: "data.source = command needs data.command")
        case .file where file == nil: throw ConfigurationError(file: path, line: 0, message: "data.source = file needs data.file")
        case .http where url == nil: throw ConfigurationError(file: path, line: 0, message: "data.source = http needs data.url")
        case .mqtt where mqttBroker == nil: throw ConfigurationError(file: path, line: 0, message: "data.source = mqtt needs data.mqtt-url")
        case .mqtt where mqttTopic == nil: throw ConfigurationError(file: path, line: 0, message: "data.source = mqtt needs data.mqtt-topic")
        default: break
        }
        if tapAction == .publish && mqttBroker == nil {
            throw ConfigurationError(file: path, line: 0, message: "rows.tap = publish needs a broker (data.mqtt-url)")
        }
        if (mqttCommands || mqttDiscovery || refreshTriggerTopic != nil) && mqttBroker == nil {
            let key = mqttCommands ? "mqtt.commands" : mqttDiscovery ? "mqtt.discovery" : "refresh.trigger-topic"
            throw ConfigurationError(file: path, line: 0, message: key + " needs a broker (data.mqtt-url)")
        }
        if tapAction == .command && tapCommand.isEmpty {
            throw ConfigurationError(file: path, line: 0, message: "rows.tap = command needs rows.tap-command")
        }
        if (header == .gif || footer == .autoGif || footer == .backGif) && gifFrames == nil {
            throw ConfigurationError(file: path, line: 0, message: "a gif style needs appearance.gif-frames (a folder of PNG frames)")
        }
    }

    /// The program's keys and the host's, in the manual's order: the host's sections
    /// (`[input]`, `[display]`) and keys (`appearance.locale`, `state.directory`,
    /// `limits.image-*`) where they always stood.
    public static let keys: [ConfigurationKey<KioskConfiguration>] = {
        let host = Dictionary(uniqueKeysWithValues: Configuration.keys.map { ($0.qualified, $0.lifted(into: \KioskConfiguration.host)) })
        func hostKeys(_ section: String) -> [ConfigurationKey<KioskConfiguration>] {
            Configuration.keys.filter { $0.section == section }.compactMap { host[$0.qualified] }
        }
        func hostKey(_ name: String) -> [ConfigurationKey<KioskConfiguration>] { host[name].map { [$0] } ?? [] }
        var keys = [ConfigurationKey<KioskConfiguration>]()
        for key in own {
            // Each host key goes where the manual has always listed it: before the program's
            // first of its section, or its section before the program's next.
            switch key.qualified {
            case "appearance.header": keys += hostKeys("input") + hostKeys("display") + hostKey("appearance.locale")
            case "state.cache-directory": keys += hostKey("state.directory")
            case "limits.picture-cache-mb": keys += hostKey("limits.image-pixels") + hostKey("limits.image-cache-mb")
            default: break
            }
            keys.append(key)
        }
        return keys
    }()

    private typealias Key = ConfigurationKey<KioskConfiguration>
    private typealias ValueError = ConfigurationValueError
    private typealias V = ConfigurationValue
    /// A topic to publish on or subscribe to: one name, no wildcards.
    private static func topic(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, !v.contains("#"), !v.contains("+") else { throw ValueError("\"\(v)\" is not a topic name (no wildcards)") }
        return v
    }

    /// The program's own keys.
    private static let own: [Key] = [
        Key(section: "panel", name: "name", doc: "the panel's name, as the operator knows it (Hall 2, Canteen): in ctl status, the broker's status and the client id, the metrics and Home Assistant; 1 to 64 characters; unset: the machine's host name") {
            guard !$1.isEmpty, $1.count <= 64, !$1.contains(where: { $0.isNewline || $0 == "\"" }) else {
                throw ValueError("\"\($1)\" is not a name of 1 to 64 characters without quotes or line breaks")
            }
            $0.panelName = $1
        },
        Key(section: "data", name: "source", doc: "where items come from: sample, command, file, http or mqtt") { $0.source = try V.choice($1, SourceKind.self) },
        Key(section: "data", name: "command", doc: "the program and its arguments, split at blanks; the page number is appended and set in PANEL_REFRESH_PAGE") {
            let words = $1.split(separator: " ").map(String.init)
            guard let first = words.first, first.hasPrefix("/") else { throw ValueError("the command must start with an absolute path") }
            $0.command = words
        },
        Key(section: "data", name: "file", doc: "a JSON file of items, read again on every pull") { $0.file = try V.path($1) },
        Key(section: "data", name: "url", doc: "an http(s) URL of a JSON document; {page} and {size} are replaced") {
            guard $1.hasPrefix("http://") || $1.hasPrefix("https://") else { throw ValueError("\"\($1)\" is not an http(s) URL") }
            $0.url = $1
        },
        Key(section: "data", name: "url-password-file", doc: "a file whose first line is the password for data.url's user (the user named in the URL as https://user@host/...): an absolute path, or the name of a systemd credential (LoadCredential=NAME:PATH in the unit), read from $CREDENTIALS_DIRECTORY. Keeps the password out of this file, which the service's users can read") {
            guard !$1.isEmpty, !$1.contains("\0") else { throw ValueError("\"\($1)\" is not a path or a credential's name") }
            if !$1.hasPrefix("/") && $1.contains("/") { throw ValueError("\"\($1)\" is not an absolute path or a credential's name (no /)") }
            $0.urlPasswordFile = $1
        },
        Key(section: "data", name: "header-file", doc: "a file of extra HTTP request headers, one Name: value a line (e.g. Authorization: Bearer ...), for the list's requests: an absolute path, or the name of a systemd credential (LoadCredential=NAME:PATH), read from $CREDENTIALS_DIRECTORY at every request. Its values are never logged; a malformed line fails the request naming only its number") {
            guard !$1.isEmpty, !$1.contains("\0") else { throw ValueError("\"\($1)\" is not a path or a credential's name") }
            if !$1.hasPrefix("/") && $1.contains("/") { throw ValueError("\"\($1)\" is not an absolute path or a credential's name (no /)") }
            $0.headerFile = $1
        },
        Key(section: "data", name: "redirect-headers", doc: "names of data.header-file's headers that may follow a redirect to another host, comma-separated (e.g. Accept-Language); the others, and data.url's user and password, go to data.url's own scheme, host and port only. Default none: a key or a token is for the server that issued it") {
            let names = $1.split(separator: ",").map { TextFormat.trimmed(String($0)) }.filter { !$0.isEmpty }
            for name in names where !name.allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }) || !name.allSatisfy(\.isASCII) {
                throw ValueError("\"\(name)\" is not a header's name")
            }
            $0.redirectHeaders = names
        },
        Key(section: "data", name: "mqtt-url", doc: "the MQTT broker, mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (8883, TLS with the system's CAs or data.mqtt-ca-file): the list's source with data.source = mqtt, and with any source the broker the panel reports its state to (mqtt.status-topic)") {
            $0.mqttBroker = try MQTTAddress(parsing: $1)
        },
        Key(section: "data", name: "mqtt-topic", doc: "the topic whose messages are the list, a JSON document of items as data.file holds (normally retained, so the broker hands the current list to every panel that connects); each message replaces the list as a refresh does") { $0.mqttTopic = try topic($1) },
        Key(section: "data", name: "mqtt-user", doc: "the user the broker knows the panel as") { $0.mqttUser = $1.isEmpty ? nil : $1 },
        Key(section: "data", name: "mqtt-password-file", doc: "a file whose first line is data.mqtt-user's password: an absolute path, or the name of a systemd credential (LoadCredential=NAME:PATH), read from $CREDENTIALS_DIRECTORY at each connection") {
            guard !$1.isEmpty, !$1.contains("\0") else { throw ValueError("\"\($1)\" is not a path or a credential's name") }
            if !$1.hasPrefix("/") && $1.contains("/") { throw ValueError("\"\($1)\" is not an absolute path or a credential's name (no /)") }
            $0.mqttPasswordFile = $1
        },
        Key(section: "data", name: "mqtt-client-id", doc: "the client id the broker knows the panel by, unique per panel (a second client with the same id takes the first one's place); unset: panel- and 16 hex digits hashed from /etc/machine-id") {
            guard (1...64).contains($1.utf8.count), !$1.contains("/"), !$1.contains("#"), !$1.contains("+") else {
                throw ValueError("\"\($1)\" is not a client id (1 to 64 bytes, no / # +)")
            }
            $0.mqttClientID = $1
        },
        Key(section: "data", name: "mqtt-ca-file", doc: "a CA certificate file (PEM) the broker's certificate must chain to, for mqtts://; unset: the system's CAs (/etc/ssl/certs)") { $0.mqttCAFile = try V.path($1) },
        Key(section: "data", name: "timeout", doc: "seconds a command or request may take (0.1 to 600)") { $0.timeout = try V.number($1, 0.1...600) },
        Key(section: "data", name: "stale-after", doc: "seconds a failing file, command or HTTP source is let be before the banner over the rows says since when the panel has had no answer (\"offline since 07:50\"), 0 to 86400; 0: each failed refresh is said at once. A pull that fails says it in the header either way") {
            $0.staleAfter = try V.number($1, 0...86_400)
        },
        Key(section: "data", name: "page-size", doc: "items per page; a shorter page means no more data (1 to 1000)") { $0.pageSize = try V.integer($1, 1...1000) },
        Key(section: "data", name: "refresh-seconds", doc: "how long the sample source takes to load, seconds (0 to 60)") { $0.refreshSeconds = try V.number($1, refreshSecondsRange) },
        Key(section: "data", name: "list", doc: "where the list is in an answer that wraps it in an object: a member's name, or names joined by dots from the outside in (data.departures); empty: the answer itself is the list, or it is an object without a title whose one member that is a list is it") {
            $0.rowFields.list = $1.isEmpty ? [] : $1.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !$0.rowFields.list.contains(where: \.isEmpty) else { throw ConfigurationValueError("\"\($1)\" has an empty member name") }
        },
        Key(section: "rows", name: "title", doc: "the item field shown as a row's title") { $0.rowFields.title = $1 },
        Key(section: "rows", name: "subtitle", doc: "the item field shown under it, or a template of fields and text: {line} · platform {platform} (formats after a bar: {departure|time}, {departure|relative}, {delay|signed})") { $0.rowFields.subtitle = try KioskConfiguration.template($1) },
        Key(section: "rows", name: "image", doc: "the item field holding the row's picture: an absolute file path or an http(s) URL of a PNG, JPEG or WebP (told by its bytes). When any item of the list has one, every row gets a picture column, with a placeholder while it loads and a broken mark when it cannot be shown") { $0.rowFields.image = $1 },
        Key(section: "rows", name: "image-size", doc: "the picture's side, points (16 to 200; 56); it is decoded once at this size and the screen's scale, filling the square (the middle of a picture of another shape is kept)") { $0.imageSize = try V.number($1, 16...200) },
        Key(section: "rows", name: "detail", doc: "the item field shown at the row's trailing edge on one line (a time, a price, a status; a number is shown as it is)") { $0.rowFields.detail = try KioskConfiguration.template($1) },
        Key(section: "rows", name: "badge", doc: "the item field shown in a small red badge after the detail (a count, \"new\"), or a template as rows.subtitle's") { $0.rowFields.badge = try KioskConfiguration.template($1) },
        Key(section: "rows", name: "badge-hide", doc: "badge values not shown, separated by commas (0, +0, on time)") { $0.badgeStyle.hidden = BadgeStyle.hiddenValues($1) },
        Key(section: "rows", name: "badge-colors", doc: "the badge's colour by its value: RULE #rrggbb pairs separated by commas, the first that matches wins; a rule is * (any), a comparison with a number (>0, >=5, <0, <=0, =0) or a text to equal; no match: red") { $0.badgeStyle.rules = try BadgeStyle.rules($1) },
        Key(section: "rows", name: "expires", doc: "the item field holding when it leaves the list (a departure's time: RFC 3339, or Unix seconds): it is dropped then, without a refresh; empty: never") { $0.rowFields.expires = $1 },
        Key(section: "rows", name: "expires-after", doc: "seconds an item stays past its rows.expires time (0 to 86400)") { $0.expiresAfter = try V.number($1, 0...86_400) },
        Key(section: "rows", name: "body", doc: "the item field the detail page shows under the title, wrapped and scrollable (rows.tap = detail)") { $0.rowFields.body = $1 },
        Key(section: "rows", name: "lang", doc: "the item field holding the language of its texts, a BCP 47 tag (ja, zh-Hant, sr): its rows and detail page are shaped in that language's forms (Han as in Japanese, Serbian Cyrillic) and drawn with a face made for it where one is installed; without it, the panel's language") { $0.rowFields.language = $1 },
        Key(section: "rows", name: "id", doc: "the item field holding its stable id, a string or a number (an item without one is known by its title). After a refresh the row at the top of the screen stays where it was when its id is still in the list; else the offset stays") { $0.rowFields.id = $1 },
        Key(section: "rows", name: "tap", doc: "what a tap on a row does: none, detail (a page with the item's picture, title and body, closed by its back control or a swipe from the leading edge) or command (rows.tap-command runs with the item) or publish (the item's JSON, as a tap command's stdin, published to mqtt.tap-topic on data.mqtt-url's broker)") {
            $0.tapAction = try V.choice($1, TapAction.self)
        },
        Key(section: "rows", name: "tap-command", doc: "the program and its arguments, split at blanks, run once for each tapped row with the item's JSON on stdin and its id in PANEL_REFRESH_ITEM; supervised as data.command is (its own process group, ended at rows.tap-timeout, output bounded); at most 4 run at once") {
            let words = $1.split(separator: " ").map(String.init)
            guard let first = words.first, first.hasPrefix("/") else { throw ValueError("the command must start with an absolute path") }
            $0.tapCommand = words
        },
        Key(section: "rows", name: "tap-timeout", doc: "seconds a tap command may take before its process group is ended (0.1 to 600; 10)") { $0.tapTimeout = try V.number($1, 0.1...600) },
        Key(section: "rows", name: "height", doc: "row height, points (24 to 400); a column's width in a horizontal list; with title-lines or subtitle-lines above 1, the shortest a row gets") { $0.rowHeight = try V.number($1, 24...400) },
        Key(section: "rows", name: "title-lines", doc: "lines a row's title wraps to at word boundaries, the last cut with an ellipsis (0 to 8; 0: as many as it needs); above 1, each row is as tall as its texts, measured once when it first shows") { $0.titleLines = try V.integer($1, 0...8) },
        Key(section: "rows", name: "subtitle-lines", doc: "lines a row's subtitle wraps to, as title-lines (0 to 8)") { $0.subtitleLines = try V.integer($1, 0...8) },
        Key(section: "list", name: "orientation", doc: "vertical (rows, pulled down to refresh, loading more at the end) or horizontal (columns; the trailer, pulled left past the last column, loads the next page; no header)") {
            $0.orientation = try V.choice($1, Orientation.self)
        },
        Key(section: "appearance", name: "header", doc: "normal, state or gif") { $0.header = try V.choice($1, HeaderStyle.self) },
        Key(section: "appearance", name: "footer", doc: "auto-normal, auto-state, auto-gif, back-normal, back-state or back-gif") { $0.footer = try V.choice($1, FooterStyle.self) },
        Key(section: "appearance", name: "gif-frames", doc: "folder of PNG frames for the gif styles: idle-*.png, pulling-*.png, refreshing-*.png") { $0.gifFrames = try V.path($1) },
        Key(section: "appearance", name: "two-level", doc: "a PNG shown as the second floor: a pull past 2.5 times the trigger distance opens it over the whole screen, a push up closes it; empty: off") {
            $0.twoLevelImage = $1.isEmpty ? nil : try V.path($1)
        },
        Key(section: "appearance", name: "trailer", doc: "the trailer of a horizontal list: normal (arrow and vertical text), state (text only) or none (no next pages)") {
            $0.trailer = try V.choice($1, TrailerStyle.self)
        },
        Key(section: "appearance", name: "header-position", doc: "where the header shows: push (the pull moves the rows down), behind (fixed behind the rows, revealed as they slide) or front (over the rows, which stay)") {
            $0.headerPosition = try V.choice($1, RefreshHeader.Position.self)
        },
        Key(section: "appearance", name: "background", doc: "row background colour, #rrggbb (the light theme's)") { $0.background = try V.color($1) },
        Key(section: "appearance", name: "page-every", doc: "seconds without a touch between the moves of an untouched board by a screen (the row cut at its end comes to its start; from the end back to the top), 2 to 3600; 0: never (the list moves only under a finger)") {
            $0.pageEvery = try V.zeroOr($1, 2...3600)
        },
        Key(section: "appearance", name: "home-after", doc: "seconds without a touch before an open page and the second floor close and the list goes back to its top, 0 to 86400; 0: never (never under a finger or during a refresh)") { $0.homeAfter = try V.number($1, 0...86_400) },
        Key(section: "appearance", name: "theme", doc: "light (black on white) or dark (white on black, for a dim hall: iOS's dark system colours); dark replaces background and text-color") { $0.theme = try V.choice($1, Theme.self) },
        Key(section: "appearance", name: "text-size", doc: "the rows' text size, percent of their own (50 to 300); above 100 the rows grow with it (a board read from 3 m)") { $0.textScale = try V.number($1, 50...300) / 100 },
        Key(section: "appearance", name: "board-title", doc: "a name shown in a bar over the rows (a station, a room); empty: no bar unless board-clock") { $0.boardTitle = $1 },
        Key(section: "appearance", name: "board-clock", doc: "the panel's local time in the bar over the rows, set each minute (true/false)") { $0.boardClock = try V.boolean($1) },
        Key(section: "appearance", name: "board-color", doc: "the bar's background, #rrggbb; its text is white") { $0.boardColor = try V.color($1) },
        Key(section: "appearance", name: "text-color", doc: "row title colour, #rrggbb") { $0.textColor = try V.color($1) },
        Key(section: "appearance", name: "label-color", doc: "colour of the refresh texts and arrow, #rrggbb (MJRefresh's grey 5a5a5a)") { $0.labelColor = try V.color($1) },
        Key(section: "appearance", name: "font", doc: "fontconfig family of the texts") { $0.font = $1 },
        Key(section: "appearance", name: "failure-seconds", doc: "how long a failed refresh shows its failure, seconds (0 to 30)") { $0.failureSeconds = try V.number($1, 0...30) },
        Key(section: "refresh", name: "trigger-distance", doc: "pull distance that arms the header, points (1 to 1000); 0: the header's height (54)") { $0.triggerDistance = try V.distance($1, 1...1000) },
        Key(section: "refresh", name: "max-drag", doc: "largest pull the finger can make, points (1 to 2000); 0: no limit but the rubber band") { $0.maxDragDistance = try V.distance($1, 1...2000) },
        Key(section: "refresh", name: "footer-trigger-distance", doc: "pull past the end that arms a back footer, points (1 to 1000); 0: the footer's height (an auto footer loads by footer-trigger-percent)") { $0.footerTriggerDistance = try V.distance($1, 1...1000) },
        Key(section: "refresh", name: "footer-max-drag", doc: "largest pull past the end under a footer, points (1 to 2000); 0: no limit but the rubber band") { $0.footerMaxDragDistance = try V.distance($1, 1...2000) },
        Key(section: "refresh", name: "trailer-trigger-distance", doc: "pull past the last column that arms the trailer of a horizontal list, points (1 to 1000); 0: the trailer's width (60)") { $0.trailerTriggerDistance = try V.distance($1, 1...1000) },
        Key(section: "refresh", name: "trailer-max-drag", doc: "largest pull past the last column, points (1 to 2000); 0: no limit but the rubber band") { $0.trailerMaxDragDistance = try V.distance($1, 1...2000) },
        Key(section: "refresh", name: "two-level-distance", doc: "pull distance that opens the second floor (appearance.two-level), points (1 to 2000); 0: 2.5 times the trigger distance") { $0.twoLevelDistance = try V.distance($1, 1...2000) },
        Key(section: "refresh", name: "auto-alpha", doc: "the header fades in with the pull (true/false)") { $0.headerAutoAlpha = try V.boolean($1) },
        Key(section: "refresh", name: "footer-trigger-percent", doc: "how much of an auto footer must show before it loads, -10 to 1 (1: all of it; below 0: that many footer heights early)") {
            $0.footerTriggerPercent = try V.number($1, -10...1)
        },
        Key(section: "refresh", name: "footer-trigger-times", doc: "automatic loads per drag of an auto footer, 1 to 100; -1: unlimited") {
            let v = try V.integer($1, -1...100)
            guard v != 0 else { throw ValueError("0 would never load: use -1 or 1 to 100") }
            $0.footerTriggerTimes = v
        },
        Key(section: "refresh", name: "footer-hides-when-not-full", doc: "hide the footer while the rows do not fill the screen (true/false)") {
            $0.footerHidesWhenNotFull = try V.boolean($1)
        },
        Key(section: "refresh", name: "result-seconds", doc: "how long a successful refresh shows \"Up to date\" before the header closes, seconds (0 to 30)") {
            $0.resultSeconds = try V.number($1, 0...30)
        },
        Key(section: "refresh", name: "minimum-seconds", doc: "the least time a refresh shows its spinner, so a source that answers at once does not flash it, seconds (0 to 10)") {
            $0.minimumRefreshingSeconds = try V.number($1, 0...10)
        },
        Key(section: "refresh", name: "every", doc: "seconds between the kiosk's own refreshes, 1 to 86400; 0: only when asked (a pull, panel-refresh ctl refresh, SIGHUP). Each wait is every x (1 ± jitter), the first a random part of every after the first load (drawn from the machine id, so panels booted together spread out); a refresh is never started while another runs, while a finger is on the glass, a detail page or the second floor is open, within quiet-after-touch of the last touch, or while the panel is blank (a due one runs when it wakes). Failures back off (backoff-max); an HTTP server's Cache-Control max-age and Retry-After hold the next request back") {
            $0.refreshEvery = try V.zeroOr($1, 1...86_400)
        },
        Key(section: "refresh", name: "jitter", doc: "the fraction each wait between the kiosk's own refreshes varies by, 0 to 0.5 (0.1: every 60 s is 54 to 66 s)") {
            $0.refreshJitter = try V.number($1, 0...0.5)
        },
        Key(section: "refresh", name: "quiet-after-touch", doc: "seconds after the last touch before a due refresh of the kiosk's own runs, 0 to 3600 (30): nobody reading the list has it change under them") {
            $0.quietAfterTouch = try V.number($1, 0...3600)
        },
        Key(section: "refresh", name: "auto-style", doc: "how the kiosk's own refreshes show: silent (the rows change in place, the row at the top of the screen kept where it is, the header's time set; the default) or header (the header opens, spins and closes, as a pull would; the list goes to its top)") {
            $0.autoStyle = try V.choice($1, KioskList.AutoStyle.self)
        },
        Key(section: "refresh", name: "trigger-topic", doc: "a topic on data.mqtt-url's broker: any message there starts a refresh of the list, whatever its source, after a random delay of up to trigger-jitter seconds, so a fleet told at once does not ask its server in the same second") { $0.refreshTriggerTopic = try topic($1) },
        Key(section: "refresh", name: "trigger-jitter", doc: "the longest delay before a refresh a trigger-topic message starts, seconds, 0 to 3600 (5)") {
            $0.refreshTriggerJitter = try V.number($1, 0...3600)
        },
        Key(section: "refresh", name: "backoff-max", doc: "the longest wait after failed refreshes, seconds, 1 to 86400 (900): after n failures in a row the wait is drawn from 0 to min(backoff-max, every x 2^n), so its mean doubles from every; a success resets it") {
            $0.backoffMax = try V.number($1, 1...86_400)
        },
        Key(section: "state", name: "keep-list", doc: "keep the last good list in the state directory (last-list.jsonl, written whole and renamed after each refresh that changed it) and show it at the start, with its age, before the source answers (true/false)") { $0.keepsList = try V.boolean($1) },
        Key(section: "state", name: "cache-directory", doc: "where pictures fetched over HTTP are kept across restarts; unset: $CACHE_DIRECTORY when systemd sets it (the unit's CacheDirectory), else they are kept in memory only") {
            $0.cacheDirectory = try V.path($1)
        },
        Key(section: "state", name: "control-socket", doc: "the control socket panel-refresh ctl talks to (status, refresh, screenshot, metrics, blank, wake): a path; none: no socket; unset: $RUNTIME_DIRECTORY/control when systemd sets it (the unit's RuntimeDirectory), else /run/panel-refresh/control. Made 0600; only root and the kiosk's own user are answered") {
            if $1 == "none" {
                $0.controlSocketDisabled = true
                $0.controlSocket = nil
            } else {
                $0.controlSocket = try V.path($1)
                $0.controlSocketDisabled = false
            }
        },
        Key(section: "state", name: "metrics-file", doc: "a file the kiosk's metrics are written to every metrics-seconds, in Prometheus' text format (node_exporter's textfile collector reads *.prom files), written whole and renamed; unset: none (panel-refresh ctl metrics gives them at any time)") {
            $0.metricsFile = try V.path($1)
        },
        Key(section: "state", name: "metrics-seconds", doc: "seconds between writes of the metrics file, 1 to 3600 (60)") {
            $0.metricsSeconds = try V.number($1, 1...3600)
        },
        Key(section: "mqtt", name: "status-topic", doc: "where the panel publishes its state, retained: the JSON of panel-refresh ctl status with \"online\": true, at connect and at every change of state (a refresh's result, blank, wake, an error); the broker replaces it with {\"online\": false} (the last will) when the panel drops off. CLIENT-ID in it is the client id (panel-refresh/CLIENT-ID/status)") { $0.mqttStatusTopic = try topic($1) },
        Key(section: "mqtt", name: "tap-topic", doc: "where rows.tap = publish sends a tapped row's item, as JSON (not retained); CLIENT-ID in it is the client id (panel-refresh/CLIENT-ID/tap)") { $0.mqttTapTopic = try topic($1) },
        Key(section: "mqtt", name: "screenshot-max-kb", doc: "the largest screenshot the screenshot command publishes, KiB, 16 to 65536 (1024): a larger PNG is refused on the reply topic (the broker's message_size_limit, a slow link)") {
            $0.mqttScreenshotMaxKB = try V.integer($1, 16...65_536)
        },
        Key(section: "mqtt", name: "interval-range", doc: "MIN-MAX seconds: the refresh intervals `interval N` may set (over the broker's command topic or ctl), until a reload; others are refused with these bounds (60-3600)") {
            let parts = $1.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low >= 1, low <= high, high <= 86_400 else {
                throw ValueError("\"\($1)\" is not MIN-MAX seconds, 1 to 86400 (60-3600)")
            }
            $0.mqttIntervalRange = low...high
        },
        Key(section: "mqtt", name: "discovery", doc: "homeassistant: the panel announces itself to Home Assistant by MQTT discovery, as one device (panel.name) with its screen as a light, refresh as a button, the items and the last success as sensors, the light schedule as a switch and a tapped row as an event, available while its status says online (the buttons and switches act with mqtt.commands = true); none: it announces nothing, and clears what it announced before") {
            guard $1 == "homeassistant" || $1 == "none" else { throw ValueError("\"\($1)\" is not homeassistant or none") }
            $0.mqttDiscovery = $1 == "homeassistant"
        },
        Key(section: "mqtt", name: "discovery-prefix", doc: "Home Assistant's discovery prefix (its MQTT integration's setting)") { $0.mqttDiscoveryPrefix = try topic($1) },
        Key(section: "mqtt", name: "commands", doc: "whether refresh, blank, wake, brightness, schedule, identify, interval, theme and screenshot published on mqtt.command-topic act as panel-refresh ctl does (outcomes on panel-refresh/CLIENT-ID/reply, a screenshot on panel-refresh/CLIENT-ID/screenshot) (true/false; false: whoever may publish there could blank the panel, so it is asked for)") {
            $0.mqttCommands = try V.boolean($1)
        },
        Key(section: "mqtt", name: "command-topic", doc: "where commands come with mqtt.commands = true; CLIENT-ID in it is the client id (panel-refresh/CLIENT-ID/command). A fleet-wide topic may be named too: every panel subscribed acts") { $0.mqttCommandTopic = try topic($1) },
        Key(section: "mqtt", name: "stale-after", doc: "seconds without the broker before the banner says since when the panel is offline, 1 to 86400 (120); the list stays meanwhile") {
            $0.mqttStaleAfter = try V.number($1, 1...86400)
        },
        Key(section: "limits", name: "picture-cache-mb", doc: "MiB the rows' decoded thumbnails may take together; the rows on screen are always kept (1 to 1024; 16)") {
            $0.pictureCacheBytes = try V.integer($1, 1...1024) << 20
        },
        Key(section: "limits", name: "picture-disk-mb", doc: "MiB the pictures fetched over HTTP may take in state.cache-directory, least recently used first out (0 to 65536; 64; 0: none kept)") {
            $0.pictureDiskBytes = try V.integer($1, 0...65_536) << 20
        },
        Key(section: "limits", name: "picture-mb", doc: "MiB a picture file or download may have; a larger one shows the broken mark (1 to 64; 8)") {
            $0.pictureMaxBytes = try V.integer($1, 1...64) << 20
        },
        Key(section: "limits", name: "gif-frames", doc: "the most PNG frames appearance.gif-frames may hold (1 to 1000; 240)") {
            $0.gifMaxFrames = try V.integer($1, 1...1000)
        },
        Key(section: "limits", name: "gif-mb", doc: "MiB the gif frames may take decoded at their size in the files (1 to 1024; 64)") {
            $0.gifMaxBytes = try V.integer($1, 1...1024) << 20
        },
    ]

}
