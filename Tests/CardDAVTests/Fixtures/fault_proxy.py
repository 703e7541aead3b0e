"""A fault-injecting HTTP proxy for the CardDAV tests, on 127.0.0.1 and a free port.

Forwards every request to ``--upstream`` (a test server; uncompressed, so that a damaged body is
XML with wrong bytes) and answers some of them wrongly, each fault once, in the order the requests
arrive:
  --put-412       the first PUT is answered 412 Precondition Failed (not forwarded);
  --busy          the first request is answered 503 with Retry-After: 1 (not forwarded);
  --drop-report   the first REPORT's answer is cut off in the middle of its body;
  --garble-report the first REPORT's answer has its body's bytes damaged.
Prints ``PORT n`` once it listens and stops on ``quit`` (or end of input) on stdin. Written for this
project's tests.
"""

import argparse
import http.client
import socket
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    for fault in ["put-412", "busy", "drop-report", "garble-report"]:
        parser.add_argument("--" + fault, action="store_true")
    args = parser.parse_args()
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

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if take("busy"):
                return self.answer(503, b"busy", [("Retry-After", "1")])
            if self.command == "PUT" and take("put-412"):
                return self.answer(412, b"changed meanwhile")
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
            dropped = ("host", "connection", "accept-encoding")
            headers = {k: v for k, v in self.headers.items() if k.lower() not in dropped}
            connection.request(self.command, self.path, body=body, headers=headers)
            reply = connection.getresponse()
            data = reply.read()
            connection.close()
            passed = [(k, v) for k, v in reply.getheaders()
                      if k.lower() not in ("content-length", "transfer-encoding", "connection")]
            if self.command == "REPORT" and take("drop-report"):
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
