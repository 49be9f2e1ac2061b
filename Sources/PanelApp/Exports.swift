// PanelApp is the name the host had before it was split from the kiosk program: it stays for
// one release as an umbrella that re-exports PanelHost, so an app written against it still
// builds. New code imports PanelHost.
@_exported import PanelHost
