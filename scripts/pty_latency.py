#!/usr/bin/env python3
"""Times a full-screen picker (`contacts pick`, fzf) in a pseudo-terminal read by pyte (a VT100 emulator):
how long until its first screen, and how long each keystroke takes until the screen shows its answer.

Usage: pty_latency.py SPEC_JSON -- PROGRAM [ARGS...]

SPEC_JSON: {"columns": C, "lines": L, "total": N,
            "ready": [TEXT, ...]            the first screen shows every TEXT (and "COUNT/N" with COUNT = N),
            "progress": TEXT or null        also time the first screen that shows TEXT (a progress line),
            "typed": [[QUERY, COUNT], ...]  the query after each keystroke and the count the program's own
                                            non-interactive search gives for it,
            "repeat": R                     type the sequence R times (Ctrl-U and back to N in between),
            "quit": BYTES,                  what ends the program (Esc)
            "prompt": TEXT or null}         for a program that draws the query and its count in one frame
                                            (the picker): a key is answered when a line starts with TEXT
                                            and the query and shows "COUNT/N", so every key is timed
A keystroke is answered when the screen shows QUERY and "COUNT/N" (the program's match-count: fzf's info
line, the picker's search line). Keystrokes whose count equals the one before cannot be told from the
screen before it and are typed but not timed (unless "prompt" is given). Each time is from just before the key is written to the
moment the bytes that completed the answer were read (pyte's own work included, for every program alike).
Prints JSON: {"progress": s or null, "ready": s, "keys": [[QUERY, ms], ...], "status": exit status}.
A wait longer than 60 s prints the screen on stderr and exits 3.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pyte


def main():
    spec = json.loads(sys.argv[1])
    command = sys.argv[sys.argv.index("--") + 1:]
    columns, lines, total = spec["columns"], spec["lines"], spec["total"]
    start = time.monotonic()
    pid, master = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    count_pattern = re.compile(r"(\d+)/" + str(total) + r"\b")

    def counts():
        return [int(m.group(1)) for line in screen.display for m in count_pattern.finditer(line)]

    def wait(condition, what):
        """Reads until condition() holds; the time the completing bytes were read."""
        deadline = time.monotonic() + 60
        if condition():
            return time.monotonic()
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:
                data = b""
            if not data:
                break
            at = time.monotonic()
            stream.feed(data)
            if condition():
                return at
        sys.stderr.write("timed out waiting for %s; the screen:\n%s\n" % (what, "\n".join(screen.display)))
        os.kill(pid, signal.SIGKILL)
        sys.exit(3)

    result = {"progress": None}
    if spec.get("progress"):
        text = spec["progress"]
        result["progress"] = wait(lambda: any(text in line for line in screen.display), "progress") - start
    ready = spec["ready"]
    result["ready"] = (
        wait(
            lambda: all(any(t in line for line in screen.display) for t in ready) and total in counts(),
            "the first screen",
        )
        - start
    )
    keys = []
    prompt = spec.get("prompt")
    for _ in range(spec.get("repeat", 1)):
        previous = total
        typed = ""
        for query, count in spec["typed"]:
            key = query[len(typed):]
            typed = query
            sent = time.monotonic()
            os.write(master, key.encode())
            shown = query.rstrip()

            def answered():
                if prompt is not None:
                    return count in counts() and any(line.startswith(prompt + shown + " ") for line in screen.display)
                return count in counts() and any(shown in line for line in screen.display)

            at = wait(answered, "the answer to %r (%d)" % (query, count))
            if count != previous or prompt is not None:
                keys.append([query, (at - sent) * 1000])
            previous = count
        os.write(master, b"\x15")  # Ctrl-U: the query cleared, everyone shown again
        wait(lambda: total in counts() and not any(typed.rstrip() in line for line in screen.display[:3] + screen.display[-3:]), "the cleared query")
    result["keys"] = keys
    os.write(master, spec.get("quit", "\x1b").encode())
    deadline = time.monotonic() + 10
    status = None
    while time.monotonic() < deadline and status is None:
        select.select([master], [], [], 0.1)
        try:
            os.read(master, 1 << 16)
        except OSError:
            pass
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(code)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    result["status"] = status
    print(json.dumps(result))


if __name__ == "__main__":
    main()
