import Foundation
import Testing
@testable import PanelHost
@testable import PanelKiosk

@MainActor
@Suite("The broker's settings")
struct MQTTConfigurationTests {
    @Test("mqtt:// and mqtts:// with their ports, IPv6 in brackets; anything else refused with what is wrong")
    func addresses() throws {
        var c = KioskConfiguration()
        try c.set("data.mqtt-url", "mqtt://broker.example.net")
        #expect(c.mqttBroker == MQTTAddress(host: "broker.example.net", port: 1883, tls: false))
        try c.set("data.mqtt-url", "mqtts://10.0.0.2")
        #expect(c.mqttBroker == MQTTAddress(host: "10.0.0.2", port: 8883, tls: true))
        try c.set("data.mqtt-url", "mqtt://[fd00::1]:1884")
        #expect(c.mqttBroker == MQTTAddress(host: "fd00::1", port: 1884, tls: false))
        #expect(c.mqttBroker?.description == "mqtt://[fd00::1]:1884")
        for (bad, says) in [("http://broker", "is not an mqtt:// or mqtts:// URL"), ("mqtt://user@broker", "the user is data.mqtt-user"),
                            ("mqtt://broker/list", "the topic data.mqtt-topic"), ("mqtt://broker:0", "the port must be 1 to 65535"),
                            ("mqtt://:1883", "names no host"), ("mqtt://[fd00::1", "without its ]")] {
            #expect { try c.set("data.mqtt-url", bad) } throws: { "\($0)".contains(says) }
        }
        #expect { try c.set("data.mqtt-topic", "boards/#") } throws: { "\($0)".contains("no wildcards") }
        #expect { try c.set("data.mqtt-client-id", "a/b") } throws: { "\($0)".contains("not a client id") }
    }

    @Test("what needs a broker says so; the client id and topics follow the machine id; check finds an unreadable CA file")
    func needsAndDefaults() throws {
        var c = KioskConfiguration()
        try c.set("data.source", "mqtt")
        #expect { try c.validate(file: "f") } throws: { "\($0)".contains("data.source = mqtt needs data.mqtt-url") }
        try c.set("data.mqtt-url", "mqtt://127.0.0.1")
        #expect { try c.validate(file: "f") } throws: { "\($0)".contains("needs data.mqtt-topic") }
        var tap = KioskConfiguration()
        try tap.set("rows.tap", "publish")
        #expect { try tap.validate(file: "f") } throws: { "\($0)".contains("rows.tap = publish needs a broker") }
        try c.set("data.mqtt-topic", "boards/a")
        let settings = try #require(try FleetLink.settings(for: c, machineID: "0123456789abcdef"))
        let id = settings.connection.clientID
        #expect(id.hasPrefix("panel-") && id.count == 22)
        #expect(try FleetLink.settings(for: c, machineID: "0123456789abcdef")?.connection.clientID == id, "the same machine, the same id")
        #expect(settings.statusTopic == "panel-refresh/\(id)/status" && settings.tapTopic == "panel-refresh/\(id)/tap")
        #expect(settings.connection.will?.topic == settings.statusTopic && settings.commandTopic == "panel-refresh/\(id)/command" && !settings.commandsOn && settings.listTopic == "boards/a")
        try c.set("data.mqtt-ca-file", "/nonexistent/ca.pem")
        #expect(c.fileProblems(screen: nil).contains { $0.key == "data.mqtt-ca-file" && $0.message.contains("No such file") })
    }

    @Test("panel.name (else the host name) is in ctl status, the metrics and the client id: panel-hall-2-east- and the machine's hash")
    func panelName() throws {
        let hash = FleetLink.defaultClientID(name: "", machineID: "0123456789abcdef")
        #expect(hash.count == 22 && hash.hasPrefix("panel-"))
        #expect(FleetLink.defaultClientID(name: "Hall 2 (east)", machineID: "0123456789abcdef") == "panel-hall-2-east-" + hash.dropFirst(6).prefix(8))
        #expect(FleetLink.defaultClientID(name: "Кухня", machineID: "0123456789abcdef") == hash, "no letter of a-z: the hash alone")
        #expect(FleetLink.defaultClientID(name: String(repeating: "ab-", count: 30), machineID: "x").count <= 6 + 32 + 1 + 8)
        var c = KioskConfiguration()
        try c.set("panel.name", "Hall 2")
        #expect { try c.set("panel.name", "") } throws: { "\($0)".contains("not a name of 1 to 64 characters") }
        try c.set("data.mqtt-url", "mqtt://127.0.0.1")
        let settings = try #require(try FleetLink.settings(for: c, machineID: "0123456789abcdef", name: "Hall 2"))
        #expect(settings.connection.clientID.hasPrefix("panel-hall-2-") && settings.statusTopic.hasPrefix("panel-refresh/panel-hall-2-"))
        var machine = MachineEnvironment.neutral
        machine.hostName = "kiosk-7"
        var named = KioskConfiguration()
        named.panelName = "Hall 2"
        let kiosk = try Kiosk.virtual(configuration: named, machine: machine)
        let status = kiosk.status()
        #expect(status.json.contains(#""name":"Hall 2""#) && status.json.contains(#""host":"kiosk-7""#), "\(status.json)")
        #expect(MetricsExposition.prometheus.render(status).contains(#"panel_refresh_panel_info{name="Hall 2",host="kiosk-7"} 1"#))
        let unnamed = try Kiosk.virtual(machine: machine)
        #expect(unnamed.status().json.contains(#""name":"kiosk-7""#), "the host name stands for the name")
    }
}
