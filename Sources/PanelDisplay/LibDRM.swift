import CDRM
import PanelInput
import Glibc

/// `DRMCalls` through libdrm: the real kernel interface.
@MainActor
public final class LibDRM: DRMCalls {
    /// Flip records handed to drmModePageFlip and drmModeAtomicCommit as user data, one per
    /// descriptor; the C handler fills them.
    private var counters: [Int32: UnsafeMutablePointer<panel_drm_flips>] = [:]

    /// The kernel's DRM through libdrm.
    public init() {}

    /// Opens cards instead of `open(2)` (logind's `TakeDevice`, for a kiosk in a logind
    /// session); nil: the node is opened read-write through the process's own permissions.
    public var opener: ((String) throws -> Int32)?

    isolated deinit {
        for counter in counters.values { counter.deallocate() }
    }

    private func fail(_ call: String, _ rc: Int32? = nil) -> DisplayError {
        let code = rc.map { $0 < 0 ? -$0 : errno } ?? errno
        return .call(call, errno: code == 0 ? EIO : code)
    }

    /// /dev/dri/card* that exist, sorted.
    public func cards() -> [String] {
        let names = DirectoryNames.of("/dev/dri") ?? []
        return names.filter { $0.hasPrefix("card") }.sorted {
            (Int($0.dropFirst(4)) ?? 0) < (Int($1.dropFirst(4)) ?? 0)
        }.map { "/dev/dri/" + $0 }
    }

