// The program is one more app of the host: `import PanelKiosk` brings the host along.
@_exported import PanelHost
