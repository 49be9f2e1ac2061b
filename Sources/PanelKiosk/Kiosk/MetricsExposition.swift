import PanelHost

/// The kiosk's metrics as text a Prometheus server scrapes or node_exporter's textfile
/// collector reads: names with the `panel_refresh_` prefix and their unit (`_seconds`,
/// `_bytes`), counters ending in `_total` (Prometheus' naming practices), `# HELP` and `# TYPE`
/// before each family. `promtool check metrics` passes the text format; the OpenMetrics 1.0
/// form differs only where that format says (a counter's family is named without `_total`,
/// `# EOF` ends it) and is what `ctl metrics --openmetrics` prints.
public enum MetricsExposition: Sendable {
    /// Prometheus' text exposition format 0.0.4 (`text/plain; version=0.0.4`).
    case prometheus
    /// OpenMetrics 1.0 (`application/openmetrics-text; version=1.0.0`).
    case openMetrics

    /// One family: its name (counters without `_total`), kind, help and samples.
    private struct Family {
        enum Kind: String { case counter, gauge, histogram }
        var name: String
        var kind: Kind
        var help: String
        /// (suffix after the name, labels, value)
        var samples: [(suffix: String, labels: String, value: Double)]
    }

    /// A sample value as the formats write numbers: integers without a point, others with up
    /// to six decimals, `+Inf` for infinity.
    static func value(_ v: Double) -> String {
        if v == .infinity { return "+Inf" }
        guard v.isFinite else { return "NaN" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = TextFormat.fixed(v, decimals: 6)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// A label value escaped as both formats want (backslash, quote, newline).
    static func label(_ s: String) -> String { TextFormat.escaped(s) }

    /// The metrics of `status`, in this format.
    public func render(_ status: KioskStatus) -> String {
        var families: [Family] = []
        func add(_ name: String, _ kind: Family.Kind, _ help: String, _ samples: [(String, String, Double)]) {
            families.append(Family(name: name, kind: kind, help: help, samples: samples.map { (suffix: $0.0, labels: $0.1, value: $0.2) }))
        }
        let r = status.refreshes
        add("panel_refresh_build_info", .gauge, "The program's version.", [("", "version=\"\(Self.label(status.version))\"", 1)])
        add("panel_refresh_panel_info", .gauge, "The panel's name (panel.name, else the host name) and the machine's host name.",
            [("", "name=\"\(Self.label(status.name))\",host=\"\(Self.label(status.hostName))\"", 1)])
        add("panel_refresh_state", .gauge, "1 for the state the kiosk is in, 0 for the others.",
            HostStatus.State.names.map { ("", "state=\"\($0)\"", $0 == status.state.name ? 1 : 0) })
        add("panel_refresh_light", .gauge, "1 for how the panel is lit (lit, dimmed, off), 0 for the others.",
            LightStatus.states.map { ("", "state=\"\($0)\"", $0 == status.host.light.state ? 1 : 0) })
        add("panel_refresh_brightness_percent", .gauge, "The percent of the backlight's maximum the panel shows (0 while off).",
            [("", "", Double(status.host.light.brightness))])
        add("panel_refresh_refreshes", .counter, "Refreshes of the list by result: ok (new items), unchanged, failed.",
            [("_total", "result=\"ok\"", Double(r.changed)), ("_total", "result=\"unchanged\"", Double(r.unchanged)),
             ("_total", "result=\"failed\"", Double(r.failed))])
        add("panel_refresh_http_not_modified", .counter, "HTTP answers that were 304 Not Modified.", [("_total", "", Double(r.notModified))])
        add("panel_refresh_fetched_bytes", .counter, "Bytes fetched over HTTP for the list, headers and bodies as sent.",
            [("_total", "", Double(r.bytesFetched))])
        add("panel_refresh_clock_set", .gauge, "1 when the system clock has been set (not before this version was made), 0 while it shows 1970.",
            [("", "", status.host.clockSet ? 1 : 0)])
        add("panel_refresh_config_last_reload_successful", .gauge,
            "0 while the last reload of the configuration was refused (the one in use is older than the file), else 1.",
            [("", "", status.host.reloadRefused == nil ? 1 : 0)])
        add("panel_refresh_consecutive_failures", .gauge, "Failed refreshes in a row.", [("", "", Double(status.consecutiveFailures))])
        if let last = r.lastSuccess {
            add("panel_refresh_last_success_timestamp_seconds", .gauge, "When the list last refreshed successfully, Unix time.",
                [("", "", last.timeIntervalSince1970)])
        }
        if let age = status.dataAge {
            add("panel_refresh_data_age_seconds", .gauge, "Seconds since the list last refreshed successfully.", [("", "", age)])
        }
        if let next = status.nextRefresh {
            add("panel_refresh_next_refresh_timestamp_seconds", .gauge, "When the next automatic refresh is due, Unix time.",
                [("", "", next.timeIntervalSince1970)])
        }
        add("panel_refresh_items", .gauge, "Items the list shows.", [("", "", Double(status.items))])
        add("panel_refresh_frames", .counter, "Frames presented on the glass.", [("_total", "", Double(status.frames))])
        add("panel_refresh_dropped_frames", .counter, "Vertical blanks missed by frames that came late.",
            [("_total", "", Double(status.droppedFrames))])
        func buckets(_ histogram: LatencyHistogram) -> [(String, String, Double)] {
            var cumulative = 0
            var samples: [(String, String, Double)] = []
            for (index, bound) in LatencyHistogram.bounds.enumerated() {
                cumulative += histogram.counts[index]
                samples.append(("_bucket", "le=\"\(Self.value(bound))\"", Double(cumulative)))
            }
            samples.append(("_bucket", "le=\"+Inf\"", Double(histogram.count)))
            samples.append(("_sum", "", histogram.sum))
            samples.append(("_count", "", Double(histogram.count)))
            return samples
        }
        add("panel_refresh_touch_to_glass_seconds", .histogram,
            "From a touch event's kernel time stamp to the frame that answered it reaching the glass.", buckets(status.touchToGlass))
        add("panel_refresh_sample_to_glass_seconds", .histogram,
            "From the time a frame sampled the finger's place at to that frame reaching the glass.", buckets(status.sampleToGlass))
        add("panel_refresh_picture_cache_bytes", .gauge, "Bytes of decoded row pictures in memory.",
            [("", "", Double(status.pictureCacheBytes))])
        add("panel_refresh_picture_cache_hits", .counter, "Row pictures wanted and found decoded in memory.",
            [("_total", "", Double(status.pictureCacheHits))])
        add("panel_refresh_picture_cache_misses", .counter, "Row pictures wanted and not in memory (fetched or decoded).",
            [("_total", "", Double(status.pictureCacheMisses))])
        // Not process_start_time_seconds and process_resident_memory_bytes: node_exporter
        // has those of its own, and its textfile collector refuses a family it already has
        // (an error at every scrape, and its value kept instead of the kiosk's).
        add("panel_refresh_start_time_seconds", .gauge, "When the kiosk started, Unix time.", [("", "", status.started.timeIntervalSince1970)])
        if let rss = status.residentBytes {
            add("panel_refresh_resident_memory_bytes", .gauge, "The kiosk's resident memory.", [("", "", Double(rss))])
        }
        if let broker = status.brokerState {
            add("panel_refresh_broker_connected", .gauge, "1 while the panel is connected to its MQTT broker.",
                [("", "", broker == "connected" ? 1 : 0)])
            add("panel_refresh_broker_reconnects", .counter, "Connections to the broker made again after the first.",
                [("_total", "", Double(max(0, status.brokerConnections - 1)))])
            if let silence = status.brokerSilence {
                add("panel_refresh_broker_last_message_age_seconds", .gauge,
                    "Seconds since the broker last sent the panel a message (the list, a trigger, a command).", [("", "", silence)])
            }
        }
        var text = ""
        for family in families {
            // Prometheus' format names a counter's family as its sample; OpenMetrics without `_total`.
            let name = self == .prometheus && family.kind == .counter ? family.name + "_total" : family.name
            text += "# HELP \(name) \(family.help)\n# TYPE \(name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                let labels = sample.labels.isEmpty ? "" : "{\(sample.labels)}"
                text += "\(family.name)\(sample.suffix)\(labels) \(Self.value(sample.value))\n"
            }
        }
        if self == .openMetrics { text += "# EOF\n" }
        return text
    }
}
