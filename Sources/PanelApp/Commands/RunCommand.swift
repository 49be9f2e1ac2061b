import Glibc
import PanelDisplay
import PanelInput
import PanelRefresh
import PanelRender

/// `panel-refresh run`'s pieces that need no kernel: options, the display choice, the source.
@MainActor
public enum RunCommand {
    /// The `file` of a `ConfigurationError` that comes from the command line.
    public static let commandLine = "command line"

    /// Applies `run`'s command line to the configuration: --set KEY=VALUE (any key), --device,
    /// --rotation, --screen, each checked as the key it sets.
    public static func apply(_ arguments: ParsedArguments, to configuration: inout Configuration) throws {
        do {
            let devices = arguments.all("--device")
            if !devices.isEmpty { try configuration.set("input.devices", devices.joined(separator: ",")) }
            for assignment in arguments.all("--set") {
                guard let equals = assignment.firstIndex(of: "=") else { throw UsageError("--set needs SECTION.KEY=VALUE") }
                try configuration.set(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
            }
            if let rotation = arguments.value("--rotation") { try configuration.set("display.rotation", rotation) }
            if let screen = arguments.value("--screen") {
                try configuration.set("display.mode", screen)
                try configuration.set("display.headless-size", screen)
                try configuration.set("display.window-size", screen)
            }
            if arguments.isSet("--window") {
                try configuration.set("display.backend", "window")
            }
            try configuration.validate(file: commandLine)
        } catch let error as ConfigurationError {
            throw ConfigurationError(file: commandLine, line: 0, message: error.message)
        }
    }

    /// The display the configuration asks for; `auto` tries DRM, then fbdev. With a logind
    /// `session` the DRM card is taken from it (`TakeDevice`) instead of opened.
    public static func display(for configuration: Configuration, session: LogindSession? = nil) throws -> any Display {
        let drm = LibDRM()
        if let session {
            drm.opener = { path in
                guard let number = DeviceNumber(path: path) else { throw DisplayError.call("\(path) is not a device", errno: ENODEV) }
                let taken = try session.takeDevice(number)
                if taken.paused { Log.warning("\(path): logind says the session is not in front; drawing waits for it") }
                return taken.fd
            }
        }
        switch configuration.backend {
        case .headless:
            return HeadlessDisplay(width: configuration.headlessSize.width, height: configuration.headlessSize.height)
        case .window:
            let title = configuration.windowTitle ?? (configuration.appName == "panel-refresh" ? "PanelRefresh" : configuration.appName)
            return try WindowDisplay(width: configuration.windowSize.width, height: configuration.windowSize.height,
                                     rotation: configuration.displayRotation, title: title)
        case .drm:
            return try DRMDisplay(path: configuration.card, size: configuration.mode, rotation: configuration.displayRotation, drm: drm)
        case .fbdev:
            return try FramebufferDisplay(path: configuration.framebuffer, rotation: configuration.displayRotation)
        case .auto:
            do {
                return try DRMDisplay(path: configuration.card, size: configuration.mode, rotation: configuration.displayRotation, drm: drm)
            } catch let drmError {
                Log.warning("no DRM display (\(drmError)); trying \(configuration.framebuffer)")
                do {
                    return try FramebufferDisplay(path: configuration.framebuffer, rotation: configuration.displayRotation)
                } catch {
                    throw DisplayError.noDisplay("DRM: \(drmError); fbdev: \(error)")
                }
            }
        }
    }

    /// The data source the configuration names; `inline`: its work answers before `load`
    /// returns (virtual time); `mqtt`: the broker link's list, for `data.source = mqtt`
    /// (without one, a list that waits for messages that never come).
    public static func source(for configuration: Configuration, animator: Animator, inline: Bool = false,
                              mqtt: MQTTListSource? = nil) -> any ItemSource {
        let fields = configuration.rowFields
        switch configuration.source {
        case .sample:
            return SampleItemSource(pages: 5, delay: configuration.refreshSeconds, animator: animator)
        case .command:
            let source = CommandItemSource(executable: configuration.command[0], arguments: Array(configuration.command.dropFirst()),
                                           timeout: configuration.timeout)
            source.fields = fields
            source.runsInline = inline
            return source
        case .file:
            let source = FileItemSource(path: configuration.file ?? "")
            source.fields = fields
            source.runsInline = inline
            return source
        case .http:
            let source = HTTPItemSource(url: configuration.url ?? "", timeout: configuration.timeout,
                                        passwordFile: configuration.urlPasswordFile, stateDirectory: configuration.stateDirectory)
            source.headerFile = configuration.headerFile
            source.fields = fields
            source.runsInline = inline
            return source
        case .mqtt:
            let source = mqtt ?? MQTTListSource(topic: configuration.mqttTopic ?? "")
            source.fields = fields
            source.runsInline = inline
            return source
        }
    }
}
