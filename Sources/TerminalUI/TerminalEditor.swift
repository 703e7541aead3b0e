import Foundation
import Support

extension TerminalSession {
    /// The editor a person chose, as git and mutt find it: `VISUAL`, else `EDITOR`, else `vi`.
    ///
    /// ```swift
    /// TerminalSession.editor(environment: ["EDITOR": "nano"])   // "nano"
    /// ```
    public static func editor(environment: [String: String]) -> String {
        [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// Runs `editor` (a shell command, e.g. `vim -u NONE`) on `file` with the terminal given over to it
    /// (``handOver(_:)``): in this process's own process group, so it is the terminal's foreground job and
    /// can set its modes and read keys, with `/dev/tty` as its input and output and the default action for
    /// the signals this session takes; a Ctrl-C meanwhile is the editor's alone. Returns its exit status (128 + the signal that ended it), or -1 when
    /// it could not be started.
    public func runEditor(_ editor: String, file: URL) -> Int32 {
        handOver { Self.spawnInForeground(["/bin/sh", "-c", editor + " \"$1\"", editor, file.path]) }
    }

    /// Starts `arguments` (the first the program's path) on `/dev/tty` in this process group and waits.
    static func spawnInForeground(_ arguments: [String]) -> Int32 {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else { return -1 }
        defer { close(tty) }
        // A Ctrl-C or Ctrl-\\ typed while the editor runs is the editor's (as system(3) and git have it): the
        // session's own handlers would end the picker once the editor returns.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var previousInt = sigaction()
        var previousQuit = sigaction()
        sigaction(SIGINT, &ignore, &previousInt)
        sigaction(SIGQUIT, &ignore, &previousQuit)
        defer {
            sigaction(SIGINT, &previousInt, nil)
            sigaction(SIGQUIT, &previousQuit, nil)
        }
        let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH, SIGPIPE]
        do {
            let pid = try ChildProcess.spawn(arguments, descriptors: [0: tty, 1: tty, 2: tty], signals: signals)
            switch try ChildProcess.wait(pid, path: arguments[0]) {
            case .exited(let status): return status
            case .signaled(let signal): return 128 + signal
            }
        } catch {
            return -1
        }
    }
}
