#!/usr/bin/env python3
"""check_eml.py: a strict validator for the .eml files that ContactsSelection writes.

Each message is judged three ways, and the three must agree:

  raw      octet-level rules checked here: CRLF only (RFC 5322 2.3), no NUL, lines of at most 998 octets
           (2.1.1), header field names and folding (2.2, 3.6), the single/required fields of 3.6,
           RFC 2047 encoded-words (length, charset, whole characters, never inside a quoted-string) and
           MIME structure (RFC 2045 6.7/6.8 line lengths, 7bit really 7-bit, RFC 2046 5.1.1 boundaries:
           present, at most 70 characters, every part delimited and the close delimiter written).
  strict   Python's `email` package with `policy.strict`: any defect the parser or a header parser finds
           raises and is an error.
  second   fast-mail-parser (an independent parser in Rust): subject, From/To/Cc addresses and the
           text/plain and text/html bodies must decode to the same values as Python's.

Usage:  check_eml.py [--json] [--allow-8bit-headers] FILE...
  --json                one JSON object per file and line: {"file", "errors", "warnings", "python"}
  --allow-8bit-headers  accept UTF-8 in header fields (messages for SMTPUTF8 servers, RFC 6532)
Exit status: 0 when no file has an error, 1 when one has, 2 on a usage error.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import sys
from dataclasses import dataclass, field
from email import policy
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser

try:
    import fast_mail_parser
except ImportError:  # reported per file: the second view is part of the contract
    fast_mail_parser = None

FIELD_NAME = re.compile(rb"[\x21-\x39\x3b-\x7e]+")  # RFC 5322 2.2: printable US-ASCII except ':'
ENCODED_WORD = re.compile(rb"=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=")
QUOTED_STRING = re.compile(rb'"(?:[^"\\\r\n]|\\.)*"')
AT_MOST_ONCE = (
    "date", "from", "sender", "reply-to", "to", "cc", "bcc", "message-id", "in-reply-to",
    "references", "subject", "mime-version", "content-type", "content-transfer-encoding",
)
# A Content-Type `name` parameter whose quoted value follows (RFC 2047 words in it are the fallback for
# readers without RFC 2231, as Thunderbird writes it; the file name proper is in Content-Disposition).
NAME_PARAMETER = re.compile(rb";\s*name\s*=\s*$", re.IGNORECASE)
# What Python's header parser notes about such a value, and nothing else is excused.
NAME_FALLBACK_DEFECTS = {"encoded word inside quoted string", "missing trailing whitespace after encoded-word"}
TRANSFER_ENCODINGS = {"7bit", "8bit", "binary", "quoted-printable", "base64"}


@dataclass
class Report:
    file: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    python: dict = field(default_factory=dict)

    def error(self, text: str) -> None:
        self.errors.append(text)

    def warn(self, text: str) -> None:
        self.warnings.append(text)


# --- raw octets -----------------------------------------------------------------------------------------

def split_lines(data: bytes, report: Report) -> list[bytes]:
    for m in re.finditer(rb"\r(?!\n)|(?<!\r)\n", data):
        line = data.count(b"\n", 0, m.start()) + 1
        kind = "CR" if m.group(0) == b"\r" else "LF"
        report.error(f"line {line}: bare {kind} (RFC 5322 2.3: CR and LF only together as CRLF)")
        break
    if b"\0" in data:
        line = data.count(b"\n", 0, data.index(b"\0")) + 1
        report.error(f"line {line}: NUL octet")
    lines = data.split(b"\r\n")
    for number, line in enumerate(lines, 1):
        if len(line) > 998:
            report.error(f"line {number}: {len(line)} octets (RFC 5322 2.1.1: at most 998)")
        elif len(line) > 78:
            report.warn(f"line {number}: {len(line)} octets (RFC 5322 2.1.1: should be at most 78)")
    return lines


def check_header(lines: list[bytes], allow_8bit: bool, report: Report) -> list[tuple[str, bytes, int]]:
    """Returns the header fields as (lower-case name, unfolded raw value, first line number)."""
    if b"" not in lines:
        report.error("no empty line between the header and the body")
        end = len(lines)
    else:
        end = lines.index(b"")
    fields: list[tuple[str, list[bytes], int]] = []
    for number, line in enumerate(lines[:end], 1):
        if not allow_8bit:
            bad = next((b for b in line if b > 0x7E or (b < 0x20 and b != 0x09)), None)
            if bad is not None:
                report.error(f"line {number}: octet 0x{bad:02X} in the header (RFC 5322 2.2; RFC 2047 needed)")
        if line[:1] in (b" ", b"\t"):
            if not fields:
                report.error(f"line {number}: folded line before the first field")
            elif not line.strip(b" \t"):
                report.error(f"line {number}: folded line of white space only (RFC 5322 3.2.2)")
            else:
                fields[-1][1].append(line)
            continue
        name, colon, value = line.partition(b":")
        if not colon or not FIELD_NAME.fullmatch(name):
            report.error(f"line {number}: expected 'name: value', found {line[:40]!r}")
            continue
        fields.append((name.decode("ascii").lower(), [value], number))
    unfolded = [(name, b"".join(parts), number) for name, parts, number in fields]
    names = [name for name, _, _ in unfolded]
    for name in AT_MOST_ONCE:
        if names.count(name) > 1:
            report.error(f"field '{name}' appears {names.count(name)} times (RFC 5322 3.6: at most once)")
    for name in ("date", "from"):
        if name not in names:
            report.error(f"field '{name}' missing (RFC 5322 3.6: required)")
    if "message-id" not in names:
        report.warn("no Message-ID (RFC 5322 3.6.4: should be present)")
    if "content-type" in names and "mime-version" not in names:
        report.error("Content-Type without MIME-Version (RFC 2045 4)")
    for name, value, number in unfolded:
        check_encoded_words(name, value, number, report)
    return unfolded


def decode_encoded_word(kind: bytes, text: bytes) -> bytes:
    if kind in b"Bb":
        return base64.b64decode(text, validate=True)
    return re.sub(rb"=([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), text.replace(b"_", b" "))


def check_encoded_words(name: str, value: bytes, number: int, report: Report) -> None:
    where = f"line {number}: {name}"
    for quoted in QUOTED_STRING.finditer(value):
        if name == "content-type" and NAME_PARAMETER.search(value[:quoted.start()]):
            continue  # the legacy `name` fallback, checked against the file name in check_name_fallback
        if ENCODED_WORD.search(quoted.group(0)):
            report.error(f"{where}: encoded-word inside a quoted-string (RFC 2047 5(3): never decoded)")
    for m in ENCODED_WORD.finditer(value):
        word = m.group(0)
        if len(word) > 75:
            report.error(f"{where}: encoded-word of {len(word)} characters (RFC 2047 2: at most 75)")
        charset = m.group(1).split(b"*", 1)[0].decode("ascii", "replace")  # RFC 2231 language suffix
        try:
            octets = decode_encoded_word(m.group(2), m.group(3))
        except (binascii.Error, ValueError):
            report.error(f"{where}: encoded-word {word[:40]!r} does not decode")
            continue
        try:
            octets.decode(charset)
        except LookupError:
            report.error(f"{where}: unknown charset {charset!r}")
        except UnicodeDecodeError:
            report.error(f"{where}: encoded-word {word[:40]!r} splits a character (RFC 2047 5)")


# --- MIME structure -------------------------------------------------------------------------------------

def check_parts(message: EmailMessage, report: Report) -> None:
    for index, part in enumerate(message.walk()):
        where = f"part {index} ({part.get_content_type()})"
        for defect in part.defects:
            report.error(f"{where}: {type(defect).__name__}: {defect}")
        excused = check_name_fallback(part, where, report)
        for key, value in part.items():
            for defect in getattr(value, "defects", ()):
                if key.lower() == "content-type" and excused and str(defect) in NAME_FALLBACK_DEFECTS:
                    continue
                report.error(f"{where}: field {key}: {type(defect).__name__}: {defect}")
        encoding = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
        if encoding not in TRANSFER_ENCODINGS:
            report.error(f"{where}: unknown Content-Transfer-Encoding {encoding!r} (RFC 2045 6.1)")
        if part.is_multipart():
            boundary = part.get_boundary()
            if boundary is None:
                report.error(f"{where}: multipart without a boundary parameter (RFC 2046 5.1.1)")
            elif not 1 <= len(boundary) <= 70:
                report.error(f"{where}: boundary of {len(boundary)} characters (RFC 2046 5.1.1: 1 to 70)")
            if encoding not in ("7bit", "8bit", "binary"):
                report.error(f"{where}: multipart encoded {encoding} (RFC 2045 6.4: identity encodings only)")
            continue
        payload = part.get_payload()
        raw = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
        if encoding in ("quoted-printable", "base64"):
            longest = max((len(line.rstrip(b"\r")) for line in raw.split(b"\n")), default=0)
            if longest > 76:
                report.error(f"{where}: {encoding} line of {longest} characters (RFC 2045 6.7/6.8: at most 76)")
        if encoding == "base64":
            try:
                base64.b64decode(re.sub(rb"\s", b"", raw), validate=True)
            except (binascii.Error, ValueError):
                report.error(f"{where}: base64 body does not decode")
        if encoding == "7bit" and any(b > 0x7F for b in raw):
            report.error(f"{where}: 8-bit octets in a part labelled 7bit")
        if part.get_content_maintype() == "text":
            decoded = part.get_payload(decode=True) or b""
            if part.get_param("charset") is None and any(b > 0x7F for b in decoded):
                report.error(f"{where}: non-ASCII text without a charset parameter")
            try:
                part.get_content()
            except (LookupError, UnicodeError) as e:
                report.error(f"{where}: text does not decode: {e}")


def check_name_fallback(part: EmailMessage, where: str, report: Report) -> bool:
    """A quoted `name` holding encoded-words must decode to the Content-Disposition file name; then
    (True) Python's notes about encoded-words in a quoted-string are excused for that field only."""
    raw = next((str(v) for k, v in part.raw_items() if k.lower() == "content-type"), "")
    if not re.search(r";\s*name\s*=\s*\"[^\"]*=\?", raw, re.IGNORECASE):
        return False
    disposition = part.get("Content-Disposition")
    filename = disposition.params.get("filename") if disposition is not None else None
    fallback = part.get("Content-Type").params.get("name")
    if filename is None:
        report.error(f"{where}: encoded-words in the name parameter without a Content-Disposition filename")
        return False
    if fallback != filename:
        report.error(f"{where}: name parameter {fallback!r} differs from the filename {filename!r}")
        return False
    return True


