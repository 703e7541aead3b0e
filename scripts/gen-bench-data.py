#!/usr/bin/env python3
"""Generates the inputs of the whole-process benchmarks (`make bench BENCH_ARGS=process`), deterministically.

  gen-bench-data.py vcf COUNT OUT.vcf           vCard 3.0 address book: names in many scripts (Latin, Cyrillic,
                                                Greek, CJK, Hangul, Arabic, Hebrew, Thai, Devanagari), one or two
                                                phones (international and national forms) and emails per card
  gen-bench-data.py xcstrings MEGABYTES DIR     DIR/Localizable.xcstrings: keys x 19 languages (some plural)
  gen-bench-data.py strings MEGABYTES DIR       DIR/en.lproj/Localizable.strings + DIR/de.lproj/Localizable.strings,
                                                together about MEGABYTES

Every person, number and address is invented: emails use example.com/.org/.net; numbers are random digits.
The same arguments always give the same bytes (fixed seeds).
"""
import json
import os
import random
import sys

GIVEN = {
    "latin": ["Anna", "Olivia", "Liam", "Noah", "Emma", "Lucas", "Mia", "Ethan", "Sofia", "Mateo", "Hélène", "François",
              "Jürgen", "Björn", "Łukasz", "Zoë", "José", "María", "Ángel", "Çağlar", "Søren", "Åsa", "Nguyễn Văn",
              "Annika", "Pietro", "Giulia", "Chloé", "Jiří", "Ayşe", "Linnéa", "Maria", "Garcia", "Felipe", "Bruno"],
    "cyrillic": ["Иван", "Мария", "Алексей", "Наталья", "Дмитрий", "Ольга", "Анна", "Богдан", "Ірина", "Сергей"],
    "greek": ["Γιώργος", "Ελένη", "Νίκος", "Μαρία", "Δημήτρης", "Κατερίνα"],
    "han": ["伟", "芳", "娜", "敏", "静", "磊", "洋", "艳", "志明", "淑芬", "家豪", "美玲"],
    "japanese": ["太郎", "花子", "健一", "美咲", "さくら", "ひろし", "ユウキ"],
    "hangul": ["민준", "서연", "도윤", "지우", "하준", "서윤"],
    "arabic": ["محمد", "فاطمة", "أحمد", "ليلى", "عمر", "نور"],
    "hebrew": ["נועה", "דוד", "מיכל", "יוסף"],
    "thai": ["สมชาย", "สมหญิง", "ประเสริฐ", "วิไล"],
    "devanagari": ["आरव", "अनन्या", "विहान", "दिया"],
}
FAMILY = {
    "latin": ["Smith", "Johnson", "García", "Müller", "Dubois", "Rossi", "Nowak", "Kowalczyk", "Lefèvre", "Schäfer",
              "Núñez", "Öztürk", "Ångström", "Dvořák", "Baytelman", "Finstein", "Nguyen", "Anderson", "Østergaard"],
    "cyrillic": ["Петров", "Иванова", "Смирнов", "Кузнецова", "Шевченко", "Коваленко"],
    "greek": ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Νικολάου"],
    "han": ["王", "李", "张", "刘", "陈", "杨", "黄", "林"],
    "japanese": ["山田", "佐藤", "鈴木", "高橋", "たなか", "ワタナベ"],
    "hangul": ["김", "이", "박", "최", "정"],
    "arabic": ["العلي", "حداد", "الخطيب", "منصور"],
    "hebrew": ["כהן", "לוי", "מזרחי", "פרץ"],
    "thai": ["ใจดี", "ศรีสุข", "บุญมา"],
    "devanagari": ["शर्मा", "वर्मा", "गुप्ता", "सिंह"],
}
# Weights: mostly Latin, as in a typical European/American address book, every script present.
SCRIPTS = [("latin", 60), ("cyrillic", 8), ("greek", 3), ("han", 10), ("japanese", 6), ("hangul", 4),
           ("arabic", 4), ("hebrew", 2), ("thai", 1), ("devanagari", 2)]
ROMAN = "abcdefghijklmnopqrstuvwxyz"
ORGS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Tyrell", "Cyberdyne"]


