#!/usr/bin/env python3
"""Runs a full-screen program in a pseudo-terminal and reads what it draws with pyte (a VT100 emulator).

Usage: pty_screen.py COLUMNS LINES OUT_FILE STEPS_JSON -- PROGRAM [ARGS...]

The program's standard output goes to OUT_FILE (its screen is the terminal). STEPS_JSON is a list of steps:
  ["wait", TEXT]      wait (at most 20 s) until TEXT is on the screen
  ["gone", TEXT]      wait until TEXT is no longer on the screen
  ["send", TEXT]      type TEXT (bytes as given: "\\t" Tab, "\\r" Enter, "\\x1b" Esc, "\\x1b[Z" Shift-Tab)
  ["resize", C, L]    resize the terminal (the program gets SIGWINCH)
  ["signal", NAME]    send a signal (TERM, HUP, INT)
  ["snap"]            record the screen
Prints JSON: {"snaps": [[line, ...], ...], "status": exit status (or -signal), "colors": [[...], ...]}
("colors": per snap, the foreground and background colours of its cells, "default" when none was set). A wait that times out prints the screen and exits 3.
"""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

import pyte


def main():
    columns, lines, out_file, steps = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
    command = sys.argv[sys.argv.index("--") + 1:]
    pid, master = pty.fork()
    if pid == 0:
        fd = os.open(out_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.execvp(command[0], command)
    set_size(master, columns, lines)
    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    snaps = []
    colors = []
    status = None

    def pump(timeout):
        nonlocal status
        ready, _, _ = select.select([master], [], [], timeout)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if data:
                stream.feed(data)
                return True
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(code)
        return False

    def wait_for(predicate, what):
        deadline = time.monotonic() + 20
        while not predicate():
            if time.monotonic() > deadline:
                print(json.dumps({"timeout": what, "screen": screen.display, "status": status}))
                if status is None:
                    os.kill(pid, signal.SIGKILL)
                sys.exit(3)
            pump(0.05)

    for step in steps:
        kind = step[0]
        if kind == "wait":
            wait_for(lambda: any(step[1] in line for line in screen.display), step[1])
        elif kind == "gone":
            wait_for(lambda: not any(step[1] in line for line in screen.display), step[1])
        elif kind == "send":
            os.write(master, step[1].encode("utf-8"))
        elif kind == "resize":
            screen.resize(step[2], step[1])
            set_size(master, step[1], step[2])
            os.kill(pid, signal.SIGWINCH)
        elif kind == "signal":
            os.kill(pid, getattr(signal, "SIG" + step[1]))
        elif kind == "snap":
            while pump(0.2):
                pass
            snaps.append(list(screen.display))
            cells = [cell for y in range(screen.lines) for cell in screen.buffer[y].values()]
            colors.append(sorted({cell.fg for cell in cells} | {cell.bg for cell in cells}))
    deadline = time.monotonic() + 20
    while status is None and time.monotonic() < deadline:
        pump(0.05)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    print(json.dumps({"snaps": snaps, "status": status, "colors": colors}, ensure_ascii=False))


def set_size(fd, columns, lines):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


if __name__ == "__main__":
    main()
