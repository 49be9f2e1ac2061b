import Foundation
import Testing
import PanelTestSupport
@testable import PanelKiosk

/// The keys Home Assistant's MQTT integration documents for each component used (and those
/// every entity may have), from its pages (button.mqtt, light.mqtt with the default schema,
/// sensor.mqtt, switch.mqtt, event.mqtt, and the device and availability maps).
private let commonKeys: Set<String> = ["name", "unique_id", "device", "availability", "availability_mode", "object_id", "icon",
                                       "entity_category", "enabled_by_default", "qos", "json_attributes_topic",
                                       "json_attributes_template", "encoding", "default_entity_id"]
private let componentKeys: [String: (allowed: Set<String>, required: Set<String>)] = [
    "light": (["command_topic", "payload_on", "payload_off", "state_topic", "state_value_template", "brightness_command_topic",
               "brightness_command_template", "brightness_state_topic", "brightness_value_template", "brightness_scale",
               "on_command_type", "optimistic", "retain", "schema"], ["command_topic"]),
    "button": (["command_topic", "payload_press", "command_template", "device_class", "retain"], ["command_topic"]),
    "sensor": (["state_topic", "value_template", "device_class", "state_class", "unit_of_measurement", "expire_after",
                "force_update", "suggested_display_precision"], ["state_topic"]),
    "switch": (["command_topic", "payload_on", "payload_off", "state_topic", "state_on", "state_off", "value_template",
                "optimistic", "retain", "device_class"], ["command_topic"]),
    "event": (["state_topic", "event_types", "value_template", "device_class"], ["state_topic", "event_types"]),
]
private let deviceKeys: Set<String> = ["identifiers", "name", "manufacturer", "model", "model_id", "sw_version", "hw_version",
                                       "serial_number", "configuration_url", "connections", "suggested_area", "via_device"]
private let availabilityKeys: Set<String> = ["topic", "payload_available", "payload_not_available", "value_template"]

/// The Python with Home Assistant from PyPI in it, which scripts/bootstrap installs (`.ha-venv`).
private let homeAssistantPython = repository + "/.ha-venv/bin/python"

@Suite("Home Assistant's MQTT discovery on a real Mosquitto", .enabled(if: haveMosquitto, "needs Debian's mosquitto, mosquitto-clients and libmosquitto1 (scripts/bootstrap installs them)"),
       .serialized)
struct DiscoveryTests {
    /// A kiosk named Hall 2 (client id hall-2) on `broker`'s board/list, commands on, with
    /// `mqtt.discovery = discovery`; `state`: its state directory, kept across starts.
    static func kiosk(broker: TestBroker, discovery: String, state: String?) throws -> (ProgramRun, String, String) {
        try startControlledKiosk("""
            [panel]
            name = Hall 2
            [data]
            source = mqtt
            mqtt-url = mqtt://127.0.0.1:\(broker.port)
            mqtt-topic = board/list
            mqtt-client-id = hall-2
            [mqtt]
            commands = true
            discovery = \(discovery)
            """, state: state)
    }

