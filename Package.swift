// swift-tools-version:6.0
// The module graph follows the data flow one way: input -> gestures -> physics -> UI ->
// refresh -> render -> display -> host (what apps import) -> kiosk (the program's own).
// Gestures, physics, UI and refresh are pure Swift: no C modules, no I/O, no clock of their
// own. Input is where the kernel comes in.
import PackageDescription

/// This folder, absolute: the linker runs elsewhere (and in the arm64 build chroot, where the
/// folder is mounted at the same path).
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "PanelRefresh",
    // Every public module is a library of its own. PanelHost is what apps are promised (an
    // app's views on the panel with touch, hotplug, the seat, signals, blanking and sd_notify
    // in real time, and the same in its tests in virtual time; Examples/ uses it); it links
    // nothing of HTTP, MQTT or JSON. PanelApp is its old name, an umbrella kept for one
    // release. PanelKiosk, the program's own library, is no product: apps are not promised it.
    products: ["PanelRefresh", "PanelUI", "PanelGestures", "PanelPhysics", "PanelInput", "PanelRender", "PanelDisplay", "PanelHost", "PanelApp"]
        .map { Product.library(name: $0, targets: [$0]) } + [
        .executable(name: "panel-refresh", targets: ["PanelRefreshProgram"]),
        .executable(name: "panel-refresh-example", targets: ["PanelRefreshExample"]),
        .executable(name: "panel-refresh-bench", targets: ["PanelRefreshBench"]),
        .executable(name: "panel-refresh-fuzz", targets: ["PanelRefreshFuzz"]),
    ],
    targets: [
        .target(name: "PanelGestures"),
        .target(name: "PanelPhysics"),
        .target(name: "PanelUI", dependencies: ["PanelGestures", "PanelPhysics"]),
        .target(name: "PanelRefresh", dependencies: ["PanelUI"]),
        // Touchscreens: evemu recordings and slot assembly in Swift; live devices through
        // libevdev and libudev.
        .target(name: "PanelInput", dependencies: ["PanelGestures", "CEvdev", "CUdev"]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Pixels: the UI's view tree drawn with pixman, FreeType + fontconfig, libpng; image files
        // are read through PanelInput's BoundedFile (regular files only, size-bounded).
        .target(name: "PanelRender", dependencies: ["PanelUI", "PanelInput", "CPixman", "CFreeType", "CFontconfig", "CHarfBuzz", "CFriBidi", "CLineBreak", "CPNG", "CPNGRows", "CTurboJPEG", "CWebP", "CStream"]),
        // Cache-bypassing stores for the copy into scanout memory (a header, no library).
        .systemLibrary(name: "CStream"),
        .target(name: "PanelDisplay", dependencies: ["PanelRender", "PanelInput", "CDRM", "CLinuxFB", "CConsole", "CUdev", "CWindow"]),
        // The virtual terminal's ioctls (VT switching, graphics mode), header only.
        .systemLibrary(name: "CConsole"),
        // A desktop window for developing (WindowDisplay): libSDL2 is opened at the first window,
        // never linked, and its headers are optional at build time (Sources/CWindow/panel_window.c).
        .target(name: "CWindow", dependencies: ["CDynamic"]),
        // The one call the libraries opened at their first use share (dlopen, its error said).
        // Each library's C target keeps what dlopen found in its one C file, so any Swift file
        // may call it: CWindow, CCurl, CMosquitto, CLineBreak.
        .target(name: "CDynamic"),
        // The one header-only shim for what Swift cannot call: the variadic fbdev ioctls.
        .systemLibrary(name: "CLinuxFB"),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // Text in every script: HarfBuzz shapes on the FreeType faces, FriBidi orders
        // right-to-left runs, libunibreak finds where lines may break (UAX #14) and libthai
        // where Thai words end; both opened at the first layout (Sources/CLineBreak), a C
        // target so that what dlopen found has one copy in the program.
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .target(name: "CLineBreak", dependencies: ["CDynamic"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // A PNG read row by row and reduced as it comes (a thumbnail of a large picture without
        // its whole image in memory): libpng's full API reports errors by longjmp, so the read
        // is C.
        .target(name: "CPNGRows", dependencies: ["CPNG"]),
        // Row pictures: JPEG through libjpeg-turbo's TurboJPEG (scaled decode), WebP through libwebp.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // JSON (item files and pages, the status, the last-updated file) through json-c, behind
        // JSONValue: FoundationEssentials' JSONDecoder and its Codable machinery were most of
        // the 4.8 MB and 1.2 MB resident that Foundation cost the program (scripts/foundation-cost).
        .systemLibrary(name: "CJSON", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"])]),
        .executableTarget(name: "PanelRefreshExample", dependencies: ["PanelRefresh"]),
        // The host apps own: the stage, the real- and virtual-time drivers, the seat, signals,
        // the host's keys. libsystemd, and nothing of HTTP, MQTT or JSON (a test holds it).
        .target(name: "PanelHost", dependencies: ["PanelRefresh", "PanelInput", "PanelRender", "PanelDisplay", "CSystemd", "CProcess"]),
        // PanelHost under its name before the split, for one release.
        .target(name: "PanelApp", dependencies: ["PanelHost"]),
        // The program's own: the configured list, data sources, pictures, the control socket,
        // the broker, metrics, tap commands, its keys and subcommands.
        .target(name: "PanelKiosk", dependencies: ["PanelHost", "CCurl", "CMosquitto", "CProcess", "CJSON"]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // HTTP data sources: libcurl bounds size, time, speed, redirects and schemes while it receives.
        // libcurl is opened at the first transfer (Sources/CCurl/panel_curl.c), not linked;
        // curl.h (libcurl4-openssl-dev) gives the types.
        .target(name: "CCurl", dependencies: ["CDynamic"]),
        // What libmosquitto's dlopen found lives in one file (panel_mosquitto.c), so an
        // optimiser that inlines a caller into another file cannot reach a copy that was never
        // loaded. mosquitto.h (libmosquitto-dev) gives the types.
        .target(name: "CMosquitto", dependencies: ["CDynamic"]),
        // Command data sources: the wait-status macros and waitid's siginfo_t that Swift cannot import.
        .systemLibrary(name: "CProcess"),
        // The shipped program links with lld and packed relative relocations (DT_RELR, glibc
        // 2.36, bookworm's): the static Swift runtime brings some 43,000 relative relocations,
        // 1 MB of table in the file that every start reads; packed they take 8 KB. lld also
        // puts the functions that run at start (startup-order.txt, from
        // scripts/update-symbol-order) together, so fewer pages of code stay resident. The static
        // runtime's link arguments export every symbol of the program's own modules
        // (-export-dynamic): 0.6 MB of dynamic symbol table nothing looks up (the panel has no
        // swift-backtrace to name frames with it), so it is turned off again.
        // docs/deployment.md, "What it costs on a panel", has the figures.
        .executableTarget(
            name: "PanelRefreshProgram", dependencies: ["PanelKiosk"], exclude: ["startup-order.txt"],
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                              "-Xlinker", "--symbol-ordering-file=\(packageRoot)/Sources/PanelRefreshProgram/startup-order.txt",
                              "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic"],
                             .when(platforms: [.linux], configuration: .release)),
            ]),
        // Fuzzing (scripts/fuzz, docs/reliability.md): the targets and libFuzzer's entry points
        // as a library the tests also run over the seed corpora; the program's C main is weak,
        // so libFuzzer's takes over in the fuzzing build and a plain build replays files.
        .target(name: "PanelFuzz", dependencies: ["PanelKiosk", "CTurboJPEG", "CWebP"]),
        .executableTarget(name: "PanelRefreshFuzz", dependencies: ["PanelFuzz"]),
        // The feel figures of a replay (lag and judder under the finger): the bench and the
        // tests take them, the program does not (every byte of it counts on a panel).
        .target(name: "PanelFeel", dependencies: ["PanelKiosk"]),
        .executableTarget(name: "PanelRefreshBench", dependencies: ["PanelKiosk", "PanelFuzz", "PanelFeel"]),
        .testTarget(name: "PanelGesturesTests", dependencies: ["PanelGestures"]),
        .testTarget(name: "PanelPhysicsTests", dependencies: ["PanelPhysics"]),
        .testTarget(name: "PanelUITests", dependencies: ["PanelUI"]),
        .testTarget(name: "PanelRefreshTests", dependencies: ["PanelRefresh"]),
        .testTarget(name: "PanelInputTests", dependencies: ["PanelInput", "PanelRefresh"], exclude: ["Fixtures"]),
        // The app path: what an app gets of the host, with no kiosk in the test bundle.
        .testTarget(name: "PanelHostTests", dependencies: ["PanelHost", "PanelTestSupport"], exclude: ["Logind"]),
        .testTarget(name: "PanelKioskTests", dependencies: ["PanelKiosk", "PanelFuzz", "PanelFeel", "PanelTestSupport"], exclude: ["Traces"]),
        .testTarget(name: "PanelRenderTests", dependencies: ["PanelKiosk", "PanelFuzz", "PanelTestSupport"], exclude: ["Golden", "Pictures"]),
        // The displays (DRM in memory, fbdev in memory, headless, the window's pointer): no host.
        .testTarget(name: "PanelDisplayTests", dependencies: ["PanelDisplay", "PanelRefresh", "PanelTestSupport"]),
        // What the tests share: the golden frames' check and stage, a card in memory, files and processes.
        .target(name: "PanelTestSupport", dependencies: ["PanelDisplay", "PanelRefresh", "CProcess"], path: "Tests/PanelTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