def check_delimiters(data: bytes, message: EmailMessage, report: Report) -> None:
    """Every multipart's boundary opens its parts and closes them (RFC 2046 5.1.1)."""
    for part in message.walk():
        boundary = part.get_boundary() if part.is_multipart() else None
        if not boundary:
            continue
        token = b"--" + boundary.encode("ascii", "replace")
        lines = data.split(b"\r\n")
        opens = sum(1 for line in lines if line.rstrip(b" \t") == token)
        closes = sum(1 for line in lines if line.rstrip(b" \t") == token + b"--")
        if opens != len(part.get_payload()):
            report.error(f"boundary {boundary!r}: {opens} delimiter lines for {len(part.get_payload())} parts")
        if closes != 1:
            report.error(f"boundary {boundary!r}: {closes} close delimiters (RFC 2046 5.1.1: exactly one)")


# --- the parsers' views ---------------------------------------------------------------------------------

def strict_parse(data: bytes, report: Report) -> None:
    try:
        message = BytesParser(policy=policy.strict).parsebytes(data)
        for part in message.walk():
            for key in part.keys():
                for value in part.get_all(key, []):
                    str(value)  # header parsing is lazy; strict raises on a defect here
    except (MessageError, ValueError, LookupError, UnicodeError) as e:
        report.error(f"email policy.strict: {type(e).__name__}: {e}")


