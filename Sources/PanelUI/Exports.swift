// Points, touches and the physics types are part of PanelUI's API (a scroll view's offset is
// a Point, its spring a SpringDescription): one import gives a user all of them.
@_exported import PanelGestures
@_exported import PanelPhysics
