import Foundation

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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, tty, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH, SIGPIPE] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
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
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
