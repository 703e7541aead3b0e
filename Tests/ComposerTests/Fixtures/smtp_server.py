#!/usr/bin/env python3
"""SMTP test server for the Composer tests (aiosmtpd on 127.0.0.1, a free port).

Every accepted message is stored as <mailbox>/<n>.eml plus <n>.json (envelope, auth mechanism, TLS).
Commands on stdin, one per line, each answered by one line on stdout starting with "OK":
  tempfail CODE N     answer CODE at MAIL FROM for the next N transactions (e.g. 421, 451)
  datafail CODE N     answer CODE after DATA for the next N transactions
  reject ADDR CODE    answer CODE at RCPT TO for ADDR (e.g. 550)
  stopafter N         stop listening after N more accepted messages
  stop | start        stop / restart the listener (same port)
  count               number of accepted messages
  quit
Options: --mailbox DIR [--mode plain|smtps|starttls] [--require-starttls] [--cert F --key F] [--auth USER:PASS]
         [--size-limit BYTES] (announced as SIZE in EHLO; larger messages get 552)
"""
import argparse, asyncio, json, os, socket, ssl, sys, threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

ap = argparse.ArgumentParser()
ap.add_argument("--mailbox", required=True)
ap.add_argument("--mode", default="plain")
ap.add_argument("--require-starttls", action="store_true")
ap.add_argument("--cert")
ap.add_argument("--key")
ap.add_argument("--auth")
ap.add_argument("--size-limit", type=int)
args = ap.parse_args()

lock = threading.Lock()
state = {"accepted": 0, "tempfail": [None, 0], "datafail": [None, 0], "reject": {}, "stopafter": None}
controller = None


def reply(code):
    return {421: "421 4.3.2 Service shutting down, try later", 451: "451 4.3.0 Temporary failure, try later",
            450: "450 4.2.1 Mailbox busy", 550: "550 5.1.1 No such user here",
            554: "554 5.7.1 Rejected"}.get(code, f"{code} test reply")


class Handler:
    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        with lock:
            code, n = state["tempfail"]
            if n > 0:
                state["tempfail"][1] -= 1
                return reply(code)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with lock:
            code = state["reject"].get(address.lower())
        if code:
            return reply(code)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with lock:
            code, n = state["datafail"]
            if n > 0:
                state["datafail"][1] -= 1
                return reply(code)
            state["accepted"] += 1
            seq = state["accepted"]
            stop_now = state["stopafter"] is not None and seq >= state["stopafter"]
        base = os.path.join(args.mailbox, f"{seq:06d}")
        with open(base + ".eml", "wb") as f:
            f.write(envelope.original_content or envelope.content)
        meta = {"from": envelope.mail_from, "to": envelope.rcpt_tos,
                "auth": bool(session.authenticated),
                "tls": bool(session.ssl) or server.transport.get_extra_info("ssl_object") is not None}
        # The .json file is what the tests list: it appears whole (written aside, then renamed), after
        # the .eml it describes, so a test polling the mailbox never reads half a record.
        with open(base + ".json.part", "w") as f:
            json.dump(meta, f)
        os.rename(base + ".json.part", base + ".json")
        if stop_now:
            state["stopafter"] = None
            threading.Thread(target=stop, daemon=True).start()
        return "250 Message accepted for delivery"


def authenticator(server, session, envelope, mechanism, auth_data):
    user, _, password = args.auth.partition(":")
    ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password
    if ok:
        with open(os.path.join(args.mailbox, "auth.log"), "a") as f:
            f.write(mechanism + "\n")
    return AuthResult(success=ok, handled=False)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


PORT = free_port()


def make_context():
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(args.cert, args.key)
    return ctx


def start():
    global controller
    kwargs = dict(hostname="127.0.0.1", port=PORT, server_hostname="localhost")
    if args.mode == "smtps":
        kwargs["ssl_context"] = make_context()
    elif args.mode == "starttls":
        kwargs["tls_context"] = make_context()
        kwargs["require_starttls"] = args.require_starttls
    if args.auth:
        kwargs["authenticator"] = authenticator
        # implicit TLS (smtps) is not seen by aiosmtpd's auth_require_tls, which only knows STARTTLS
        kwargs["auth_require_tls"] = args.mode == "starttls"
        kwargs["auth_required"] = True
    if args.size_limit:
        kwargs["data_size_limit"] = args.size_limit
    controller = Controller(Handler(), **kwargs)
    controller.start()


def stop():
    global controller
    with lock:
        c, controller = controller, None
    if c is not None:
        c.stop()


os.makedirs(args.mailbox, exist_ok=True)
start()
print(f"PORT {PORT}", flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    with lock:
        if cmd == "tempfail":
            state["tempfail"] = [int(words[1]), int(words[2])]
        elif cmd == "datafail":
            state["datafail"] = [int(words[1]), int(words[2])]
        elif cmd == "reject":
            state["reject"][words[1].lower()] = int(words[2])
        elif cmd == "stopafter":
            state["stopafter"] = state["accepted"] + int(words[1])
    if cmd == "stop":
        stop()
    elif cmd == "start":
        start()
    elif cmd == "quit":
        stop()
        print("OK", flush=True)
        break
    print(f"OK {state['accepted']}", flush=True)
