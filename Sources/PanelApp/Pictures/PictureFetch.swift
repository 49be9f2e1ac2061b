import PanelInput
import PanelRender

/// What fetching and decoding one picture may cost.
public struct PictureLimits: Sendable, Equatable {
    /// Largest picture file or HTTP body, bytes: 8 MiB (a 12-megapixel phone JPEG is 3-5 MiB).
    public var maxBytes = 8 << 20
    /// Seconds one HTTP fetch may take, redirects included (the transfer's other bounds, stall
    /// and redirects, are the data source's: `HTTPLimits`).
    public var timeout: Double = 15
    /// Seconds below 1 KiB/s before a download is abandoned (`HTTPLimits.stallSeconds`, 5).
    public var stallSeconds = 5
    /// The most pixels a picture may declare (`limits.image-pixels`), checked from its header
    /// before anything is allocated.
    public var maxPixels = PNG.defaultMaxPixels

    /// The defaults.
    public init() {}
}

/// One picture's job, run by a loader's worker off the run loop: the bytes from a file or an
/// http(s) URL (through the disk cache), then a thumbnail decoded at its drawn size.
enum PictureFetch {
    /// The thumbnail of `source` at `width` x `height` pixels.
    static func thumbnail(_ source: String, width: Int, height: Int, limits: PictureLimits, disk: DiskPictureCache?,
                          cancel: CancelFlag) -> Result<Bitmap, PictureError> {
        let bytes: [UInt8]
        switch fetch(source, limits: limits, disk: disk, cancel: cancel) {
        case .success(let b): bytes = b
        case .failure(let e): return .failure(e)
        }
        guard !cancel.isSet else { return .failure(.cancelled) }
        do throws(RenderError) {
            return .success(try ImageDecoder.thumbnail(bytes, path: Redaction.redact(source), width: width, height: height,
                                                      maxPixels: limits.maxPixels))
        } catch {
            return .failure(.decode(error))
        }
    }

    /// Whether `source` names an http(s) resource.
    static func isURL(_ source: String) -> Bool {
        let lower = source.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The picture's bytes, as stored.
    static func fetch(_ source: String, limits: PictureLimits, disk: DiskPictureCache?, cancel: CancelFlag) -> Result<[UInt8], PictureError> {
        if isURL(source) {
            if let kept = disk?.bytes(for: source, limit: limits.maxBytes) { return .success(kept) }
            do {
                var http = HTTPLimits(maxBytes: limits.maxBytes, timeout: limits.timeout)
                http.stallSeconds = limits.stallSeconds
                let bytes = try HTTPFetch.get(source, limits: http, cancel: cancel)
                // Only what decodes as some picture is kept: an error page would be fetched from
                // the disk forever.
                if ImageFormat.sniff(bytes) != nil { disk?.store(bytes, for: source) }
                return .success(bytes)
            } catch let error as DataSourceError {
                if case .cancelled = error { return .failure(.cancelled) }
                return .failure(.fetch(error))
            } catch {
                return .failure(.fetch(.unreachable(source: source, reason: "\(error)")))
            }
        }
        guard source.hasPrefix("/") else { return .failure(.unsupported(source: source)) }
        do throws(BoundedFile.Failure) {
            return .success(try BoundedFile.read(source, limit: limits.maxBytes))
        } catch {
            switch error {
            case .tooLarge: return .failure(.fetch(.tooLarge(source: source, limit: limits.maxBytes)))
            case .unreadable, .notRegular: return .failure(.fetch(.unreachable(source: source, reason: error.description)))
            }
        }
    }
}
