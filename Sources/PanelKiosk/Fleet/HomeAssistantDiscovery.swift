import PanelHost

/// Home Assistant's MQTT discovery (`mqtt.discovery = homeassistant`): the panel announces
/// itself as one device with its entities, each a retained config message on
/// `PREFIX/COMPONENT/CLIENT-ID/OBJECT/config`, as the wall-panel apps that Home Assistant users
/// run do. Every entity reads the panel's retained status topic (its JSON) and is available
/// while that says `"online": true` (the last will says false); those that act publish on the
/// command topic the words `panel-refresh ctl` takes, which the panel acts on with
/// `mqtt.commands = true`. Turned off, the panel clears the configs it published (an empty
/// retained message each), so the device leaves Home Assistant.
public enum HomeAssistantDiscovery {
    /// Where discovery configs go by default (Home Assistant's `discovery_prefix`).
    public static let defaultPrefix = "homeassistant"

    /// One entity's config message.
    public struct Config: Sendable, Equatable {
        /// The retained config topic.
        public var topic: String
        /// Its JSON.
        public var payload: String
    }

    /// The components and object ids announced, in order: the screen, refresh, the items, the
    /// last success, the schedule, a tapped row.
    public static let entities: [(component: String, object: String)] = [
        ("light", "screen"), ("button", "refresh"), ("sensor", "items"), ("sensor", "last_success"), ("switch", "schedule"), ("event", "tap"),
    ]

    /// The config topics for the panel `clientID` under `prefix` (to publish, or to clear).
    public static func topics(prefix: String, clientID: String) -> [String] {
        entities.map { "\(prefix)/\($0.component)/\(clientID)/\($0.object)/config" }
    }

    /// Every entity's config for the panel `clientID` named `name`, on its `statusTopic`,
    /// `commandTopic` and `tapTopic`.
    public static func configs(prefix: String, clientID: String, name: String, version: String,
                               statusTopic: String, commandTopic: String, tapTopic: String) -> [Config] {
        let device: JSONValue = .object([
            "identifiers": .array([.string(clientID)]), "name": .string(name), "manufacturer": .string("PanelRefresh"),
            "model": .string("panel-refresh"), "sw_version": .string(version),
        ])
        let availability: JSONValue = .array([.object([
            "topic": .string(statusTopic), "value_template": .string("{{ 'online' if value_json.online else 'offline' }}"),
        ])])
        func entity(_ object: String, _ title: String, _ fields: [String: JSONValue]) -> JSONValue {
            var all = fields
            all["name"] = .string(title)
            all["unique_id"] = .string("\(clientID)_\(object)")
            all["device"] = device
            all["availability"] = availability
            return .object(all)
        }
        let payloads: [JSONValue] = [
            entity("screen", "Screen", [
                // On and off are ctl's wake and blank; the level is ctl's brightness, in percent.
                "command_topic": .string(commandTopic), "payload_on": .string("wake"), "payload_off": .string("blank"),
                "state_topic": .string(statusTopic), "state_value_template": .string("{{ 'OFF' if value_json.light.state == 'off' else 'ON' }}"),
                "brightness_command_topic": .string(commandTopic), "brightness_command_template": .string("brightness {{ value }}"),
                "brightness_state_topic": .string(statusTopic), "brightness_value_template": .string("{{ value_json.light.brightness }}"),
                "brightness_scale": .integer(100),
            ]),
            entity("refresh", "Refresh", ["command_topic": .string(commandTopic), "payload_press": .string("refresh")]),
            entity("items", "Items", ["state_topic": .string(statusTopic), "value_template": .string("{{ value_json.items }}"),
                                      "state_class": .string("measurement")]),
            entity("last_success", "Last success", [
                "state_topic": .string(statusTopic), "device_class": .string("timestamp"),
                "value_template": .string("{{ value_json.lastSuccess or 'None' }}"),
            ]),
            entity("schedule", "Light schedule", [
                "command_topic": .string(commandTopic), "payload_on": .string("schedule on"), "payload_off": .string("schedule off"),
                "state_topic": .string(statusTopic), "value_template": .string("{{ 'ON' if value_json.light.scheduleOn else 'OFF' }}"),
                "state_on": .string("ON"), "state_off": .string("OFF"),
            ]),
            entity("tap", "Tapped row", [
                "state_topic": .string(tapTopic), "event_types": .array([.string("tap")]),
                "value_template": .string("{{ {'event_type': 'tap', 'title': value_json.title | default('')} | tojson }}"),
            ]),
        ]
        return zip(topics(prefix: prefix, clientID: clientID), payloads).map {
            Config(topic: $0, payload: String(decoding: $1.encoded, as: UTF8.self))
        }
    }

    /// The file in the state directory that says configs were published, so that a panel with
    /// discovery turned off clears them once (and one that never published any sends nothing).
    public static func markerPath(stateDirectory: String) -> String { stateDirectory + "/home-assistant-discovery" }
}
