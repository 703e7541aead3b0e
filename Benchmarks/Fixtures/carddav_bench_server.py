"""The server side of the CardDAV benchmark: Radicale 3 (``--kind radicale``, no authentication) or Xandikos
(``--kind xandikos``) on 127.0.0.1 and a free port, holding one address book filled with every card of
``--cards`` (a vCard 3.0 file made by scripts/gen-bench-data.py), written straight into its storage
(Xandikos: one git commit). Prints ``PORT n`` once it answers, then takes commands on stdin, one per line,
answering one line each:
  path       the address book's path on the server
  query      the seconds of one full addressbook-query (every card with its data): the server's own time
  synccards  the seconds of one sync-collection from no token asking for address-data, and how many
             members it gave a card for ("0.8123 10000"; Xandikos 0.4 gives none: 404 for address-data)
  token      the seconds of one sync-collection from the current token with nothing changed
  tokenprop  the seconds of one PROPFIND of the collection's DAV:sync-token (what a first sync asks before
             its query, so that no change made meanwhile is missed)
  change N   changes N cards on the server (a NOTE), answers "ok"
  changed    the seconds of one sync-collection from the token taken just before the last change: what a
             sync after that change asks first
  quit       stops the server.
Written for this project's benchmarks.
"""

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time


def fill_radicale(root, cards):
    collection = os.path.join(root, "collection-root", "bench", "book")
    os.makedirs(collection, exist_ok=True)
    with open(os.path.join(collection, ".Radicale.props"), "w") as f:
        json.dump({"tag": "VADDRESSBOOK", "D:displayname": "Bench"}, f)
    return collection, "/bench/book/"


def launch(kind, root, port, log):
    if kind == "radicale":
        command = [sys.executable, "-m", "radicale", "--server-hosts", f"127.0.0.1:{port}",
                   "--storage-filesystem-folder", root, "--auth-type", "none", "--rights-type", "authenticated"]
    else:
        xandikos = os.path.join(os.path.dirname(sys.executable), "xandikos")
        command = [xandikos, "serve", "-d", root, "--defaults", "-l", "127.0.0.1", "-p", str(port)]
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def wait(port, child):
    deadline = time.time() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            if time.time() > deadline or child.poll() is not None:
                return False
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--kind", choices=["radicale", "xandikos"], default="radicale")
    args = parser.parse_args()
    text = open(args.cards, encoding="utf-8").read()
    cards = re.findall(r"BEGIN:VCARD\r?\n.*?END:VCARD\r?\n", text, re.S)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(args.root.rstrip("/") + ".log", "w")
    if args.kind == "radicale":
        collection, path = fill_radicale(args.root, cards)
    else:
        # Xandikos makes its address book (a git repository) on a first start; the cards go in as one commit.
        path = "/user/contacts/addressbook/"
        collection = os.path.join(args.root, "user", "contacts", "addressbook")
        child = launch(args.kind, args.root, port, log)
        ok = wait(port, child)
        child.terminate()
        child.wait(10)
        if not ok:
            print("NOT STARTED", flush=True)
            return 1
    names = []
    for i, card in enumerate(cards):
        name = f"card-{i:06d}.vcf"
        names.append(name)
        with open(os.path.join(collection, name), "w", encoding="utf-8", newline="") as f:
            f.write(card)
    if args.kind == "xandikos":
        git = ["git", "-C", collection, "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
        subprocess.run(git + ["add", "-A"], check=True, stdout=log, stderr=log)
        subprocess.run(git + ["commit", "-q", "-m", "cards"], check=True, stdout=log, stderr=log)
    child = launch(args.kind, args.root, port, log)

    def request(method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        h = {"Authorization": "Basic YmVuY2g6eA==", "Content-Type": "application/xml"}
        h.update(headers or {})
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    if not wait(port, child):
        print("NOT STARTED", flush=True)
        return 1
    # One full read first: Radicale builds its caches of the new items once.
    query = ('<?xml version="1.0"?><C:addressbook-query xmlns:D="DAV:" '
             'xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><D:getetag/><C:address-data/></D:prop>'
             '</C:addressbook-query>')
    request("REPORT", path, query, {"Depth": "1"})
    print(f"PORT {port}", flush=True)
    changed = 0
    before = ""
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "quit":
            break
        if words[0] == "path":
            print(path, flush=True)
        elif words[0] == "synccards":
            body = ('<?xml version="1.0"?><D:sync-collection xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">'
                    '<D:sync-token/><D:sync-level>1</D:sync-level><D:prop><D:getetag/><C:address-data/></D:prop>'
                    '</D:sync-collection>')
            start_time = time.perf_counter()
            status, data = request("REPORT", path, body, {"Depth": "1"})
            seconds = time.perf_counter() - start_time
            given = len(re.findall(rb"BEGIN:VCARD", data))
            print(f"{seconds:.4f} {given}" if status == 207 else f"error {status}", flush=True)
        elif words[0] == "query":
            start = time.perf_counter()
            status, _ = request("REPORT", path, query, {"Depth": "1"})
            print(f"{time.perf_counter() - start:.4f}" if status == 207 else f"error {status}", flush=True)
        elif words[0] == "token":
            body = ('<?xml version="1.0"?><D:sync-collection xmlns:D="DAV:"><D:sync-token>{}</D:sync-token>'
                    '<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')
            _, data = request("REPORT", path, body.format(""), {"Depth": "1"})
            token = re.search(rb"<(?:\w+:)?sync-token>([^<]*)</", data).group(1).decode()
            start = time.perf_counter()
            status, _ = request("REPORT", path, body.format(token), {"Depth": "1"})
            print(f"{time.perf_counter() - start:.4f}" if status == 207 else f"error {status}", flush=True)
        elif words[0] == "tokenprop":
            body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:sync-token/></D:prop></D:propfind>'
            start = time.perf_counter()
            status, _ = request("PROPFIND", path, body, {"Depth": "0"})
            print(f"{time.perf_counter() - start:.4f}" if status == 207 else f"error {status}", flush=True)
        elif words[0] == "change":
            body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:sync-token/></D:prop></D:propfind>'
            _, data = request("PROPFIND", path, body, {"Depth": "0"})
            before = re.search(rb"<(?:\w+:)?sync-token>([^<]*)</", data).group(1).decode()
            for k in range(int(words[1])):
                name = names[(changed * 7919) % len(names)]
                changed += 1
                card = cards[names.index(name)].replace("END:VCARD", f"NOTE:changed {changed}\r\nEND:VCARD", 1)
                request("PUT", path + name, card.encode(), {"Content-Type": "text/vcard"})
            print("ok", flush=True)
        elif words[0] == "changed":
            body = ('<?xml version="1.0"?><D:sync-collection xmlns:D="DAV:"><D:sync-token>{}</D:sync-token>'
                    '<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')
            start = time.perf_counter()
            status, _ = request("REPORT", path, body.format(before), {"Depth": "1"})
            print(f"{time.perf_counter() - start:.4f}" if status == 207 else f"error {status}", flush=True)
    child.terminate()
    child.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
