// A refresh component's API speaks of scroll views, points and pan states: `import
// PanelRefresh` brings the UI, gesture and physics types along.
@_exported import PanelUI
