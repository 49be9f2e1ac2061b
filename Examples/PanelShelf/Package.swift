// swift-tools-version:6.0
// An app of its own on the PanelRefresh kiosk host: a shelf list with pull to refresh and
// paging, on the panel (real time) or offline writing a frame (virtual time). It depends on the
// library by path, as an app beside a checkout would. scripts/check-examples builds it with the
// programs of README.md and docs/ (put into Programs/ by that script, one target each).
import Foundation
import PackageDescription

let programs = ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Programs")) ?? []).sorted()
let app: Target.Dependency = .product(name: "PanelHost", package: "PanelRefresh")

let package = Package(
    name: "PanelShelf",
    dependencies: [.package(name: "PanelRefresh", path: "../..")],
    targets: [.executableTarget(name: "panel-shelf", dependencies: [app], path: "Sources/Shelf")]
        + programs.map { .executableTarget(name: $0, dependencies: [app], path: "Programs/\($0)") },
    swiftLanguageModes: [.v6]
)
