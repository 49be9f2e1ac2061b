import Testing
import PanelTestSupport
@testable import PanelRender
import PanelRefresh
import PanelUI

/// Every text of every language inside its component at the panel widths that matter.
@MainActor
@Suite("Texts that fit")
struct TextFitTests {
    static let widths: [Double] = [320, 480, 800]

    /// What is wrong with `label`'s text in its component `width` wide beside `indicators`
    /// (frames in the component), or nil: cut, running past the label's height or the
    /// component's edges, or under an indicator.
    func problem(_ label: Label, in width: Double, indicators: [Rect], fonts: FontLibrary) -> String? {
        guard !label.isHidden, !label.text.isEmpty else { return nil }
        let (font, lines) = label.fitted(width: label.frame.width)
        let lineHeight = fonts.lineHeight(of: font)
        let fitting = max(1, Int((label.frame.height + 0.5) / lineHeight))
        let laid = fonts.layout(label.text, font: font, pixels: FontLibrary.pixels(font, scale: 1), width: label.frame.width,
                                maxLines: min(lines, fitting))
        if laid.lines.contains(where: \.isTruncated) { return "cut: \(laid.lines.indices.map(laid.text(ofLine:)))" }
        let textWidth = laid.width
        let left = label.frame.midX - textWidth / 2, right = label.frame.midX + textWidth / 2
        if left < 0 || right > width { return "text from \(left) to \(right)" }
        for box in indicators where box.maxX > 0 || box.minX < width {
            if box.minX < -0.01 || box.maxX > width + 0.01 { return "indicator \(box) off the edge" }
            if box.minX < right && box.maxX > left { return "indicator \(box) over the text (\(left)...\(right))" }
        }
        return nil
    }

    func check(_ label: Label, _ component: RefreshComponent, indicators: [View], stage: GoldenStage,
               _ what: String) {
        let boxes = indicators.filter { !$0.isHidden }.map(\.frame)
        if let problem = problem(label, in: component.frame.width, indicators: boxes, fonts: stage.fonts) {
            Issue.record("\(what) \"\(label.text)\" at \(component.frame.width): \(problem)")
        }
    }

    @Test("the header's, the auto footer's and the back footer's texts stay whole and beside their indicator in all fourteen languages at 320, 480 and 800 points",
          arguments: RefreshLanguage.allCases)
    func everyLanguageFits(_ language: RefreshLanguage) throws {
        #expect(RefreshLanguage.allCases.count == 14)
        for width in Self.widths {
            let stage = try GoldenStage(size: Size(width: width, height: 240))
            stage.localizer.language = language
            let header = stage.header(NormalHeader(localizer: stage.localizer))
            for key in [RefreshTextKey.headerIdle, .headerPulling, .headerRefreshing, .headerFinished, .headerFailed,
                        .headerReleaseToTwoLevel] {
                header.setTitle(stage.localizer.text(key), for: header.state)
                header.setNeedsLayout()
                stage.scene.frame()
                check(header.stateLabel, header, indicators: [header.arrowView], stage: stage, "\(language) header")
                check(header.lastUpdatedTimeLabel, header, indicators: [header.arrowView], stage: stage, "\(language) time")
            }

            try checkFooter({ AutoNormalFooter(localizer: $0) }, language: language, width: width, indicator: \.loadingView,
                            keys: [.autoFooterIdle, .autoFooterRefreshing, .footerNoMoreData, .footerRetryTap,
                                   .footerFinished, .footerFailed])
            try checkFooter({ BackNormalFooter(localizer: $0) }, language: language, width: width, indicator: \.arrowView,
                            keys: [.backFooterIdle, .backFooterPulling, .backFooterRefreshing, .footerNoMoreData,
                                   .footerRetryPull, .footerFinished, .footerFailed])
        }
    }

