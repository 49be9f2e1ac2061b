/// A header that shows frames per state (MJRefreshGifHeader): idle frames follow the pull,
/// pulling and refreshing frames loop. `setImages(_:duration:for:)` comes with `GifAnimated`.
@MainActor
open class GifHeader: StateHeader, GifAnimated {
    /// The picture of the state: the frame for the pull's progress, or frames while refreshing.
    public let gifView = ImageView()

    override var gifMode: GifFrames.Mode? { .scrubIdle }
}
