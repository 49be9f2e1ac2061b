import Glibc
import PanelHost

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
    /// What a job came to.
    enum Outcome: Sendable, Equatable {
        /// The thumbnail, or why there is none.
        case done(Result<Bitmap, PictureError>)
        /// A job of the file lane found a URL that must be downloaded (or revalidated): it goes
        /// to the network lane.
        case needsNetwork
    }

    /// The thumbnail of `source` at `width` x `height` pixels; `network` false: only what needs
    /// no server (a file, or a URL's fresh copy on the disk), else `needsNetwork`.
    static func thumbnail(_ source: String, width: Int, height: Int, limits: PictureLimits, disk: DiskPictureCache?,
                          cancel: CancelFlag, network: Bool) -> Outcome {
        if !network, isURL(source) {
            guard let kept = disk?.kept(for: source, limit: limits.maxBytes), Double(time(nil)) < kept.freshUntil else {
                return .needsNetwork
            }
            return .done(decode(kept.bytes, source, width: width, height: height, limits: limits, cancel: cancel))
        }
        switch fetch(source, limits: limits, disk: disk, cancel: cancel) {
        case .success(let bytes): return .done(decode(bytes, source, width: width, height: height, limits: limits, cancel: cancel))
        case .failure(let e): return .done(.failure(e))
        }
    }

    /// The thumbnail of `source` at `width` x `height` pixels, downloading it when it must
    /// (the network lane's job, and tests').
    static func thumbnail(_ source: String, width: Int, height: Int, limits: PictureLimits, disk: DiskPictureCache?,
                          cancel: CancelFlag) -> Result<Bitmap, PictureError> {
        guard case .done(let result) = thumbnail(source, width: width, height: height, limits: limits, disk: disk,
                                                 cancel: cancel, network: true) else { return .failure(.cancelled) }
        return result
    }

    /// `bytes` decoded at `width` x `height` pixels.
    private static func decode(_ bytes: [UInt8], _ source: String, width: Int, height: Int, limits: PictureLimits,
                               cancel: CancelFlag) -> Result<Bitmap, PictureError> {
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

    /// How long a picture fetched at `now` (seconds since 1970) may be used without asking the
    /// server again: its `max-age`; else a tenth of the time since its `Last-Modified`, at
    /// most a day (RFC 9111 4.2.2's heuristic, as browsers apply it); else a day.
    static func freshUntil(_ answer: HTTPAnswer, now: Double) -> Double {
        if let age = answer.maxAge { return now + age }
        if let modified = answer.lastModified.flatMap(HTTPFetch.date), modified <= now {
            return now + min((now - modified) / 10, 86_400)
        }
        return now + 86_400
    }

    /// The picture's bytes, as stored: a fresh kept copy as it is; a stale one revalidated
    /// (`If-None-Match` / `If-Modified-Since`: a 304 keeps it, nothing downloaded; a server that
    /// cannot be reached leaves it in use); else fetched.
    static func fetch(_ source: String, limits: PictureLimits, disk: DiskPictureCache?, cancel: CancelFlag,
                      now: Double = Double(time(nil))) -> Result<[UInt8], PictureError> {
        if isURL(source) {
            let kept = disk?.kept(for: source, limit: limits.maxBytes)
            if let kept, now < kept.freshUntil { return .success(kept.bytes) }
            var http = HTTPLimits(maxBytes: limits.maxBytes, timeout: limits.timeout)
            http.stallSeconds = limits.stallSeconds
            var conditional: [String] = []
            if let etag = kept?.etag { conditional.append("If-None-Match: \(etag)") }
            if let modified = kept?.lastModified { conditional.append("If-Modified-Since: \(modified)") }
            switch Result(catching: { try HTTPFetch.request(source, limits: http, headers: conditional, cancel: cancel) }) {
            case .success(let answer):
                return .success(keep(answer, over: kept, from: source, disk: disk, now: now))
            case .failure(let error):
                let failure = error as? DataSourceError ?? .unreachable(source: source, reason: "\(error)")
                if case .cancelled = failure { return .failure(.cancelled) }
                // Stale is better than broken while the server is away.
                if let kept { return .success(kept.bytes) }
                return .failure(.fetch(failure))
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

    /// What an answer gives: the kept copy after a 304 (fresh again), else the body, kept on
    /// the disk with its validators when it is some picture (an error page would be fetched
    /// from the disk forever) and the server allows it.
    private static func keep(_ answer: HTTPAnswer, over kept: DiskPictureCache.Kept?, from source: String,
                             disk: DiskPictureCache?, now: Double) -> [UInt8] {
        let fresh = freshUntil(answer, now: now)
        if answer.notModified, var kept {
            kept.freshUntil = fresh
            if !answer.noStore { disk?.store(kept, for: source) }
            return kept.bytes
        }
        if ImageFormat.sniff(answer.body) != nil, !answer.noStore {
            disk?.store(DiskPictureCache.Kept(bytes: answer.body, etag: answer.etag, lastModified: answer.lastModified,
                                              freshUntil: fresh), for: source)
        }
        return answer.body
    }
}
