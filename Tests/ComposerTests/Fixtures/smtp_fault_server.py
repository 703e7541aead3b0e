#!/usr/bin/env python3
"""SMTP fault server for the delivery tests (plain asyncio, standard library only; written for this project).

Listens on 127.0.0.1 on a free port (or --port N) and prints "PORT <n>". Every message it stores is appended as one JSON
line to --record: {"message_id", "from", "to", "fault", "connection"}. It exits on "quit" or EOF on stdin.

--faults FILE is a JSON object:
  {"recipients": {"addr@example.com": ["drop_after_store", ...], ...}, "connect421": [1, 4, ...]}
Each transaction takes the next fault of each of its recipients (at RCPT time); a recipient whose list is
used up is served normally. Permanent faults (rcpt550, data554) stay for every later transaction.
  rcpt550 / rcpt451    that reply to RCPT TO
  data451 / data554    that reply after the final ".", message not stored
  drop_mid_data        the connection is closed after the first line of data: not stored
  drop_after_store     the message is stored, then the connection closed before the reply
  slow_reply           stored, the 250 comes after --slow seconds (later than the client waits)
  slow_ok              stored, the 250 comes after --slow-ok seconds (the client waits long enough)
connect421 lists connection numbers (1 = the first) that are greeted with 421 and closed.

--size N advertises "SIZE N" in the EHLO reply (RFC 1870) and refuses with 552 a MAIL FROM that declares
SIZE=n > N and a message whose data is larger than N. --log FILE appends every command line received (not
the message data), one a line, for tests that check what was (not) offered to the server.
"""
import argparse
import asyncio
import json
import sys
import threading

ap = argparse.ArgumentParser()
ap.add_argument("--record", required=True)
ap.add_argument("--faults")
ap.add_argument("--slow", type=float, default=3.0)
ap.add_argument("--slow-ok", type=float, default=0.3)
ap.add_argument("--port", type=int, default=0)
ap.add_argument("--size", type=int)
ap.add_argument("--log")
args = ap.parse_args()

faults = {"recipients": {}, "connect421": []}
if args.faults:
    with open(args.faults) as f:
        faults.update(json.load(f))
pending = {addr.lower(): list(items) for addr, items in faults["recipients"].items()}
connect421 = set(faults["connect421"])
STICKY = {"rcpt550", "data554"}
state = {"connections": 0, "stored": 0}
record = open(args.record, "a", buffering=1)
log = open(args.log, "a", buffering=1) if args.log else None


def take_fault(address):
    items = pending.get(address.lower())
    if not items:
        return None
    return items[0] if items[0] in STICKY else items.pop(0)


def message_id(content):
    headers, _, _ = content.partition(b"\r\n\r\n")
    unfolded = headers.replace(b"\r\n ", b" ").replace(b"\r\n\t", b" ")
    for line in unfolded.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"message-id":
            return value.strip().decode("utf-8", "replace")
    return None


def store(mail_from, rcpts, content, fault, connection):
    state["stored"] += 1
    record.write(json.dumps({"message_id": message_id(content), "from": mail_from, "to": rcpts,
                             "fault": fault, "connection": connection}) + "\n")
    record.flush()


async def reply(writer, line):
    writer.write(line.encode() + b"\r\n")
    await writer.drain()


def address_of(arg):
    start, end = arg.find("<"), arg.find(">")
    return arg[start + 1:end] if start >= 0 and end > start else arg.split(":", 1)[-1].strip()


async def session(reader, writer):
    state["connections"] += 1
    connection = state["connections"]
    try:
        if connection in connect421:
            await reply(writer, "421 4.3.2 Service not available, closing connection")
            return
        await reply(writer, "220 localhost fault server ready")
        mail_from, rcpts, fault = None, [], None
        while True:
            line = await reader.readline()
            if not line:
                return
            command = line.decode("utf-8", "replace").strip()
            if log:
                log.write(command + "\n")
            verb, _, rest = command.partition(" ")
            verb = verb.upper()
            if verb in ("EHLO", "HELO"):
                size = f"\r\n250-SIZE {args.size}" if args.size is not None else ""
                await reply(writer, f"250-localhost{size}\r\n250 8BITMIME" if verb == "EHLO" else "250 localhost")
            elif verb == "MAIL":
                declared = [p for p in rest.split() if p.upper().startswith("SIZE=")]
                if args.size and declared and int(declared[0][5:]) > args.size:
                    await reply(writer, "552 5.3.4 Message size exceeds fixed maximum message size")
                    continue
                mail_from, rcpts, fault = address_of(rest), [], None
                await reply(writer, "250 2.1.0 OK")
            elif verb == "RCPT":
                address = address_of(rest)
                f = take_fault(address)
                if f == "rcpt550":
                    await reply(writer, "550 5.1.1 No such user here")
                elif f == "rcpt451":
                    await reply(writer, "451 4.3.0 Temporary failure at RCPT, try later")
                else:
                    rcpts.append(address)
                    fault = fault or f
                    await reply(writer, "250 2.1.5 OK")
            elif verb == "DATA":
                if not rcpts:
                    await reply(writer, "503 5.5.1 No valid recipients")
                    continue
                await reply(writer, "354 End data with <CR><LF>.<CR><LF>")
                if fault == "drop_mid_data":
                    await reader.readline()
                    writer.transport.abort()
                    return
                lines = []
                while True:
                    data = await reader.readline()
                    if not data:
                        return
                    if data == b".\r\n":
                        break
                    lines.append(data[1:] if data.startswith(b".") else data)
                content = b"".join(lines)
                if args.size and len(content) > args.size:
                    await reply(writer, "552 5.3.4 Message size exceeds fixed maximum message size")
                elif fault == "data451":
                    await reply(writer, "451 4.3.0 Temporary failure after data, try later")
                elif fault == "data554":
                    await reply(writer, "554 5.7.1 Message rejected")
                else:
                    store(mail_from, rcpts, content, fault, connection)
                    if fault == "drop_after_store":
                        writer.transport.abort()
                        return
                    if fault in ("slow_reply", "slow_ok"):
                        await asyncio.sleep(args.slow if fault == "slow_reply" else args.slow_ok)
                    await reply(writer, "250 2.0.0 Stored")
                mail_from, rcpts, fault = None, [], None
            elif verb == "RSET":
                mail_from, rcpts, fault = None, [], None
                await reply(writer, "250 2.0.0 OK")
            elif verb == "NOOP":
                await reply(writer, "250 2.0.0 OK")
            elif verb == "QUIT":
                await reply(writer, "221 2.0.0 Bye")
                return
            else:
                await reply(writer, "502 5.5.2 Command not implemented")
    except (ConnectionError, asyncio.IncompleteReadError, OSError):
        return
    finally:
        try:
            writer.close()
        except Exception:
            pass


async def main():
    server = await asyncio.start_server(session, "127.0.0.1", args.port, limit=1 << 20)
    port = server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)
    loop = asyncio.get_running_loop()
    done = loop.create_future()

    def watch_stdin():
        for line in sys.stdin:
            if line.strip() == "quit":
                break
        loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

    threading.Thread(target=watch_stdin, daemon=True).start()
    await done
    server.close()


asyncio.run(main())
record.close()
