internal import CCurl
import Foundation

/// What every libcurl user of the package shares: one global initialization, the check that this libcurl
/// speaks a protocol, the ownership of an easy handle, and libcurl's error texts in plain words. SMTP
/// (``SMTPLink``, for Composer), HTTP (``HTTPClient``, for CardDAV) and IMAP (``IMAPClient``) sit on it.
///
/// ```swift
/// guard CurlLibrary.isInitialized, CurlLibrary.supports("https") else { return }
/// ```
package enum CurlLibrary {
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Whether `curl_global_init` succeeded (done once, on first use).
    package static var isInitialized: Bool { globalInit == CURLE_OK }

    /// Whether this libcurl was built with `scheme` (`smtp`, `smtps`, `http`, `https`).
    package static func supports(_ scheme: String) -> Bool {
        guard let info = ccurl_version_info(), var p = info.pointee.protocols else { return false }
        while let name = p.pointee {
            if String(cString: name) == scheme { return true }
            p += 1
        }
        return false
    }

    /// Seconds as libcurl's milliseconds (0: no limit, for a value that is not a positive number).
    package static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds, 86_400) * 1000)
    }

    /// libcurl's error text with its bare `errno` numbers said in words: "response reading failed
    /// (errno: 115)" is what libcurl writes when the server closed the connection (the number is a stale
    /// one, EINPROGRESS from connecting), and any other "errno: N" / "errno N" becomes the system's words
    /// for N (`strerror`).
    package static func plainWords(_ detail: String) -> String {
        var text = detail
        if let r = text.range(of: #"response reading failed \(errno: \d+\)"#, options: .regularExpression) {
            let digits = text[r].filter(\.isNumber)
            let code = Int32(String(digits)) ?? 0
            let stale: Set<Int32> = [0, EINPROGRESS, EAGAIN, EWOULDBLOCK]
            let words =
                stale.contains(code)
                ? "the server closed the connection without a reply"
                : "reading the server's reply failed: \(String(cString: strerror(code)))"
            text.replaceSubrange(r, with: words)
        }
        // "bind failed with errno 98: Address already in use": the words are there, the number goes.
        while let r = text.range(of: #"( with)? errno \d+: "#, options: .regularExpression) {
            text.replaceSubrange(r, with: ": ")
        }
        while let r = text.range(of: #",? ?\(?errno:? ?\d+\)?"#, options: .regularExpression) {
            let code = Int32(String(text[r].filter(\.isNumber))) ?? 0
            text.replaceSubrange(r, with: ": \(String(cString: strerror(code)))")
        }
        return text
    }
}

/// A libcurl easy handle.
package struct CurlHandle: @unchecked Sendable {
    // @unchecked: libcurl lets a handle change threads if one thread at a time uses it (its owner's lock).
    package let pointer: UnsafeMutableRawPointer

    package init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}
