import Foundation
import PanelHost

/// The checkout the tests run in.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// What the host tells the service manager, kept in order.
@MainActor
final class RecordingNotifier: ServiceNotifier {
    var messages: [String] = []
    var watchdogInterval: Double? = 10
    func notify(_ assignment: String) { messages.append(assignment) }
}
