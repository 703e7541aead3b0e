extension Message {
    /// Checks the bytes of a file holding one message: nil when they are a valid message (syntax and data
    /// model), else the compiler-style line that says why (``MessageError/diagnostic(file:)``, or
    /// `FILE:1:1: not UTF-8 text`).
    ///
    /// ```swift
    /// Message.check(Array("{{hello}}".utf8), file: "a.mf2")   // nil
    /// Message.check(Array("{oops".utf8), file: "a.mf2")       // "a.mf2:1:…: syntax-error: …"
    /// ```
    public static func check(_ bytes: [UInt8], file: String) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return "\(file):1:1: not UTF-8 text" }
        do {
            try Message(parsing: text).validate()
            return nil
        } catch {
            return error.diagnostic(file: file)
        }
    }
}
