// Per recipient: a server may accept some recipients of a message and refuse others (RCPT)
extension OutboxItem {
    /// Where `address` (one of ``recipients``) stands.
    public func state(of address: String) -> OutboxState { recipientStates[address] ?? .queued }

    /// The recipients a send still goes to: those not sent and not failed (uncertain ones only when
    /// `includingUncertain`, i.e. when they are resent).
    public func openRecipients(includingUncertain: Bool = false) -> [String] {
        recipients.filter {
            switch state(of: $0) {
            case .queued, .deferred: return true
            case .uncertain: return includingUncertain
            case .sent, .failed: return false
            }
        }
    }

    /// Records `state` for `addresses` (nil: every recipient not sent or failed yet) and sets ``state``
    /// from all of them.
    mutating func apply(_ state: OutboxState, to addresses: [String]?) {
        for address in addresses ?? openRecipients(includingUncertain: true) { recipientStates[address] = state }
        let states = recipients.map { self.state(of: $0) }
        if states.allSatisfy({ $0 == .sent }) {
            self.state = .sent
        } else if states.contains(.uncertain) {
            self.state = .uncertain
        } else if states.contains(.deferred) {
            self.state = .deferred
        } else if states.contains(.queued) {
            self.state = .queued
        } else {
            self.state = states.contains(.sent) ? .sent : .failed
        }
    }
}