def python_view(message: EmailMessage) -> dict:
    def addresses(name: str) -> list[list[str]]:
        value = message.get(name)
        return sorted([a.display_name, a.addr_spec] for a in value.addresses) if value is not None else []

    def body(subtype: str) -> str | None:
        part = message.get_body(preferencelist=(subtype,))
        if part is None or part.get_content_subtype() != subtype:
            return None
        return part.get_content().replace("\r\n", "\n")

    return {
        "subject": str(message.get("Subject", "")),
        "from": addresses("From"), "to": addresses("To"), "cc": addresses("Cc"),
        "plain": body("plain"), "html": body("html"),
        "message_id": str(message.get("Message-ID", "")).strip(), "date": str(message.get("Date", "")),
    }


def second_view(data: bytes, report: Report) -> dict | None:
    if fast_mail_parser is None:
        report.error("fast-mail-parser is not installed (make deps puts it into ./.venv)")
        return None
    try:
        parsed = fast_mail_parser.parse_email(data)
    except Exception as e:  # the extension raises its own ParseError type
        report.error(f"fast-mail-parser: {type(e).__name__}: {e}")
        return None
    for warning in parsed.warnings or []:
        report.warn(f"fast-mail-parser warning: {warning}")

    def addresses(value) -> list[list[str]]:
        items = value if isinstance(value, list) else ([] if value is None else [value])
        return sorted([a.display_name or "", a.address or ""] for a in items)

    def first(texts) -> str | None:
        return texts[0].replace("\r\n", "\n") if texts else None

    return {
        "subject": parsed.subject or "", "from": addresses(parsed.from_), "to": addresses(parsed.to),
        "cc": addresses(parsed.cc), "plain": first(parsed.text_plain), "html": first(parsed.text_html),
    }


