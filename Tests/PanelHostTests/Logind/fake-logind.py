#!/usr/bin/python3
# A stand-in for systemd-logind on a private bus, for LogindSessionTests: the calls the host
# makes (GetSession, TakeControl, TakeDevice, PauseDeviceComplete) answered as logind answers
# them, and the signals it listens to (PauseDevice, ResumeDevice) sent when the test asks
# (org.example.Fake.Emit). Every call is recorded (org.example.Fake.Calls).
# usage: fake-logind.py ADDRESS    (prints "ready" once it owns org.freedesktop.login1)
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

SESSION = "/org/freedesktop/login1/session/_31"
calls = []


class Manager(dbus.service.Object):
    @dbus.service.method("org.freedesktop.login1.Manager", in_signature="s", out_signature="o")
    def GetSession(self, session_id):
        calls.append("GetSession " + session_id)
        if session_id != "1":
            raise dbus.exceptions.DBusException("No session '%s' known" % session_id,
                                                name="org.freedesktop.login1.NoSuchSession")
        return dbus.ObjectPath(SESSION)

    @dbus.service.method("org.example.Fake", in_signature="", out_signature="as")
    def Calls(self):
        return calls

    @dbus.service.method("org.example.Fake", in_signature="suu", out_signature="")
    def Emit(self, what, major, minor):
        if what == "resume":
            with open("/dev/null", "rb") as device:
                session.ResumeDevice(major, minor, dbus.types.UnixFd(device))
        else:
            session.PauseDevice(major, minor, what)


class Session(dbus.service.Object):
    controlled = False

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="b", out_signature="")
    def TakeControl(self, force):
        calls.append("TakeControl %s" % bool(force))
        if self.controlled:
            raise dbus.exceptions.DBusException("Device or resource busy", name="System.Error.EBUSY")
        self.controlled = True

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="uu", out_signature="hb")
    def TakeDevice(self, major, minor):
        calls.append("TakeDevice %d:%d" % (major, minor))
        with open("/dev/null", "rb") as device:
            return dbus.types.UnixFd(device), False

    @dbus.service.method("org.freedesktop.login1.Session", in_signature="uu", out_signature="")
    def PauseDeviceComplete(self, major, minor):
        calls.append("PauseDeviceComplete %d:%d" % (major, minor))

    @dbus.service.signal("org.freedesktop.login1.Session", signature="uus")
    def PauseDevice(self, major, minor, kind):
        pass

    @dbus.service.signal("org.freedesktop.login1.Session", signature="uuh")
    def ResumeDevice(self, major, minor, fd):
        pass


DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName("org.freedesktop.login1", bus)
manager = Manager(bus, "/org/freedesktop/login1")
session = Session(bus, SESSION)
print("ready", flush=True)
GLib.MainLoop().run()
