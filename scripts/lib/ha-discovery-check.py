#!/usr/bin/env python3
"""Checks MQTT discovery configs with Home Assistant's own schemas, as its MQTT integration
reads them: each line of standard input is "TOPIC JSON", the topic
homeassistant/COMPONENT/NODE/OBJECT/config. The keys are expanded as Home Assistant expands
abbreviations (discovery.py), then given to the component's DISCOVERY_SCHEMA.

A config fails when the schema refuses it, when the schema drops a key (discovery schemas
remove keys they do not know, without a word, so a misspelt key would pass), or when Home
Assistant logs a warning while reading it (a deprecated key). Run with the Python of the
environment scripts/bootstrap makes (.ha-venv, Home Assistant from PyPI); exit 0 when every
config passes.
"""
import importlib
import json
import logging
import sys

import voluptuous as vol
from homeassistant.const import __version__ as ha_version
from homeassistant.components.mqtt.abbreviations import ABBREVIATIONS, DEVICE_ABBREVIATIONS


class Collect(logging.Handler):
    """Keeps what Home Assistant warns about while it validates."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def expanded(config):
    """The config with its abbreviated keys written out, as discovery.py does."""
    out = {ABBREVIATIONS.get(k, k): v for k, v in config.items()}
    if isinstance(out.get("device"), dict):
        out["device"] = {DEVICE_ABBREVIATIONS.get(k, k): v for k, v in out["device"].items()}
    if isinstance(out.get("availability"), list):
        out["availability"] = [{ABBREVIATIONS.get(k, k): v for k, v in a.items()} if isinstance(a, dict) else a
                               for a in out["availability"]]
    return out


def main():
    warnings = Collect()
    logging.getLogger("homeassistant").addHandler(warnings)
    failures, checked, failed = [], 0, 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        topic, _, payload = line.partition(" ")
        parts = topic.split("/")
        if len(parts) != 5 or parts[-1] != "config":
            failures.append(f"{topic}: not a discovery topic (PREFIX/COMPONENT/NODE/OBJECT/config)")
            checked, failed = checked + 1, failed + 1
            continue
        component = parts[1]
        try:
            config = expanded(json.loads(payload))
            schema = importlib.import_module(f"homeassistant.components.mqtt.{component}").DISCOVERY_SCHEMA
        except (ValueError, ImportError, AttributeError) as error:
            failures.append(f"{topic}: {error}")
            checked, failed = checked + 1, failed + 1
            continue
        warnings.records.clear()
        try:
            valid = schema(dict(config))
        except vol.Invalid as error:
            failures.append(f"{topic}: Home Assistant refuses it: {error}")
            checked, failed = checked + 1, failed + 1
            continue
        before = len(failures)
        dropped = sorted(set(config) - set(valid))
        if isinstance(config.get("device"), dict) and isinstance(valid.get("device"), dict):
            dropped += [f"device.{k}" for k in sorted(set(config["device"]) - set(valid["device"]))]
        if dropped:
            failures.append(f"{topic}: keys Home Assistant's {component} schema does not know: {', '.join(dropped)}")
        for message in warnings.records:
            failures.append(f"{topic}: Home Assistant warns: {message}")
        checked += 1
        failed += len(failures) > before
    for failure in failures:
        print(failure)
    print(f"ha-discovery-check: {checked - failed} of {checked} configs pass Home Assistant {ha_version}'s schemas")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
