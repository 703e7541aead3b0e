"""A fault-injecting HTTP proxy for the CardDAV tests, on 127.0.0.1 and a free port.

Forwards every request to ``--upstream`` (a test server; uncompressed, so that a damaged body is
XML with wrong bytes) and answers some of them wrongly, each fault once, in the order the requests
arrive:
  --put-412       the first PUT is answered 412 Precondition Failed (not forwarded);
  --busy          the first request is answered 503 with Retry-After: 1 (not forwarded);
  --drop-report   the first REPORT's answer is cut off in the middle of its body;
  --garble-report the first REPORT's answer has its body's bytes damaged;
  --page-sync N   every sync-collection answer (RFC 6578) with more than N members is truncated to N: the
                  rest is kept here, and the answer ends with a 507 response on the collection and an
                  intermediate sync-token (RFC 6578 section 3.6); a REPORT from that token gets the next N
                  (from here, not forwarded), the last page the server's own token.
And, for the authentication tests:
  --digest USER:PASSWORD  every request must carry Digest credentials (RFC 7616, MD5, qop=auth) for USER:
                  others are answered 401 with a Digest challenge (not forwarded); accepted ones go on as
                  USER with Basic, for an upstream without authentication;
  --log FILE      one line per request: method, the Authorization scheme (or -) and the status answered.
Prints ``PORT n`` once it listens and stops on ``quit`` (or end of input) on stdin. Written for this
project's tests.
"""

import argparse
import base64
import hashlib
import http.client
import os
import itertools
import re
import socket
import sys
import threading
import urllib.parse
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    for fault in ["put-412", "busy", "drop-report", "garble-report"]:
        parser.add_argument("--" + fault, action="store_true")
    parser.add_argument("--page-sync", type=int, default=0)
    parser.add_argument("--digest")
    parser.add_argument("--log")
    args = parser.parse_args()
    realm = "contacts-test"

    def md5(text):
        return hashlib.md5(text.encode()).hexdigest()

    def digest_accepted(method, header):
        """Whether an Authorization header holds the right Digest answer for --digest's user."""
        if not header or not header.startswith("Digest "):
            return False
        pairs = re.findall(r'(\w+)=(?:"([^"]*)"|([^,\s]*))', header[7:])
        fields = {name: quoted or bare for name, quoted, bare in pairs}
        user, password = args.digest.split(":", 1)
        if fields.get("username") != user or fields.get("realm") != realm:
            return False
        ha1 = md5(f"{user}:{realm}:{password}")
        ha2 = md5(f"{method}:{fields.get('uri', '')}")
        expected = md5(":".join([ha1, fields.get("nonce", ""), fields.get("nc", ""), fields.get("cnonce", ""),
                                 fields.get("qop", ""), ha2]))
        return fields.get("response") == expected

    def log(method, header, status):
        if args.log:
            with lock, open(args.log, "a") as f:
                f.write(f"{method} {(header or '-').split(' ')[0]} {status}\n")
    upstream = urllib.parse.urlsplit(args.upstream)
    pending = {name: getattr(args, name.replace("-", "_")) for name in
               ["put-412", "busy", "drop-report", "garble-report"]}
    lock = threading.Lock()

    def take(fault):
        with lock:
            if pending.get(fault):
                pending[fault] = False
                return True
            return False

    # Paging of sync-collection answers: intermediate token -> (members still to send, the server's token).
    pages = {}
    page_numbers = itertools.count(1)
    page_prefix = "http://127.0.0.1/fault-proxy/page/"

    def page(members, final_token, collection_href):
        """One page of a multistatus: at most --page-sync members, then a 507 and a token of ours, or the
        rest and the server's token."""
        size = args.page_sync
        root = ET.Element("{DAV:}multistatus")
        for member in members[:size]:
            root.append(member)
        if len(members) > size:
            with lock:
                token = page_prefix + str(next(page_numbers))
                pages[token] = (members[size:], final_token, collection_href)
            truncated = ET.SubElement(root, "{DAV:}response")
            ET.SubElement(truncated, "{DAV:}href").text = collection_href
            ET.SubElement(truncated, "{DAV:}status").text = "HTTP/1.1 507 Insufficient Storage"
        else:
            token = final_token
        ET.SubElement(root, "{DAV:}sync-token").text = token
        return b'<?xml version="1.0" encoding="utf-8"?>' + ET.tostring(root)

    def requested_token(body):
        try:
            element = ET.fromstring(body).find("{DAV:}sync-token")
        except ET.ParseError:
            return None
        return (element.text or "").strip() if element is not None else None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def answer(self, status, body=b"", headers=()):
            log(self.command, self.headers.get("Authorization"), status)
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            forwarded_auth = None
            if args.digest:
                if not digest_accepted(self.command, self.headers.get("Authorization")):
                    nonce = os.urandom(16).hex()
                    challenge = f'Digest realm="{realm}", qop="auth", nonce="{nonce}", algorithm=MD5'
                    return self.answer(401, b"authentication required", [("WWW-Authenticate", challenge)])
                user = args.digest.split(":", 1)[0]
                forwarded_auth = "Basic " + base64.b64encode(f"{user}:x".encode()).decode()
            if take("busy"):
                return self.answer(503, b"busy", [("Retry-After", "1")])
            if self.command == "PUT" and take("put-412"):
                return self.answer(412, b"changed meanwhile")
            paging = (args.page_sync > 0 and self.command == "REPORT" and body is not None
                      and b"sync-collection" in body)
            if paging and (requested_token(body) or "").startswith(page_prefix):
                with lock:
                    rest = pages.pop(requested_token(body), None)
                if rest is None:
                    forbidden = (b'<?xml version="1.0" encoding="utf-8"?><D:error xmlns:D="DAV:">'
                                 b'<D:valid-sync-token/></D:error>')
                    return self.answer(403, forbidden, [("Content-Type", "application/xml")])
                members, final_token, collection_href = rest
                return self.answer(207, page(members, final_token, collection_href),
                                   [("Content-Type", "application/xml; charset=utf-8")])
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
            dropped = ("host", "connection", "accept-encoding")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in dropped}
            if forwarded_auth:
                headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
                headers["Authorization"] = forwarded_auth
            connection.request(self.command, self.path, body=body, headers=headers)
            reply = connection.getresponse()
            data = reply.read()
            connection.close()
            passed = [(k, v) for k, v in reply.getheaders()
                      if k.lower() not in ("content-length", "transfer-encoding", "connection")]
            if self.command == "REPORT" and take("drop-report"):
                log(self.command, self.headers.get("Authorization"), reply.status)
                self.send_response(reply.status)
                for name, value in passed:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            if paging and reply.status == 207:
                root = ET.fromstring(data)
                members = root.findall("{DAV:}response")
                token = root.find("{DAV:}sync-token")
                if len(members) > args.page_sync and token is not None:
                    data = page(members, (token.text or "").strip(), self.path)
                    passed = [(k, v) for k, v in passed if k.lower() != "etag"]
            if self.command == "REPORT" and take("garble-report"):
                data = bytes(b ^ 0x5A if i % 7 == 3 else b for i, b in enumerate(data))
            self.answer(reply.status, data, passed)

        do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCOL = do_OPTIONS = handle_any

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    for line in sys.stdin:
        if line.strip() == "quit":
            break
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
