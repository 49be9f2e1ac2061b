import FoundationEssentials
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

    /// Applies the command line to the configuration: --set KEY=VALUE (any key), --device,
    /// --rotation, --screen.
    public static func apply(arguments: inout [String], to configuration: inout Configuration) throws {
        do {
            try applyOptions(&arguments, to: &configuration)
        } catch let error as ConfigurationError {
            throw ConfigurationError(file: commandLine, line: 0, message: error.message)
        }
    }

    private static func applyOptions(_ arguments: inout [String], to configuration: inout Configuration) throws {
        var devices: [String] = []
        while let index = arguments.firstIndex(of: "--device") {
            guard index + 1 < arguments.count else { throw UsageError("--device needs a path") }
            devices.append(arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        if !devices.isEmpty { try configuration.set("input.devices", devices.joined(separator: ",")) }
        while let index = arguments.firstIndex(of: "--set") {
            guard index + 1 < arguments.count, let equals = arguments[index + 1].firstIndex(of: "=") else {
                throw UsageError("--set needs SECTION.KEY=VALUE")
            }
            let assignment = arguments[index + 1]
            try configuration.set(String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...]))
            arguments.removeSubrange(index...(index + 1))
        }
        if let index = arguments.firstIndex(of: "--rotation") {
            guard index + 1 < arguments.count else { throw UsageError("--rotation needs a value") }
            try configuration.set("display.rotation", arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        if let index = arguments.firstIndex(of: "--screen") {
            guard index + 1 < arguments.count else { throw UsageError("--screen needs WxH") }
            try configuration.set("display.mode", arguments[index + 1])
            try configuration.set("display.headless-size", arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        try configuration.validate(file: commandLine)
    }

    /// The display the configuration asks for; `auto` tries DRM, then fbdev.
    public static func display(for configuration: Configuration) throws -> any Display {
        switch configuration.backend {
        case .headless:
            return HeadlessDisplay(width: configuration.headlessSize.width, height: configuration.headlessSize.height)
        case .drm:
            return try DRMDisplay(path: configuration.card, size: configuration.mode, rotation: configuration.displayRotation)
        case .fbdev:
            return try FramebufferDisplay(path: configuration.framebuffer, rotation: configuration.displayRotation)
        case .auto:
            do {
                return try DRMDisplay(path: configuration.card, size: configuration.mode, rotation: configuration.displayRotation)
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
    /// returns (virtual time).
    public static func source(for configuration: Configuration, animator: Animator, inline: Bool = false) -> any ItemSource {
        let fields = ItemParser.Fields(title: configuration.titleField, subtitle: configuration.subtitleField)
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
                                        passwordFile: configuration.urlPasswordFile)
            source.fields = fields
            source.runsInline = inline
            return source
        }
    }
}
