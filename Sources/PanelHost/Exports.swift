// An app on the host speaks of displays, scenes, views and refresh components: `import
// PanelHost` brings the UI, refresh, display, renderer and input types along, so an app
// writes one import.
@_exported import PanelDisplay
@_exported import PanelGestures
@_exported import PanelInput
@_exported import PanelPhysics
@_exported import PanelRefresh
@_exported import PanelRender
@_exported import PanelUI
