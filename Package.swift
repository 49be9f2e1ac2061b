// swift-tools-version:6.0
// The module graph follows the data flow of shared/design.md, one way:
// gestures -> physics -> UI -> refresh components. These four are pure Swift:
// no C modules, no I/O besides the last-updated store, no clock of their own.
import PackageDescription

let package = Package(
    name: "PanelRefresh",
    products: [
        .library(name: "PanelRefresh", targets: ["PanelRefresh"]),
        .library(name: "PanelUI", targets: ["PanelUI"]),
        .library(name: "PanelGestures", targets: ["PanelGestures"]),
        .library(name: "PanelPhysics", targets: ["PanelPhysics"]),
        .executable(name: "panel-refresh-example", targets: ["PanelRefreshExample"]),
    ],
    targets: [
        .target(name: "PanelGestures"),
        .target(name: "PanelPhysics"),
        .target(name: "PanelUI", dependencies: ["PanelGestures", "PanelPhysics"]),
        .target(name: "PanelRefresh", dependencies: ["PanelUI"]),
        .executableTarget(name: "PanelRefreshExample", dependencies: ["PanelRefresh"]),
        .testTarget(name: "PanelGesturesTests", dependencies: ["PanelGestures"]),
        .testTarget(name: "PanelPhysicsTests", dependencies: ["PanelPhysics"]),
        .testTarget(name: "PanelUITests", dependencies: ["PanelUI"]),
        .testTarget(name: "PanelRefreshTests", dependencies: ["PanelRefresh"]),
    ],
    swiftLanguageModes: [.v6]
)
