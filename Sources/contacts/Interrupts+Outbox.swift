import Composer
import TerminalUI

extension Interrupts {
    /// SIGINT and SIGTERM during a send: the first asks `stop` to stop, a second ends the running sendmail
    /// programs (with their process groups) and exits with 130.
    static func watch(_ stop: OutboxStop) {
        watch(stop: { stop.request() }, stopAtOnce: { SendmailTransport.terminateRunningPrograms() })
    }
}
