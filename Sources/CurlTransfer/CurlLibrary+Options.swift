internal import CCurl
import Foundation

// The easy-handle options every transfer of the package sets alike, and its error text: HTTP (CardDAV),
// IMAP and SMTP each set only what their protocol adds.
extension CurlLibrary {
    /// The first failure among `codes` (each a `curl_easy_setopt` result), else `CURLE_OK`.
    static func firstFailure(_ codes: [CURLcode]) -> CURLcode {
        codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// Error text into `errorBuffer`, no signals, a connect timeout, and a transfer that moves nothing for
    /// `stallTimeout` seconds cut off (nil: the caller times the transfer itself, as SMTP does its replies).
    static func setLimits(
        _ curl: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>?, connectTimeout: Double,
        stallTimeout: Double?
    ) -> CURLcode {
        var codes = [
            ccurl_setopt_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer),
            ccurl_setopt_long(curl, CURLOPT_NOSIGNAL, 1),
            ccurl_setopt_long(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(connectTimeout)),
        ]
        if let stallTimeout {
            codes.append(ccurl_setopt_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1))
            codes.append(ccurl_setopt_long(curl, CURLOPT_LOW_SPEED_TIME, max(1, Int(stallTimeout))))
        }
        return firstFailure(codes)
    }

    /// The peer and its host name verified (with `caFile` as the authority when given), and the user's
    /// credentials when there is a user.
    static func setTLSAndCredentials(
        _ curl: UnsafeMutableRawPointer, caFile: String?, user: String?, password: String?
    ) -> CURLcode {
        var codes = [
            ccurl_setopt_long(curl, CURLOPT_SSL_VERIFYPEER, 1), ccurl_setopt_long(curl, CURLOPT_SSL_VERIFYHOST, 2),
        ]
        if let caFile { codes.append(ccurl_setopt_string(curl, CURLOPT_CAINFO, caFile)) }
        if let user {
            codes.append(ccurl_setopt_string(curl, CURLOPT_USERNAME, user))
            codes.append(ccurl_setopt_string(curl, CURLOPT_PASSWORD, password ?? ""))
        }
        return firstFailure(codes)
    }

    /// libcurl's words for a failed transfer: its text for `code`, then what it wrote into the error buffer.
    static func message(for code: CURLcode, errorBuffer: [CChar]) -> String {
        let detail = plainWords(errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let text = String(cString: curl_easy_strerror(code))
        return detail.isEmpty ? text : "\(text): \(detail)"
    }
}
