import Foundation

// Credentials never travel in clear text: the one rule of when AUTH must wait for TLS
extension SMTPConfiguration {
    /// Whether AUTH must wait for TLS when the server is reached at `peers` (the numeric addresses its host
    /// resolves to, ``resolvePeers()``): with a user name, over `smtp://`, unless AUTH without TLS is
    /// ``PlaintextAuth/allowed``, or ``PlaintextAuth/loopbackOnly`` (the default) and every peer is a
    /// loopback address (``isLoopback(_:)``). No peer at all counts as not loopback.
    ///
    /// ```swift
    /// var config = try SMTPConfiguration(url: "smtp://mail.example.com:587")
    /// config.username = "ada"
    /// config.credentialsNeedTLS(peers: ["192.0.2.7"])   // true: STARTTLS before AUTH
    /// config.credentialsNeedTLS(peers: ["127.0.0.1"])   // false: the loopback interface
    /// config.plaintextAuth = .never
    /// config.credentialsNeedTLS(peers: ["127.0.0.1"])   // true
    /// ```
    public func credentialsNeedTLS(peers: [String]) -> Bool {
        guard username != nil, !isImplicitTLS else { return false }
        switch plaintextAuth {
        case .allowed: return false
        case .never: return true
        case .loopbackOnly: return peers.isEmpty || !peers.allSatisfy(Self.isLoopback)
        }
    }

    /// Whether `address` (numeric IPv4 or IPv6) is on the loopback interface: 127.0.0.0/8, `::1`, and
    /// 127.0.0.0/8 mapped into IPv6 (`::ffff:127.0.0.1`). Host names are not addresses: false.
    ///
    /// ```swift
    /// SMTPConfiguration.isLoopback("127.3.2.1")        // true
    /// SMTPConfiguration.isLoopback("::ffff:10.0.0.1")  // false
    /// SMTPConfiguration.isLoopback("localhost")        // false (resolve it first)
    /// ```
    public static func isLoopback(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { $0[0] == 127 }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { b in
            if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return true }  // ::1
            return b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF && b[12] == 127
        }
    }

    /// The host of ``url`` (IPv6 literals without their brackets) and its port (25, or 465 for `smtps://`).
    public var hostAndPort: (host: String, port: Int) {
        let components = URLComponents(string: url)
        var host = components?.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, components?.port ?? (isImplicitTLS ? 465 : 25))
    }

    /// The numeric addresses the host resolves to (the host itself when it is one); empty when it does not
    /// resolve.
    public func resolvePeers() -> [String] {
        let host = hostAndPort.host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var peers: [String] = []
        var next = list
        while let entry = next {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(
                entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0,
                NI_NUMERICHOST) == 0
            {
                let peer = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !peers.contains(peer) { peers.append(peer) }
            }
            next = entry.pointee.ai_next
        }
        return peers
    }
}
