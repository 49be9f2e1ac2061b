import Glibc
import PanelHost

/// `panel-refresh run`'s pieces that need no kernel: its options and the data source.
@MainActor
public enum RunCommand {
    /// The `file` of a `ConfigurationError` that comes from the command line.
    public static let commandLine = "command line"

    /// Applies `run`'s command line to the configuration: --set KEY=VALUE (any key), --device,
    /// --rotation, --screen, each checked as the key it sets.
    public static func apply(_ arguments: ParsedArguments, to configuration: inout KioskConfiguration) throws {
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

    /// The data source the configuration names, its work on `executor` (the host's: real or
    /// virtual time); `mqtt`: the broker link's list, for `data.source = mqtt` (without one, a
    /// list that waits for messages that never come).
    public static func source(for configuration: KioskConfiguration, animator: Animator, executor: any WorkExecutor,
                              mqtt: MQTTListSource? = nil) -> any ItemSource {
        let fields = configuration.rowFields
        switch configuration.source {
        case .sample:
            return SampleItemSource(pages: 5, delay: configuration.refreshSeconds, animator: animator)
        case .command:
            let source = CommandItemSource(executable: configuration.command[0], arguments: Array(configuration.command.dropFirst()),
                                           timeout: configuration.timeout, executor: executor)
            source.fields = fields
            return source
        case .file:
            let source = FileItemSource(path: configuration.file ?? "", executor: executor)
            source.fields = fields
            return source
        case .http:
            let source = HTTPItemSource(url: configuration.url ?? "", timeout: configuration.timeout,
                                        passwordFile: configuration.urlPasswordFile, stateDirectory: configuration.stateDirectory,
                                        executor: executor)
            source.headerFile = configuration.headerFile
            source.redirectHeaders = configuration.redirectHeaders
            source.fields = fields
            return source
        case .mqtt:
            let source = mqtt ?? MQTTListSource(topic: configuration.mqttTopic ?? "", executor: executor)
            source.fields = fields
            return source
        }
    }
}
