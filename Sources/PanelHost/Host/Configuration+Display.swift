import Glibc
import PanelDisplay
import PanelInput

@MainActor
extension Configuration {
    /// The display this configuration asks for (`display.backend`), opened: `auto` tries DRM,
    /// then fbdev, then, where a window system is (`windowSystem`: `$DISPLAY` or
    /// `$WAYLAND_DISPLAY` set), a desktop window, so an app run from a desktop's terminal shows
    /// there. With a logind `session` the DRM card is taken from it (`TakeDevice`) instead of
    /// opened. Every host opens its display here: the program's, an app's, the live demo's.
    public func openDisplay(session: LogindSession? = nil, windowSystem: Bool = false) throws -> any Display {
        let drm = LibDRM()
        if let session {
            drm.opener = { path in
                guard let number = DeviceNumber(path: path) else { throw DisplayError.call("\(path) is not a device", errno: ENODEV) }
                let taken = try session.takeDevice(number)
                if taken.paused { Log.warning("\(path): logind says the session is not in front; drawing waits for it") }
                return taken.fd
            }
        }
        switch backend {
        case .headless:
            // display.headless-size is the glass's; the picture is turned on it as on a card.
            return HeadlessDisplay(glassWidth: headlessSize.width, glassHeight: headlessSize.height, rotation: displayRotation)
        case .window:
            return try window()
        case .drm:
            return try DRMDisplay(path: card, size: mode, rotation: displayRotation, drm: drm)
        case .fbdev:
            return try FramebufferDisplay(path: framebuffer, rotation: displayRotation)
        case .auto:
            do {
                return try DRMDisplay(path: card, size: mode, rotation: displayRotation, drm: drm)
            } catch let drmError {
                Log.warning("no DRM display (\(drmError)); trying \(framebuffer)")
                do {
                    return try FramebufferDisplay(path: framebuffer, rotation: displayRotation)
                } catch let fbError {
                    guard windowSystem else { throw DisplayError.noDisplay("DRM: \(drmError); fbdev: \(fbError)") }
                    Log.info("no panel (fbdev: \(fbError)); a window system is here: showing in a desktop window")
                    do {
                        return try window()
                    } catch {
                        throw DisplayError.noDisplay("DRM: \(drmError); fbdev: \(fbError); window: \(error)")
                    }
                }
            }
        }
    }

    /// A desktop window of `display.window-size`, titled `display.window-title`, else
    /// "PanelRefresh" for the program and the app's name for an app.
    private func window() throws -> WindowDisplay {
        let title = windowTitle ?? (appName == "panel-refresh" ? "PanelRefresh" : appName)
        return try WindowDisplay(width: windowSize.width, height: windowSize.height, rotation: displayRotation, title: title)
    }
}
