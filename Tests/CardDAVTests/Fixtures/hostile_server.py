"""A small, scriptable and hostile CardDAV server for the CardDAV tests, on 127.0.0.1 and a free port.

One address book at /book/ (no sync-collection: clients list it by ETag). Its members come from
``--members FILE`` (JSON: a list of {"href", "body", "data": true, "type": "text/vcard"}); in an href,
``{other}`` stands for ``127.0.0.1:<the other port>``. A member's href is what the listings and REPORT
answers say; it is stored (and PUT, GET, DELETE) by its path. Faults:
  --other         listen on a second port too (another origin): every request there is logged and refused;
  --deep N        every REPORT answer is a multistatus nested N elements deep;
  --trickle S     every REPORT answer is sent one byte every S seconds;
  --generate N:K  N more members, each with a PHOTO of K bytes of base64;
  --refuse PATH:STATUS  a PUT or DELETE to PATH is answered STATUS;
  --sync-without-data  offer sync-collection (RFC 6578; every answer lists every member, token "t1") but
                  answer 400 to one that asks for address-data;
  --log FILE      one line per request: port, method, path, and "auth" when it carried Authorization.
Prints ``PORT n`` (then ``OTHER n`` with --other) once it listens and stops on ``quit`` on stdin.
Written for this project's tests.
"""

import argparse
import hashlib
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--members")
    parser.add_argument("--other", action="store_true")
    parser.add_argument("--deep", type=int, default=0)
    parser.add_argument("--trickle", type=float, default=0)
    parser.add_argument("--generate")
    parser.add_argument("--refuse", action="append", default=[])
    parser.add_argument("--log")
    parser.add_argument("--sync-without-data", action="store_true")
    args = parser.parse_args()
    lock = threading.Lock()
    members = {}  # path -> dict(href, body bytes, data, type, etag)
    refused = dict((r.rsplit(":", 1)[0], int(r.rsplit(":", 1)[1])) for r in args.refuse)

    def etag(body):
        return '"' + hashlib.sha1(body).hexdigest()[:16] + '"'

    def add(href, body, data=True, kind="text/vcard"):
        path = urllib.parse.unquote(urllib.parse.urlsplit(href).path)
        members[path] = dict(href=href, body=body, data=data, type=kind, etag=etag(body))

    def log(port, method, path, auth):
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write(f"{port} {method} {path}{' auth' if auth else ''}\n")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def answer(self, status, body=b"", headers=(), trickle=0):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if trickle:
                for k in range(len(body)):
                    self.wfile.write(body[k:k + 1])
                    self.wfile.flush()
                    time.sleep(trickle)
            else:
                self.wfile.write(body)

        def multistatus(self, responses):
            xml = ('<?xml version="1.0" encoding="utf-8"?>'
                   '<d:multistatus xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">'
                   + "".join(responses) + "</d:multistatus>").encode()
            if args.deep and self.command == "REPORT":
                xml = (b'<d:multistatus xmlns:d="DAV:">' + b"<d:response>" * args.deep
                       + b"</d:response>" * args.deep + b"</d:multistatus>")
            self.answer(207, xml, [("Content-Type", "application/xml; charset=utf-8")],
                        trickle=args.trickle if self.command == "REPORT" else 0)

        @staticmethod
        def response(m, data):
            props = f"<d:getetag>{escape(m['etag'])}</d:getetag>"
            if data and m["data"]:
                props += f"<card:address-data>{escape(m['body'].decode('utf-8', 'replace'))}</card:address-data>"
            return (f"<d:response><d:href>{escape(m['href'])}</d:href><d:propstat><d:prop>{props}</d:prop>"
                    "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            port = self.server.server_address[1]
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
            log(port, self.command, self.path, self.headers.get("Authorization"))
            if self.server is not main_server:
                return self.answer(403, b"another origin")
            with lock:
                if self.command == "PROPFIND":
                    if self.headers.get("Depth") == "0":
                        return self.multistatus([
                            '<d:response><d:href>/book/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/>'
                            '<card:addressbook/></d:resourcetype><d:displayname>Book</d:displayname>'
                            + ('<d:supported-report-set><d:supported-report><d:report><d:sync-collection/>'
                               '</d:report></d:supported-report></d:supported-report-set>'
                               if args.sync_without_data else '')
                            + '</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>'])
                    return self.multistatus([self.response(m, False) for m in members.values()])
                if self.command == "REPORT" and b"sync-collection" in body:
                    if b"address-data" in body:
                        return self.answer(400, b"address-data is not supported here")
                    listed = [self.response(m, False) for m in members.values()]
                    return self.multistatus(listed + ["<d:sync-token>t1</d:sync-token>"])
                if self.command == "REPORT":
                    if b"addressbook-multiget" in body:
                        wanted = [urllib.parse.unquote(h.split(b"<", 1)[0].decode())
                                  for h in body.split(b"href>")[1::2]]
                        found = [members[p] for p in wanted if p in members]
                    else:
                        found = list(members.values())
                    return self.multistatus([self.response(m, True) for m in found])
                if self.command == "GET":
                    m = members.get(path)
                    if not m:
                        return self.answer(404)
                    return self.answer(200, m["body"], [("Content-Type", m["type"]), ("ETag", m["etag"])])
                if self.command in ("PUT", "DELETE") and path in refused:
                    return self.answer(refused[path], b"refused by the test server")
                if self.command == "PUT":
                    existed = path in members
                    add(members[path]["href"] if existed else urllib.parse.urlsplit(self.path).path, body)
                    return self.answer(204 if existed else 201, b"", [("ETag", members[path]["etag"])])
                if self.command == "DELETE":
                    members.pop(path, None)
                    return self.answer(204)
            self.answer(405)

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = handle_any

    main_server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    main_server.daemon_threads = True
    servers = [main_server]
    if args.other:
        other = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        other.daemon_threads = True
        servers.append(other)
    other_address = f"127.0.0.1:{servers[-1].server_address[1]}"
    if args.members:
        with open(args.members) as f:
            for m in json.load(f):
                add(m["href"].replace("{other}", other_address), m["body"].encode(), m.get("data", True),
                    m.get("type", "text/vcard"))
    if args.generate:
        count, size = (int(x) for x in args.generate.split(":"))
        photo = ("A" * size)
        for k in range(count):
            card = (f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:gen-{k}\r\nFN:Person {k}\r\nN:{k};Person;;;\r\n"
                    f"PHOTO;ENCODING=b;TYPE=JPEG:{photo}\r\nEND:VCARD\r\n")
            add(f"/book/gen-{k}.vcf", card.encode())
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    print(f"PORT {main_server.server_address[1]}", flush=True)
    if args.other:
        print(f"OTHER {servers[-1].server_address[1]}", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
    for s in servers:
        s.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