def pick_script(rng):
    r = rng.randrange(100)
    for name, w in SCRIPTS:
        if r < w:
            return name
        r -= w
    return "latin"


def phone(rng):
    """A random number in international or national form (default region US for national ones)."""
    d = lambda n: "".join(rng.choice("0123456789") for _ in range(n))
    k = rng.randrange(12)
    if k == 0:
        return f"({rng.randrange(201, 990)}) {rng.randrange(200, 999)}-{d(4)}"
    if k == 1:
        return f"{rng.randrange(201, 990)}-{rng.randrange(200, 999)}-{d(4)}"
    if k == 2:
        return f"+1 {rng.randrange(201, 990)}-{rng.randrange(200, 999)}-{d(4)}"
    if k == 3:
        return f"+44 7{d(3)} {d(6)}"
    if k == 4:
        return f"+49 {rng.choice(['30', '40', '89', '151', '170'])} {d(7)}"
    if k == 5:
        return f"+33 {rng.randrange(1, 8)} {d(2)} {d(2)} {d(2)} {d(2)}"
    if k == 6:
        return f"+81 {rng.choice(['3', '6', '90', '80'])}-{d(4)}-{d(4)}"
    if k == 7:
        return f"+86 1{rng.randrange(30, 90)} {d(4)} {d(4)}"
    if k == 8:
        return f"+7 9{d(2)} {d(3)}-{d(2)}-{d(2)}"
    if k == 9:
        return f"+61 4{d(2)} {d(3)} {d(3)}"
    if k == 10:
        return f"+{rng.choice(['34', '39', '31', '46', '48', '82', '52', '55', '91'])} {d(rng.randrange(8, 11))}"
    return f"+{rng.randrange(1, 999)} {d(rng.randrange(5, 13))}"


