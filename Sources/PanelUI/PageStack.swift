import PanelGestures

/// Pages pushed over a scene's views as the kiosk's detail page comes and goes: each slides in
/// from the trailing side over a dimming of what is behind, slides back out when popped, and
/// follows a back swipe from its leading edge (``PageTransition``: UINavigationController's
/// push, pop and interactive pop). One page is open at a time; one still sliding out stays on
/// screen until it is off it (``shown``).
///
/// The stack does not take the dispatcher's pans: give it each one
/// (`scene.dispatcher.onPan = { pages.handle($0) }`, or from a handler of the app's own).
///
/// ```swift
/// let pages = PageStack(scene: scene)
/// scene.dispatcher.onPan = { pages.handle($0) }
/// pages.push(page, over: list, scrollView: page.scroller)   // slides in
/// pages.pop()                                               // slides out
/// ```
@MainActor
public final class PageStack {
    /// The scene the pages go on (their root view's subviews).
    public let scene: Scene
    /// The page open now (nil: none; one sliding out is no longer open).
    public var top: View? { open?.transition.page }
    /// Pages on the screen, the open one and any still sliding out, the topmost last.
    public private(set) var shown: [PageTransition] = []
    /// Hears the open page close, with how: "back" and "call" (``pop(how:animated:)``) or
    /// "swipe" (a back swipe let go past the point of no return). It is the decision's moment:
    /// the page may still be sliding out.
    public var onClose: ((View, String) -> Void)?
    /// How near the leading edge a pan must begin to close the page, points: 24 (the width of
    /// UINavigationController's interactive pop area, about the same).
    public static let edgeSwipeWidth: Double = 24

    /// The open page: its transition, and the scroll view touches went to before it.
    private var open: (transition: PageTransition, under: ScrollView?)?
    /// Whether the pan under way began at the page's leading edge (a swipe that may close it).
    private var swiping = false

    /// A stack on `scene`, with nothing pushed.
    public init(scene: Scene) { self.scene = scene }

    /// Slides `page` in over `behind` (which dims), the whole screen's size; an open page is
    /// closed at once first ("call"). Touches go to `scrollView` while it is open (its own
    /// scroller, or nil: pans that start on it move nothing below), and back to the one they
    /// went to before when it closes. In a right-to-left UI it comes from the left.
    public func push(_ page: View, over behind: View, scrollView: ScrollView?) {
        if open != nil { pop(how: "call", animated: false) }
        let transition = PageTransition(page: page, over: behind, width: scene.screen.size.width,
                                        rightToLeft: scene.screen.layoutDirection == .rightToLeft, animator: scene.animator)
        page.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        transition.dim.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        scene.screen.rootView.addSubview(transition.dim)
        scene.screen.rootView.addSubview(page)
        open = (transition, scene.dispatcher.scrollView)
        shown.append(transition)
        transition.push()
        scene.dispatcher.scrollView = scrollView
    }

    /// Closes the open page (`how`: said to ``onClose``): it slides out over
    /// ``PageTransition/duration`` (`animated` false: at once). Touches go below from now on.
    public func pop(how: String = "call", animated: Bool = true) {
        guard let transition = close(how: how) else { return }
        if animated {
            transition.pop { [weak self] in self?.remove(transition) }
        } else {
            remove(transition)
        }
    }

    /// A pan of the scene's dispatcher: one that begins at the open page's leading edge moves
    /// the page with the finger; let go a third of the way across or flung at 500 points a
    /// second, the page slides out ("swipe"), else back.
    public func handle(_ e: PanRecognizer.Event) {
        guard let transition = open?.transition else { return }
        let width = scene.screen.size.width
        let rightToLeft = scene.screen.layoutDirection == .rightToLeft
        // Along the swipe: from the leading edge inwards.
        func inward(_ x: Double) -> Double { rightToLeft ? width - x : x }
        switch e.state {
        case .began:
            // The pan begins past the slop: the finger came down where it was less the movement
            // that made it a pan.
            let start = e.location - scene.dispatcher.pan.movementAtBegin
            swiping = inward(start.x) <= Self.edgeSwipeWidth
        case .changed:
            guard swiping else { return }
            transition.follow(across: across(e))
        case .ended:
            guard swiping else { return }
            swiping = false
            transition.follow(across: across(e))
            let speed = rightToLeft ? -e.velocity.x : e.velocity.x
            if transition.release(speed: speed, closed: { [weak self] in self?.remove(transition) }) { close(how: "swipe") }
        case .cancelled:
            guard swiping else { return }
            swiping = false
            transition.push()
        default:
            break
        }
    }

    /// The open page is no longer open: touches go below again, ``onClose`` hears it.
    @discardableResult
    private func close(how: String) -> PageTransition? {
        guard let (transition, under) = open else { return nil }
        open = nil
        swiping = false
        scene.dispatcher.scrollView = under
        onClose?(transition.page, how)
        return transition
    }

    /// How far the finger of an edge swipe is from where it came down, inwards: the pan's
    /// translation and the slop it moved before it was a pan (an ended pan carries no
    /// location, so the translation it is).
    private func across(_ e: PanRecognizer.Event) -> Double {
        let x = e.translation.x + scene.dispatcher.pan.movementAtBegin.x
        return scene.screen.layoutDirection == .rightToLeft ? -x : x
    }

    /// Takes a page that has slid out (and its dim) off the screen.
    private func remove(_ transition: PageTransition) {
        transition.page.removeFromSuperview()
        transition.dim.removeFromSuperview()
        shown.removeAll { $0 === transition }
    }
}
