internal import CCurl
import Foundation
import Synchronization

/// One HTTP request: method, absolute URL, headers and body.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]?

    package init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A server's answer: status, headers (names lower-cased, in order) and body.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    /// The first header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }
}

/// HTTP and HTTPS through libcurl, one connection kept open between requests (one request at a time).
/// TLS is verified (against `caFile` when given, else the system's store); Basic and Digest authentication
/// with the password handed to libcurl directly, never in a URL, a log or an error.
///
/// ```swift no-compile
/// let client = try HTTPClient(user: "ada", password: secret)
/// let answer = try client.send(HTTPRequest(method: "GET", url: "https://dav.example.org/"))
/// ```
package final class HTTPClient: Sendable {
    package let user: String?
    private let password: String?
    package let caFile: String?
    /// The largest answer accepted.
    package let maxResponseBytes: Int
    package let connectTimeout: Double
    /// A transfer slower than 1 byte/s for this long is abandoned.
    package let stallTimeout: Double
    /// The longest one request may take, answer included (nil: no limit): a server that trickles its answer
    /// byte by byte is cut off.
    package let totalTimeout: Double?

    private struct State {
        var handle: CurlHandle?
        /// The authentication the server offered first (libcurl's CURLAUTH bits), so that later requests
        /// send credentials at once instead of asking again.
        var auth: Int = 0
    }
    private let state = Mutex(State())

    /// libcurl's CURLAUTH bits for Basic and Digest.
    private static let basic = 1
    private static let digest = 2

    /// Whether a first request to `url` sends Basic credentials at once, before the server asks: over
    /// HTTPS or to this machine, where nobody else reads them (as vdirsyncer and curl do by default). A
    /// server's answer to a request without credentials costs a round trip, and many servers slow down
    /// refused requests on purpose (Radicale waits 0.5–1.5 s; Nextcloud counts them as failed logins).
    /// Over plain HTTP to another machine the first request goes without credentials, so that a server
    /// that asks for Digest never sees the password in the clear.
    package static func sendsBasicAtOnce(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https://") || isLoopback(url)
    }

    /// The authentication a request offers: the one the server named, else Basic at once where that is
    /// safe (``sendsBasicAtOnce(_:)``), else whichever the server asks for (a round trip).
    private static func offer(known: Int, url: String) -> Int {
        if known & basic != 0 { return basic }
        if known & digest != 0 { return digest }
        return sendsBasicAtOnce(url) ? basic : basic | digest
    }

    package init(
        user: String? = nil, password: String? = nil, caFile: String? = nil, maxResponseBytes: Int = 256 << 20,
        connectTimeout: Double = 30, stallTimeout: Double = 120, totalTimeout: Double? = nil
    ) throws {
        guard CurlLibrary.isInitialized else { throw CurlTransferError.unavailable("libcurl failed to initialize") }
        self.user = user
        self.password = password
        self.caFile = caFile
        self.maxResponseBytes = maxResponseBytes
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.totalTimeout = totalTimeout
    }

    deinit {
        state.withLock { if let handle = $0.handle { curl_easy_cleanup(handle.pointer) } }
    }

    /// `url` without a user part, for messages.
    package static func shown(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
            return url
        }
        let slash = url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex
        return at < slash ? String(url[..<scheme.upperBound]) + String(url[url.index(after: at)...]) : url
    }

    /// Whether `url`'s host is this machine (`localhost`, 127.0.0.0/8, `::1`).
    package static func isLoopback(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        var host = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        let name = host.lowercased()
        let ipv4 = name.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".")
        }
        return name == "localhost" || name == "::1" || (ipv4 && name.hasPrefix("127."))
    }

    /// Sends `request` and returns the answer, whatever its status (redirects are not followed).
    package func send(_ request: HTTPRequest) throws -> HTTPResponse {
        try send(request, streaming: nil) { _ in }
    }

    /// Sends `request`; an answer with status `streamed` is not kept but handed to `sink` part by part as it
    /// arrives (of any size: ``maxResponseBytes`` limits the answers kept), other answers are returned whole.
    /// An error thrown by `sink` stops the transfer and is rethrown.
    package func send(
        _ request: HTTPRequest, streaming streamed: Int?, into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> HTTPResponse {
        try withoutActuallyEscaping(sink) { sink in
            try send(request, sink: streamed.map { (status: $0, body: sink) })
        }
    }

    private func send(
        _ request: HTTPRequest, sink: (status: Int, body: (UnsafeRawBufferPointer) throws -> Void)?
    ) throws -> HTTPResponse {
        try state.withLock { state in
            if state.handle == nil { state.handle = curl_easy_init().map(CurlHandle.init) }
            guard let curl = state.handle?.pointer else { throw CurlTransferError.unavailable("curl_easy_init failed") }
            curl_easy_reset(curl)
            do {
                let (first, basicAtOnce) = try perform(curl, request, sink: sink, auth: &state.auth)
                // Basic sent at once was refused by a server that asks for Digest: again, with Digest.
                guard first.status == 401, basicAtOnce, state.auth == Self.digest else { return first }
                curl_easy_reset(curl)
                return try perform(curl, request, sink: sink, auth: &state.auth).response
            } catch {
                // A failed transfer may leave the connection in an unknown state: start afresh next time.
                curl_easy_cleanup(curl)
                state.handle = nil
                throw error
            }
        }
    }

    private func perform(
        _ curl: UnsafeMutableRawPointer, _ request: HTTPRequest,
        sink: (status: Int, body: (UnsafeRawBufferPointer) throws -> Void)?, auth: inout Int
    ) throws -> (response: HTTPResponse, basicAtOnce: Bool) {
        let offered = Self.offer(known: auth, url: request.url)
        let basicAtOnce = user != nil && auth == 0 && offered == Self.basic
        let context = HTTPTransferContext(limit: maxResponseBytes)
        context.sink = sink
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { headerList = curl_slist_append(headerList, "\(name): \(value)") }
        // No "Expect: 100-continue" round trip before a body.
        headerList = curl_slist_append(headerList, "Expect:")
        defer { curl_slist_free_all(headerList) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { eb in
            var failed = CURLE_OK
            func check(_ c: CURLcode) { if failed == CURLE_OK && c != CURLE_OK { failed = c } }
            let ctx = unmanaged.toOpaque()
            check(ccurl_setopt_string(curl, CURLOPT_URL, request.url))
            check(ccurl_setopt_string(curl, CURLOPT_CUSTOMREQUEST, request.method))
            if request.method == "HEAD" { check(ccurl_setopt_long(curl, CURLOPT_NOBODY, 1)) }
            check(ccurl_setopt_slist(curl, CURLOPT_HTTPHEADER, headerList))
            if let body = request.body {
                check(ccurl_setopt_long(curl, CURLOPT_POSTFIELDSIZE_LARGE, body.count))
                body.withUnsafeBytes { raw in
                    check(
                        ccurl_setopt_pointer(
                            curl, CURLOPT_COPYPOSTFIELDS,
                            UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)))
                }
            }
            check(ccurl_setopt_write_function(curl, httpWrite))
            check(ccurl_setopt_pointer(curl, CURLOPT_WRITEDATA, ctx))
            check(ccurl_setopt_header_function(curl, httpHeader))
            check(ccurl_setopt_pointer(curl, CURLOPT_HEADERDATA, ctx))
            check(
                CurlLibrary.setLimits(
                    curl, errorBuffer: eb.baseAddress, connectTimeout: connectTimeout, stallTimeout: stallTimeout))
            check(ccurl_setopt_long(curl, CURLOPT_FOLLOWLOCATION, 0))
            if let totalTimeout {
                check(ccurl_setopt_long(curl, CURLOPT_TIMEOUT_MS, CurlLibrary.milliseconds(totalTimeout)))
            }
            // Compressed answers (every encoding curl knows), except from this machine: there the bytes
            // cost nothing and compressing a large answer costs the server time.
            if !Self.isLoopback(request.url) { check(ccurl_setopt_string(curl, CURLOPT_ACCEPT_ENCODING, "")) }
            check(CurlLibrary.setTLSAndCredentials(curl, caFile: caFile, user: user, password: password))
            if user != nil { check(ccurl_setopt_long(curl, CURLOPT_HTTPAUTH, offered)) }
            guard failed == CURLE_OK else { return failed }
            return curl_easy_perform(curl)
        }
        let url = Self.shown(request.url)
        if let error = context.sinkError { throw error }
        if context.overflow { throw CurlTransferError.tooLarge(url: url, limit: maxResponseBytes) }
        guard code == CURLE_OK else {
            let message = CurlLibrary.message(for: code, errorBuffer: errorBuffer)
            let tlsCodes: [CURLcode] = [
                CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
                CURLE_SSL_CONNECT_ERROR,
                CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND,
            ]
            if tlsCodes.contains(code) { throw CurlTransferError.tls(url: url, message: message) }
            throw CurlTransferError.network(url: url, message: message)
        }
        var status = 0
        _ = ccurl_getinfo_long(curl, CURLINFO_RESPONSE_CODE, &status)
        if user != nil && auth == 0 {
            var available = 0
            _ = ccurl_getinfo_long(curl, CURLINFO_HTTPAUTH_AVAIL, &available)
            if status != 401 {
                // Accepted: what the server asked for, or the Basic sent at once.
                auth = available & 3 != 0 ? available & 3 : basicAtOnce ? Self.basic : 0
            } else if basicAtOnce && available & Self.digest != 0 {
                auth = Self.digest
            }
        }
        return (HTTPResponse(status: status, headers: context.headers, body: context.body), basicAtOnce)
    }
}

/// What libcurl's callbacks fill during one request.
private final class HTTPTransferContext {
    let limit: Int
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var overflow = false
    /// The status of the answer under way (from its status line).
    var status = 0
    /// Where the body of an answer with `sink.status` goes, and the error it threw.
    var sink: (status: Int, body: (UnsafeRawBufferPointer) throws -> Void)?
    var sinkError: Error?

    init(limit: Int) { self.limit = limit }
}

private let httpWrite: ccurl_write_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let context = Unmanaged<HTTPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    if let sink = context.sink, sink.status == context.status {
        do { try sink.body(UnsafeRawBufferPointer(start: data, count: n)) } catch {
            context.sinkError = error
            return 0
        }
        return n
    }
    guard context.body.count + n <= context.limit else {
        context.overflow = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: n) {
        context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
    }
    return n
}

private let httpHeader: ccurl_write_callback = { data, size, count, userdata in
    guard let userdata, let data else { return 0 }
    let context = Unmanaged<HTTPTransferContext>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: n) {
        String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        // A new answer (after a 401 challenge or a 100 Continue): only the last one's headers count.
        context.headers.removeAll()
        let parts = line.split(separator: " ", maxSplits: 2)
        context.status = parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        context.headers.append((name, value))
    }
    return n
}
