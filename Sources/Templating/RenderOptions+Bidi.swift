import ICUKit

extension RenderOptions {
    /// `text` isolated as ``bidiIsolation`` says, in text of ``locale``'s direction.
    func isolate(_ text: String) -> String {
        bidiIsolation == .none ? text : bidiIsolation.wrap(text, inRightToLeftText: ICULocale.isRightToLeft(locale))
    }
}