def fold(line):
    b = line.encode()
    if len(b) <= 75:
        return line
    out, limit = [], 75
    while len(b) > limit:
        cut = limit
        while cut > 0 and (b[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append(b[:cut])
        b = b[cut:]
        limit = 74
    out.append(b)
    return b"\r\n ".join(out).decode()


def esc(s):
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")


def gen_vcf(count, out_path):
    rng = random.Random(20261201)
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        buf = []
        for i in range(count):
            script = pick_script(rng)
            given = rng.choice(GIVEN[script])
            family = rng.choice(FAMILY[script])
            stem = "".join(rng.choice(ROMAN) for _ in range(rng.randrange(4, 9)))
            lines = ["BEGIN:VCARD", "VERSION:3.0", f"UID:bench-{i:08d}-{rng.getrandbits(48):012x}",
                     f"N:{esc(family)};{esc(given)};;;", f"FN:{esc(given)} {esc(family)}"]
            if rng.random() < 0.4:
                lines.append(f"ORG:{rng.choice(ORGS)} {rng.randrange(1000)}")
            for _ in range(rng.randrange(1, 3)):
                lines.append(f"TEL;TYPE={rng.choice(['CELL', 'HOME', 'WORK'])},VOICE:{phone(rng)}")
            for k in range(rng.randrange(1, 3)):
                domain = ['example.com', 'example.org', 'example.net'][(i + k) % 3]
                lines.append(f"EMAIL;TYPE=INTERNET,{'HOME' if k == 0 else 'WORK'}:{stem}.{i}@{domain}")
            lines.append(f"TITLE:{rng.choice(['Engineer', 'Manager', 'Designer', 'Analyst'])} {rng.choice(ORGS)}")
            lines.append(f"BDAY:{rng.randrange(1950, 2005)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}")
            lines.append(f"URL:https://www.example.org/people/{stem}-{i}")
            lines.append(f"CATEGORIES:{rng.choice(['Friends', 'Work', 'Family', 'Club'])}")
            lines.append(f"ADR;TYPE=WORK:;;{rng.randrange(1, 999)} {rng.choice(FAMILY['latin'])} Avenue;"
                         f"{rng.choice(['Springfield', 'Riverton', 'Lakeside', 'Hillview'])};;{rng.randrange(10000, 99999)};")
            lines.append(f"ADR;TYPE=HOME:;;{rng.randrange(1, 999)} {rng.choice(FAMILY['latin'])} Street;"
                         f"{rng.choice(['Springfield', 'Riverton', 'Lakeside', 'Hillview'])};;{rng.randrange(10000, 99999)};")
            if rng.random() < 0.9:
                lines.append(f"NOTE:Met at the {rng.choice(['conference', 'workshop', 'meetup'])} in "
                             f"{rng.randrange(2000, 2026)}\\, follow up about project {rng.randrange(10000)}.")
            lines.append(f"REV:{rng.randrange(2015, 2026)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T10:00:00Z")
            lines.append("END:VCARD")
            buf.append("\r\n".join(fold(l) for l in lines) + "\r\n")
            if len(buf) >= 10000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
    os.replace(tmp, out_path)


LANGS = ["en", "ar", "de", "es", "fr", "he", "hi", "it", "ja", "ko", "nl", "pl", "pt-BR", "ru", "sv", "th", "tr",
         "zh-Hans", "zh-Hant"]
WORDS = ["contact", "message", "select", "cancel", "search", "invite", "group", "phone", "email", "send", "draft",
         "address", "book", "name", "list", "done", "share", "open", "close", "delete"]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize()


def gen_xcstrings(megabytes, folder):
    rng = random.Random(733)
    os.makedirs(folder, exist_ok=True)
    target = int(megabytes * 1024 * 1024)
    strings = {}
    size = 0
    i = 0
    while size < target:
        key = f"{sentence(rng, rng.randrange(2, 6))} {i}" + (" %@" if i % 3 == 0 else "")
        locs = {}
        for lang in LANGS:
            text = f"[{lang}] {key}"
            if i % 17 == 0:
                locs[lang] = {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": f"%lld {text}"}},
                    "other": {"stringUnit": {"state": "translated", "value": f"%lld {text}s"}}}}}
            else:
                state = "translated" if (i + len(lang)) % 29 else "needs_review"
                locs[lang] = {"stringUnit": {"state": state, "value": text}}
        entry = {"comment": f"Shown in {rng.choice(WORDS)} view", "localizations": locs}
        strings[key] = entry
        size += len(json.dumps({key: entry}, ensure_ascii=False, indent=2)) * 12 // 10  # Xcode's layout
        i += 1
    doc = {"sourceLanguage": "en", "strings": dict(sorted(strings.items(), key=lambda kv: kv[0].lower())),
           "version": "1.0"}
    text = json.dumps(doc, ensure_ascii=False, indent=2, separators=(",", " : "))
    with open(os.path.join(folder, "Localizable.xcstrings"), "w", encoding="utf-8") as f:
        f.write(text + "\n")


def gen_strings(megabytes, folder):
    rng = random.Random(1999)
    target = int(megabytes * 1024 * 1024) // 2
    keys = []
    size = 0
    i = 0
    while size < target:
        key = f"{sentence(rng, rng.randrange(2, 6))} {i}" + (" %@" if i % 3 == 0 else "")
        comment = f"Shown in the {rng.choice(WORDS)} view."
        keys.append((key, comment))
        size += len(key) * 2 + len(comment) + 16
        i += 1
    for lang in ["en", "de"]:
        os.makedirs(os.path.join(folder, f"{lang}.lproj"), exist_ok=True)
        with open(os.path.join(folder, f"{lang}.lproj", "Localizable.strings"), "w", encoding="utf-8") as f:
            out = []
            for n, (key, comment) in enumerate(keys):
                value = key if lang == "en" else f"{key} (de)"
                if lang == "de" and n % 50 == 7:
                    continue  # missing in German
                out.append(f'/* {comment} */\n"{key}" = "{value}";\n\n')
            f.write("".join(out))


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("vcf", "xcstrings", "strings"):
        sys.exit(__doc__)
    kind, amount, out = sys.argv[1], sys.argv[2], sys.argv[3]
    if kind == "vcf":
        gen_vcf(int(amount), out)
    elif kind == "xcstrings":
        gen_xcstrings(float(amount), out)
    else:
        gen_strings(float(amount), out)


if __name__ == "__main__":
    main()
