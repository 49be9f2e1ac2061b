import Glibc

/// How frames reach the glass on one card, found at bring-up.
public enum DRMPresentPath: Sendable, Hashable {
    /// One non-blocking atomic commit per frame setting the primary plane's framebuffer, with
    /// `FB_DAMAGE_CLIPS` naming the changed rectangles where the plane has that property (SPI
    /// and USB panels, remote displays transfer only those).
    case atomic(AtomicPlane)
    /// drmModePageFlip per frame, with drmModeDirtyFB naming the changed rectangles first on
    /// drivers that accept it (those that upload on request: virtio-gpu).
    case legacy

    /// The property ids an atomic commit needs.
    public struct AtomicPlane: Sendable, Hashable {
        /// The primary plane the commits set.
        public var plane: UInt32
        /// The plane's FB_ID property.
        public var framebufferProperty: UInt32
        /// nil: the driver takes no damage clips (it updates the whole plane).
        public var damageClipsProperty: UInt32?
        /// The CRTC's ACTIVE property: blanking.
        public var activeProperty: UInt32
        /// The rotations the plane's `rotation` property offers, degrees (empty: none).
        public var rotations: Set<Int>
    }

    /// DRM_PLANE_TYPE_PRIMARY, the value of a plane's `type` property.
    static let primaryPlaneType: UInt64 = 1
    /// DRM_CAP_DUMB_PREFER_SHADOW (drm.h).
    static let preferShadowCapability: UInt64 = 0x4

    /// The atomic path when the driver has it and the CRTC has a primary plane with the
    /// properties a commit needs; the legacy path otherwise.
    @MainActor
    static func find(_ drm: any DRMCalls, fd: Int32, crtc: UInt32) -> DRMPresentPath {
        guard drm.enableAtomic(fd),
              let resources = try? drm.resources(fd), let index = resources.crtcs.firstIndex(of: crtc),
              let planes = try? drm.planes(fd),
              let crtcProperties = try? drm.properties(fd, object: crtc, type: .crtc),
              let active = crtcProperties["ACTIVE"]?.id else { return .legacy }
        for plane in planes where plane.possibleCrtcs & (1 << UInt32(index)) != 0 {
            guard let properties = try? drm.properties(fd, object: plane.id, type: .plane),
                  properties["type"]?.value == primaryPlaneType,
                  let framebuffer = properties["FB_ID"]?.id else { continue }
            var rotations = Set<Int>()
            for (name, _) in properties["rotation"]?.enums ?? [:] {
                if name.hasPrefix("rotate-"), let degrees = Int(name.dropFirst(7)) { rotations.insert(degrees) }
            }
            return .atomic(AtomicPlane(plane: plane.id, framebufferProperty: framebuffer,
                                       damageClipsProperty: properties["FB_DAMAGE_CLIPS"]?.id,
                                       activeProperty: active, rotations: rotations))
        }
        return .legacy
    }
}