    @Test("Home Assistant's own schemas (its PyPI package) accept the six configs as its MQTT integration reads them, no key dropped, no warning; a misspelt key and a missing one are refused",
          .enabled(if: FileManager.default.isExecutableFile(atPath: homeAssistantPython), "needs Home Assistant from PyPI in .ha-venv (scripts/bootstrap installs it)"))
    func homeAssistantSchemas() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", #"[{"id":"1","title":"one"}]"#, retain: true)
        let (run, dir, _) = try Self.kiosk(broker: broker, discovery: "homeassistant", state: nil)
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "announced to Home Assistant: 6 entities under homeassistant"), "\(run.log)")
        let lines = try broker.messages("homeassistant/+/hall-2/+/config", count: 6, timeout: 5, withTopics: true)
        #expect(lines.count == 6, "\(lines)")
        let check = repository + "/scripts/lib/ha-discovery-check.py"
        let good = try Child.run(homeAssistantPython, [check], input: Array(lines.joined(separator: "\n").utf8))
        let said = String(decoding: good.stdout + good.stderr, as: UTF8.self)
        #expect(good.code == 0, "\(said)")
        #expect(said.contains("6 of 6 configs pass Home Assistant "), "\(said)")

        // The check can fail: the light's command topic misspelt, the sensor's state topic gone.
        let broken = lines.map { line in
            line.hasPrefix("homeassistant/light/") ? line.replacingOccurrences(of: "\"command_topic\"", with: "\"comand_topic\"")
                : line.hasPrefix("homeassistant/sensor/") ? line.replacingOccurrences(of: "\"state_topic\"", with: "\"state_topik\"") : line
        }
        let bad = try Child.run(homeAssistantPython, [check], input: Array(broken.joined(separator: "\n").utf8))
        let refused = String(decoding: bad.stdout, as: UTF8.self)
        #expect(bad.code == 1, "\(refused)")
        #expect(refused.contains("light/hall-2/screen/config: Home Assistant refuses it: required key not provided @ data['command_topic']"), "\(refused)")
        #expect(refused.contains("3 of 6 configs pass"), "\(refused)")
    }

    @Test("mqtt.discovery = homeassistant: six retained configs of one device, each within the documented keys, read back as Home Assistant subscribes; the light and the schedule act through the command topic; turned off, the configs are cleared")
    func announcesAndClears() throws {
        let broker = try TestBroker()
        try broker.publish("board/list", #"[{"id":"1","title":"one"}]"#, retain: true)
        let state = try scratchDirectory("discovery-state")
        defer { try? FileManager.default.removeItem(atPath: state) }
        func kiosk(_ discovery: String) throws -> (ProgramRun, String, String) { try Self.kiosk(broker: broker, discovery: discovery, state: state) }
        let (run, dir, socket) = try kiosk("homeassistant")
        defer { kill(run.process.processIdentifier, SIGKILL); _ = run.finish(timeout: 5); try? FileManager.default.removeItem(atPath: dir) }
        #expect(run.wait(for: "announced to Home Assistant: 6 entities under homeassistant"), "\(run.log)")

        // What a Home Assistant that starts now reads: the retained configs.
        let lines = try broker.messages("homeassistant/+/hall-2/+/config", count: 6, timeout: 5, withTopics: true)
        #expect(lines.count == 6, "\(lines)")
        var components: [String] = []
        for line in lines {
            let topic = String(line.prefix { $0 != " " })
            let parts = topic.split(separator: "/")
            #expect(parts.count == 5 && parts[0] == "homeassistant" && parts[2] == "hall-2" && parts[4] == "config", "\(topic)")
            let component = String(parts[1])
            components.append(component)
            guard case .object(let config)? = try? JSONValue.parse(Array(line.dropFirst(topic.count + 1).utf8)) else {
                Issue.record("not a JSON object: \(line)")
                continue
            }
            let keys = componentKeys[component] ?? ([], [])
            let unknown = Set(config.keys).subtracting(commonKeys).subtracting(keys.allowed)
            #expect(unknown.isEmpty, "\(component): keys Home Assistant does not document: \(unknown)")
            #expect(keys.required.isSubset(of: Set(config.keys)), "\(component): \(config.keys.sorted())")
            #expect(config["unique_id"] == .string("hall-2_\(parts[3])"))
            guard case .object(let device)? = config["device"], case .array(let availability)? = config["availability"] else {
                Issue.record("\(component): no device or availability")
                continue
            }
            #expect(device["name"] == .string("Hall 2") && device["identifiers"] == .array([.string("hall-2")]))
            #expect(Set(device.keys).isSubset(of: deviceKeys), "\(device.keys.sorted())")
            for case .object(let entry) in availability {
                #expect(entry["topic"] == .string("panel-refresh/hall-2/status") && Set(entry.keys).isSubset(of: availabilityKeys))
            }
            for key in ["state_topic", "brightness_state_topic"] where config[key] != nil && component != "event" {
                #expect(config[key] == .string("panel-refresh/hall-2/status"))
            }
            if case .string(let command)? = config["command_topic"] { #expect(command == "panel-refresh/hall-2/command") }
        }
        #expect(components.sorted() == ["button", "event", "light", "sensor", "sensor", "switch"])

        // What the light's slider and the switch send act as ctl's words do; the status says it.
        try broker.publish("panel-refresh/hall-2/command", "brightness 40")
        try broker.publish("panel-refresh/hall-2/command", "schedule off")
        let watch = Stopwatch()
        var status = ""
        while !(status.contains(#""brightness":40"#) && status.contains(#""scheduleOn":false"#)) && watch.elapsed < 10 {
            status = String(decoding: try runProgram(["ctl", "status", "--socket", socket]).1, as: UTF8.self)
            usleep(100_000)
        }
        #expect(status.contains(#""brightness":40"#) && status.contains(#""scheduleOn":false"#), "\(status)")
        try broker.publish("panel-refresh/hall-2/command", "blank")
        #expect(try MQTTProgramTests.wait(socket) { $0.state == "blank" }?.state == "blank")
        kill(run.process.processIdentifier, SIGTERM)
        #expect(run.finish() == 0)

        // Turned off: the next start clears what it announced, once.
        let (off, offDir, _) = try kiosk("none")
        defer { kill(off.process.processIdentifier, SIGKILL); _ = off.finish(timeout: 5); try? FileManager.default.removeItem(atPath: offDir) }
        #expect(off.wait(for: "the 6 configs published before are cleared"), "\(off.log)")
        let left = try broker.messages("homeassistant/#", count: 1, timeout: 1.5)
        #expect(left.isEmpty, "retained configs left: \(left)")
        #expect(!FileManager.default.fileExists(atPath: HomeAssistantDiscovery.markerPath(stateDirectory: state)))
    }
}