    /// Opens the card node `path` read-write; returns its descriptor.
    public func open(_ path: String) throws -> Int32 {
        if let opener { return try opener(path) }
        let fd = Glibc.open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            throw e == EACCES || e == EBUSY ? DisplayError.busy(card: path, errno: e) : DisplayError.call("open \(path)", errno: e)
        }
        return fd
    }

    /// Closes the card's descriptor.
    public func close(_ fd: Int32) {
        counters.removeValue(forKey: fd)?.deallocate()
        _ = Glibc.close(fd)
    }

    /// drmModeGetResources: the card's connectors, CRTCs and encoders.
    public func resources(_ fd: Int32) throws -> DRMResources {
        guard let r = drmModeGetResources(fd) else { throw fail("drmModeGetResources") }
        defer { drmModeFreeResources(r) }
        func list(_ p: UnsafeMutablePointer<UInt32>?, _ n: Int32) -> [UInt32] {
            guard let p, n > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: p, count: Int(n)))
        }
        return DRMResources(connectors: list(r.pointee.connectors, r.pointee.count_connectors),
                            crtcs: list(r.pointee.crtcs, r.pointee.count_crtcs),
                            encoders: list(r.pointee.encoders, r.pointee.count_encoders))
    }

    static func mode(_ info: drmModeModeInfo) -> DRMMode {
        var copy = info
        let raw = withUnsafeBytes(of: &copy) { Array($0) }
        let name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return DRMMode(width: Int(info.hdisplay), height: Int(info.vdisplay), refresh: Int(info.vrefresh),
                       isPreferred: info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0, name: name, raw: raw)
    }

    static func info(_ mode: DRMMode) -> drmModeModeInfo? {
        guard mode.raw.count == MemoryLayout<drmModeModeInfo>.size else { return nil }
        var info = drmModeModeInfo()
        withUnsafeMutableBytes(of: &info) { $0.copyBytes(from: mode.raw) }
        return info
    }

    /// drmModeGetConnector: connector `id`, whether something is plugged in, its modes.
    public func connector(_ fd: Int32, _ id: UInt32) throws -> DRMConnector {
        guard let c = drmModeGetConnector(fd, id) else { throw fail("drmModeGetConnector \(id)") }
        defer { drmModeFreeConnector(c) }
        let modes = c.pointee.modes.map { p in (0..<Int(c.pointee.count_modes)).map { Self.mode(p[$0]) } } ?? []
        let encoders = c.pointee.encoders.map { Array(UnsafeBufferPointer(start: $0, count: Int(c.pointee.count_encoders))) } ?? []
        return DRMConnector(id: id, isConnected: c.pointee.connection == DRM_MODE_CONNECTED, modes: modes,
                            encoder: c.pointee.encoder_id, encoders: encoders)
    }

    /// drmModeGetEncoder: encoder `id` and the CRTCs it can feed.
    public func encoder(_ fd: Int32, _ id: UInt32) throws -> DRMEncoder {
        guard let e = drmModeGetEncoder(fd, id) else { throw fail("drmModeGetEncoder \(id)") }
        defer { drmModeFreeEncoder(e) }
        return DRMEncoder(id: id, crtc: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs)
    }

    /// drmModeGetCrtc: CRTC `id` and what it scans out now.
    public func crtc(_ fd: Int32, _ id: UInt32) throws -> DRMCrtc {
        guard let c = drmModeGetCrtc(fd, id) else { throw fail("drmModeGetCrtc \(id)") }
        defer { drmModeFreeCrtc(c) }
        return DRMCrtc(id: id, framebuffer: c.pointee.buffer_id, x: Int(c.pointee.x), y: Int(c.pointee.y),
                       mode: c.pointee.mode_valid != 0 ? Self.mode(c.pointee.mode) : nil)
    }

    /// DRM_IOCTL_MODE_CREATE_DUMB: a buffer of `width`×`height` at `bitsPerPixel`.
    public func createDumbBuffer(_ fd: Int32, width: Int, height: Int, bitsPerPixel: Int) throws -> DRMDumbBuffer {
        var handle: UInt32 = 0, pitch: UInt32 = 0
        var size: UInt64 = 0
        let rc = drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), UInt32(bitsPerPixel), 0, &handle, &pitch, &size)
        guard rc == 0 else { throw fail("drmModeCreateDumbBuffer", rc) }
        return DRMDumbBuffer(handle: handle, pitch: Int(pitch), size: Int(size))
    }

    /// drmModeAddFB2: a framebuffer of `format` over `buffer`; returns its id.
    public func addFramebuffer(_ fd: Int32, width: Int, height: Int, format: UInt32, buffer: DRMDumbBuffer) throws -> UInt32 {
        var handles: (UInt32, UInt32, UInt32, UInt32) = (buffer.handle, 0, 0, 0)
        var pitches: (UInt32, UInt32, UInt32, UInt32) = (UInt32(buffer.pitch), 0, 0, 0)
        var offsets: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var id: UInt32 = 0
        let rc = withUnsafePointer(to: &handles) { h in
            withUnsafePointer(to: &pitches) { p in
                withUnsafePointer(to: &offsets) { o in
                    drmModeAddFB2(fd, UInt32(width), UInt32(height), format,
                                  UnsafeRawPointer(h).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self),
                                  UnsafeRawPointer(o).assumingMemoryBound(to: UInt32.self), &id, 0)
                }
            }
        }
        guard rc == 0 else { throw fail("drmModeAddFB2", rc) }
        return id
    }

    /// Maps a dumb buffer into memory (DRM_IOCTL_MODE_MAP_DUMB, mmap).
    public func map(_ fd: Int32, _ buffer: DRMDumbBuffer) throws -> UnsafeMutableRawPointer {
        var offset: UInt64 = 0
        let rc = drmModeMapDumbBuffer(fd, buffer.handle, &offset)
        guard rc == 0 else { throw fail("drmModeMapDumbBuffer", rc) }
        let pointer = mmap(nil, buffer.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
        guard let pointer, pointer != MAP_FAILED else { throw fail("mmap") }
        return pointer
    }

    /// Unmaps memory `map` returned.
    public func unmap(_ pointer: UnsafeMutableRawPointer, size: Int) { munmap(pointer, size) }

    /// drmModeRmFB.
    public func removeFramebuffer(_ fd: Int32, _ id: UInt32) { _ = drmModeRmFB(fd, id) }

    /// DRM_IOCTL_MODE_DESTROY_DUMB.
    public func destroyDumbBuffer(_ fd: Int32, _ handle: UInt32) { _ = drmModeDestroyDumbBuffer(fd, handle) }

    /// drmModeSetCrtc: `crtc` scans out `framebuffer` from (`x`, `y`) on `connectors` in `mode`.
    public func setCrtc(_ fd: Int32, crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, connectors: [UInt32], mode: DRMMode?) throws {
        var ids = connectors
        var info = mode.flatMap(Self.info)
        let rc: Int32
        if info != nil {
            rc = drmModeSetCrtc(fd, crtc, framebuffer, UInt32(x), UInt32(y), &ids, Int32(ids.count), &info!)
        } else {
            rc = drmModeSetCrtc(fd, crtc, framebuffer, UInt32(x), UInt32(y), nil, 0, nil)
        }
        guard rc == 0 else { throw fail("drmModeSetCrtc", rc) }
    }

    private func flipRecord(_ fd: Int32) -> UnsafeMutablePointer<panel_drm_flips> {
        if let record = counters[fd] { return record }
        let made = UnsafeMutablePointer<panel_drm_flips>.allocate(capacity: 1)
        made.initialize(to: panel_drm_flips())
        counters[fd] = made
        return made
    }

    /// drmModePageFlip with DRM_MODE_PAGE_FLIP_EVENT.
    public func pageFlip(_ fd: Int32, crtc: UInt32, framebuffer: UInt32) throws {
        let rc = drmModePageFlip(fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), flipRecord(fd))
        guard rc == 0 else { throw fail("drmModePageFlip", rc) }
    }

    /// drmHandleEvent: counts the flips completed and keeps the last one's time stamp.
    public func handleEvents(_ fd: Int32) throws -> DRMFlipReport? {
        guard panel_drm_handle_events(fd) == 0 else { throw fail("drmHandleEvent") }
        guard let record = counters[fd], record.pointee.count > 0 else { return nil }
        defer { record.pointee.count = 0 }
        return DRMFlipReport(count: Int(record.pointee.count),
                             seconds: Double(record.pointee.seconds) + Double(record.pointee.microseconds) / 1e6)
    }

    /// drmGetCap; nil when the kernel refuses.
    public func capability(_ fd: Int32, _ capability: UInt64) -> UInt64? {
        var value: UInt64 = 0
        return drmGetCap(fd, capability, &value) == 0 ? value : nil
    }

    /// drmSetClientCap for universal planes, then atomic; false when either is refused.
    public func enableAtomic(_ fd: Int32) -> Bool {
        // Atomic implies universal planes; ask for both so the primary plane is listed.
        drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0
            && drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0
    }

    /// drmModeGetPlaneResources and drmModeGetPlane: the planes and the CRTCs each can serve.
    public func planes(_ fd: Int32) throws -> [DRMPlane] {
        guard let list = drmModeGetPlaneResources(fd) else { throw fail("drmModeGetPlaneResources") }
        defer { drmModeFreePlaneResources(list) }
        var planes: [DRMPlane] = []
        for index in 0..<Int(list.pointee.count_planes) {
            guard let id = list.pointee.planes?[index], let plane = drmModeGetPlane(fd, id) else { continue }
            planes.append(DRMPlane(id: id, possibleCrtcs: plane.pointee.possible_crtcs))
            drmModeFreePlane(plane)
        }
        return planes
    }

    /// drmModeObjectGetProperties and drmModeGetProperty: each property's id, value and enum names.
    public func properties(_ fd: Int32, object: UInt32, type: DRMObjectType) throws -> [String: DRMProperty] {
        guard let list = drmModeObjectGetProperties(fd, object, type.rawValue) else { throw fail("drmModeObjectGetProperties \(object)") }
        defer { drmModeFreeObjectProperties(list) }
        var result: [String: DRMProperty] = [:]
        for index in 0..<Int(list.pointee.count_props) {
            guard let id = list.pointee.props?[index], let value = list.pointee.prop_values?[index],
                  let property = drmModeGetProperty(fd, id) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = withUnsafeBytes(of: property.pointee.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var enums: [String: UInt64] = [:]
            if let entries = property.pointee.enums {
                for e in 0..<Int(property.pointee.count_enums) {
                    let entry = entries[e]
                    let label = withUnsafeBytes(of: entry.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    enums[label] = entry.value
                }
            }
            result[name] = DRMProperty(id: id, value: value, enums: enums)
        }
        return result
    }

    /// drmModeObjectSetProperty.
    public func setProperty(_ fd: Int32, object: UInt32, type: DRMObjectType, property: UInt32, value: UInt64) throws {
        let rc = drmModeObjectSetProperty(fd, object, type.rawValue, property, value)
        guard rc == 0 else { throw fail("drmModeObjectSetProperty", rc) }
    }

    /// drmModeCreatePropertyBlob: a blob of `bytes` (a mode, damage clips); returns its id.
    public func createBlob(_ fd: Int32, _ bytes: [UInt8]) throws -> UInt32 {
        var id: UInt32 = 0
        let rc = bytes.withUnsafeBytes { drmModeCreatePropertyBlob(fd, $0.baseAddress, $0.count, &id) }
        guard rc == 0 else { throw fail("drmModeCreatePropertyBlob", rc) }
        return id
    }

    /// drmModeDestroyPropertyBlob.
    public func destroyBlob(_ fd: Int32, _ id: UInt32) { _ = drmModeDestroyPropertyBlob(fd, id) }

    /// drmModeAtomicCommit of `entries` with `flags` (test only, nonblocking, page-flip event, allow modeset).
    public func atomicCommit(_ fd: Int32, _ entries: [DRMAtomicEntry], flags: DRMCommitFlags) throws {
        guard let request = drmModeAtomicAlloc() else { throw DisplayError.call("drmModeAtomicAlloc", errno: ENOMEM) }
        defer { drmModeAtomicFree(request) }
        for entry in entries {
            guard drmModeAtomicAddProperty(request, entry.object, entry.property, entry.value) >= 0 else {
                throw fail("drmModeAtomicAddProperty")
            }
        }
        let rc = drmModeAtomicCommit(fd, request, flags.rawValue, flipRecord(fd))
        guard rc == 0 else { throw fail("drmModeAtomicCommit", rc) }
    }

    /// drmSetMaster; false when another program holds the card.
    public func acquireMaster(_ fd: Int32) -> Bool { drmSetMaster(fd) == 0 }
    /// drmDropMaster; false when it was not master.
    public func dropMaster(_ fd: Int32) -> Bool { drmDropMaster(fd) == 0 }

    /// drmModeDirtyFB with the clips (16-bit corners); ENOSYS is thrown as any failure, for the caller to read.
    public func dirtyFramebuffer(_ fd: Int32, _ framebuffer: UInt32, clips: [DRMClip]) throws {
        // drm_clip_rect holds 16-bit corners; panels are far smaller than 65,535 pixels.
        var rects = clips.map {
            drm_clip_rect(x1: UInt16(clamping: $0.x1), y1: UInt16(clamping: $0.y1), x2: UInt16(clamping: $0.x2), y2: UInt16(clamping: $0.y2))
        }
        let rc = drmModeDirtyFB(fd, framebuffer, &rects, UInt32(rects.count))
        guard rc == 0 else { throw fail("drmModeDirtyFB", rc) }
    }

    /// poll(2) on `fd` for at most `timeout` seconds.
    public func waitReadable(_ fd: Int32, timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(timeout * 1000)) > 0
    }
}
