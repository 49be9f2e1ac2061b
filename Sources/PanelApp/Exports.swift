// An app on the kiosk host speaks of displays, scenes, views and refresh components: `import
// PanelApp` brings the display, renderer, input and refresh types along.
@_exported import PanelDisplay
@_exported import PanelInput
@_exported import PanelRefresh
@_exported import PanelRender
