"""A real CardDAV server for the tests, on 127.0.0.1 and a free port.

Starts Radicale 3 (``--kind radicale``: no authentication, or htpasswd with plain passwords when
``--htpasswd FILE`` is given), Xandikos (``--kind xandikos``: its default address book, no
authentication) or Cyrus IMAP's CardDAV (``--kind cyrus``: Debian's cyrus-common and cyrus-caldav, from a
temporary configuration; see ``start_cyrus``) storing into ``--root`` (Cyrus: into a folder of its own in /tmp, see ``main``), waits until it accepts connections, prints ``PORT n``, and
stops it when ``quit`` (or end of input) arrives on stdin. Both are installed from PyPI into the
project's venv by ``make deps``. Written for this project's tests.
"""

import argparse
import os
import shutil
import tempfile
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CYRUS_BIN = "/usr/lib/cyrus/bin"
# Folders outside --root to remove when the server stops (Cyrus's data and sockets).
CLEANUP = []


def start_cyrus(root, sockets, port, log):
    """Cyrus from a configuration of its own under ``root``: httpd (CardDAV only) on 127.0.0.1:port and
    lmtpd on a socket, users in a sasldb (realm = servername), the user ada with the password "secret".
    No IMAP server is needed (Debian's cyrus-imapd conflicts with dovecot-imapd): ada's mailbox is made by
    delivering one message over LMTP (autocreate_post), and httpd makes her Default address book on her
    first request. master starts as root and runs everything as the cyrus user, which owns ``root``; it
    logs to syslog only, so a failure to start is reported by the port never answering. Its sockets are
    in ``sockets``, a short folder (a socket's path has at most 107 bytes), and its pid file under
    ``root`` (by default every Cyrus shares one, and a second instance stops with 71)."""
    if not os.path.exists(os.path.join(CYRUS_BIN, "httpd")) or shutil.which("saslpasswd2") is None:
        print("EXITED cyrus-common, cyrus-caldav and sasl2-bin are not installed (make deps)", flush=True)
        sys.exit(1)
    for sub in ("conf", "part"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    conf = os.path.join(root, "imapd.conf")
    with open(conf, "w") as f:
        f.write(f"""configdirectory: {root}/conf
defaultpartition: default
partition-default: {root}/part
servername: localhost
admins: admin
sasl_pwcheck_method: auxprop
sasl_auxprop_plugin: sasldb
sasl_sasldb_path: {root}/sasldb2
sasl_mech_list: PLAIN LOGIN
allowplaintext: yes
httpmodules: carddav
autocreate_quota: 0
autocreate_post: yes
lmtpsocket: {sockets}/lmtp
idlesocket: {sockets}/idle
notifysocket: {sockets}/notify
unixhierarchysep: yes
""")
    with open(os.path.join(root, "cyrus.conf"), "w") as f:
        f.write(f"""START {{
  recover cmd="ctl_cyrusdb -r -C {conf}"
}}
SERVICES {{
  http cmd="httpd -C {conf}" listen="127.0.0.1:{port}" prefork=0
  lmtpunix cmd="lmtpd -C {conf}" listen="{sockets}/lmtp" prefork=0
}}
EVENTS {{
}}
DAEMON {{
}}
""")
    subprocess.run(["saslpasswd2", "-p", "-f", os.path.join(root, "sasldb2"), "-u", "localhost", "-c", "ada"],
                   input=b"secret", check=True)
    subprocess.run(["chown", "-R", "cyrus:mail", root, sockets], check=True)
    child = subprocess.Popen(
        [os.path.join(CYRUS_BIN, "master"), "-C", conf, "-M", os.path.join(root, "cyrus.conf"), "-D",
         "-p", os.path.join(root, "master.pid")],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    return child


def cyrus_mailbox(root):
    """ada's mailbox, made by delivering one message (lmtpd creates it)."""
    message = b"From: test@localhost\r\nTo: ada@localhost\r\nSubject: hello\r\n\r\nhello\r\n"
    deadline = time.time() + 30
    while True:
        done = subprocess.run([os.path.join(CYRUS_BIN, "deliver"), "-C", os.path.join(root, "imapd.conf"), "ada"],
                              input=message, user="cyrus", capture_output=True)
        if done.returncode == 0:
            return True
        if time.time() > deadline:
            print(f"EXITED deliver: {done.stderr.decode(errors='replace').strip()}", flush=True)
            return False
        time.sleep(0.1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=["radicale", "xandikos", "cyrus"], required=True)
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
    elif args.kind == "xandikos":
        xandikos = os.path.join(os.path.dirname(python), "xandikos")
        command = [xandikos, "serve", "-d", args.root, "--defaults", "-l", "127.0.0.1", "-p", str(port)]
    log = open(args.root.rstrip("/") + ".log", "w")
    if args.kind == "cyrus":
        # Cyrus runs as the cyrus user, who must reach its files: the tests' folder may be one only this
        # user can enter (a clone in a private temporary folder), so Cyrus's data and sockets live in a
        # short folder of its own in /tmp, owned by cyrus and removed when the server stops.
        home = tempfile.mkdtemp(prefix="cyrus-", dir="/tmp")
        CLEANUP.append(home)
        shutil.chown(home, "cyrus", "mail")
        sockets = os.path.join(home, "s")
        os.makedirs(sockets)
        cyrus_root = os.path.join(home, "data")
        child = start_cyrus(cyrus_root, sockets, port, log)
    else:
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
    if args.kind == "cyrus" and not cyrus_mailbox(cyrus_root):
        child.terminate()
        child.wait(5)
        return 1
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
    try:
        code = main()
    finally:
        for folder in CLEANUP:
            shutil.rmtree(folder, ignore_errors=True)
    sys.exit(code)