def check(path: str, allow_8bit: bool = False) -> Report:
    report = Report(file=path)
    with open(path, "rb") as f:
        data = f.read()
    lines = split_lines(data, report)
    check_header(lines, allow_8bit, report)
    strict_parse(data, report)
    message = BytesParser(policy=policy.default).parsebytes(data)
    try:
        check_parts(message, report)
        check_delimiters(data, message, report)
        report.python = python_view(message)
    except (MessageError, ValueError, LookupError, UnicodeError, KeyError) as e:
        report.error(f"email: {type(e).__name__}: {e}")
    second = second_view(data, report)
    if second is not None and report.python:
        for key, value in second.items():
            if report.python.get(key) != value:
                report.error(f"parsers disagree on {key}: email={report.python.get(key)!r} "
                             f"fast-mail-parser={value!r}")
    return report


def main(argv: list[str]) -> int:
    options = {a for a in argv if a.startswith("--")}
    unknown = options - {"--json", "--allow-8bit-headers"}
    files = [a for a in argv if not a.startswith("--")]
    if unknown or not files:
        print(__doc__.split("Usage:", 1)[1].split("Exit", 1)[0].strip(), file=sys.stderr)
        return 2
    failed = 0
    for path in files:
        try:
            report = check(path, "--allow-8bit-headers" in options)
        except OSError as e:
            report = Report(file=path, errors=[f"cannot read: {e.strerror}"])
        failed += bool(report.errors)
        if "--json" in options:
            print(json.dumps(report.__dict__, ensure_ascii=False))
            continue
        print(f"{path}: {len(report.errors)} error(s), {len(report.warnings)} warning(s)")
        for text in report.errors:
            print(f"  error: {text}")
        for text in report.warnings:
            print(f"  warning: {text}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
