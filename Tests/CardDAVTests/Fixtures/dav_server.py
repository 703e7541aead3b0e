"""A real CardDAV server for the tests, on 127.0.0.1 and a free port.

Starts Radicale 3 (``--kind radicale``: no authentication, or htpasswd with plain passwords when
``--htpasswd FILE`` is given) or Xandikos (``--kind xandikos``: its default address book, no
authentication) storing into ``--root``, waits until it accepts connections, prints ``PORT n``, and
stops it when ``quit`` (or end of input) arrives on stdin. Both are installed from PyPI into the
project's venv by ``make deps``. Written for this project's tests.
"""

import argparse
import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["radicale", "xandikos"], required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--htpasswd")
    args = parser.parse_args()
    port = free_port()
    python = sys.executable
    if args.kind == "radicale":
        command = [python, "-m", "radicale", "--server-hosts", f"127.0.0.1:{port}",
                   "--storage-filesystem-folder", args.root, "--rights-type", "authenticated"]
        if args.htpasswd:
            command += ["--auth-type", "htpasswd", "--auth-htpasswd-filename", args.htpasswd,
                        "--auth-htpasswd-encryption", "plain"]
        else:
            command += ["--auth-type", "none"]
    else:
        xandikos = os.path.join(os.path.dirname(python), "xandikos")
        command = [xandikos, "serve", "-d", args.root, "--defaults", "-l", "127.0.0.1", "-p", str(port)]
    log = open(args.root.rstrip("/") + ".log", "w")
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    deadline = time.time() + 60
    while True:
        if child.poll() is not None:
            print(f"EXITED {child.returncode}", flush=True)
            return 1
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if time.time() > deadline:
                child.kill()
                print("TIMEOUT", flush=True)
                return 1
            time.sleep(0.05)
    print(f"PORT {port}", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
    child.terminate()
    try:
        child.wait(5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