    /// Every text of `keys` on the footer `make` makes, at the bottom of a list `width` wide.
    func checkFooter<F: RefreshFooter & StateTitled>(_ make: (RefreshLocalizer) -> F, language: RefreshLanguage, width: Double,
                                                       indicator: KeyPath<F, some View>, keys: [RefreshTextKey]) throws {
        let stage = try GoldenStage(size: Size(width: width, height: 240))
        stage.localizer.language = language
        let footer = make(stage.localizer)
        stage.list.footer = footer
        stage.scene.frame()
        let shown = footer[keyPath: indicator]
        shown.isHidden = false
        for key in keys {
            footer.setTitle(stage.localizer.text(key), for: footer.state)
            footer.setNeedsLayout()
            stage.scene.frame()
            check(footer.stateLabel, footer, indicators: [shown], stage: stage, "\(language) \(F.self)")
        }
    }

    @Test("the trailer's column stays whole in every language on lists 320, 480 and 800 points high (shrunk when it must)",
          arguments: RefreshLanguage.allCases)
    func trailerColumnFits(_ language: RefreshLanguage) throws {
        for height in Self.widths {
            let stage = try GoldenStage(rows: 6, size: Size(width: 400, height: height))
            stage.localizer.language = language
            stage.list.rowHeight = .fixed(140)
            stage.list.orientation = .horizontal
            let trailer = NormalTrailer(localizer: stage.localizer)
            stage.list.trailer = trailer
            stage.scene.frame()
            for key in [RefreshTextKey.trailerIdle, .trailerPulling, .trailerRefreshing, .trailerNoMoreData, .trailerFailed] {
                trailer.setTitle(stage.localizer.text(key), for: trailer.state)
                stage.scene.frame()
                let label = trailer.stateLabel
                let lineHeight = stage.fonts.lineHeight(of: label.font)
                let fitting = max(1, Int((label.frame.height + 0.5) / lineHeight))
                let laid = stage.fonts.layout(label.text, font: label.font, pixels: FontLibrary.pixels(label.font, scale: 1),
                                              width: label.frame.width, maxLines: fitting)
                let cut = laid.lines.contains { $0.isTruncated }
                #expect(!cut, "\(language) trailer \"\(label.text)\" at \(height): cut at \(label.font.size) pt")
                #expect(label.font.size >= RefreshStyle.labelFont.size * RefreshStyle.minimumTextScale)
                #expect(trailer.arrowView.frame.maxX <= label.frame.minX && label.frame.maxX <= trailer.frame.width,
                        "\(language): arrow \(trailer.arrowView.frame), column \(label.frame)")
            }
        }
    }

    @Test("the German retry text on a 480-wide portrait panel: shrunk or wrapped, the spinner on screen (it was at x = -28)")
    func germanRetry() throws {
        let stage = try GoldenStage(size: Size(width: 320, height: 480))
        stage.localizer.language = .german
        let footer = AutoNormalFooter(localizer: stage.localizer)
        stage.list.footer = footer
        footer.setTitle(stage.localizer.text(.footerRetryPull), for: footer.state)
        footer.setNeedsLayout()
        stage.scene.frame()
        let (font, lines) = footer.stateLabel.fitted(width: footer.stateLabel.frame.width)
        #expect(font.size < RefreshStyle.labelFont.size || lines == 2)
        #expect(footer.loadingView.frame.minX >= 0)
    }

    @Test("in Arabic and Hebrew the arrow sits right of the header's texts")
    func rightToLeftArrow() throws {
        for language in [RefreshLanguage.arabic, .hebrew] {
            let stage = try GoldenStage()
            stage.localizer.language = language
            let header = stage.header(NormalHeader(localizer: stage.localizer))
            stage.scene.frame()
            #expect(header.arrowView.frame.minX > header.frame.width / 2 + max(header.stateLabel.fittedTextWidth, header.lastUpdatedTimeLabel.fittedTextWidth) / 2)
        }
        let stage = try GoldenStage()
        let header = stage.header(NormalHeader(localizer: stage.localizer))
        #expect(header.arrowView.frame.maxX < header.frame.width / 2 - max(header.stateLabel.fittedTextWidth, header.lastUpdatedTimeLabel.fittedTextWidth) / 2)
    }
}
