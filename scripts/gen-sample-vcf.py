#!/usr/bin/env python3
"""Generates Sources/ContactsCore/Resources/sample.vcf: ~300 fictional contacts in many scripts.

Deterministic (fixed seed). Every person, address and organization is invented; emails use example.com/.org/.net
and phone numbers come from ranges reserved for fiction (US 555-01xx, UK 07700 900xxx / 020 7946 0xxx,
AU 0491 570 xxx, FR 01 99 00 xx xx). Run: python3 scripts/gen-sample-vcf.py > Sources/ContactsCore/Resources/sample.vcf
"""
import base64, random, sys, uuid, zlib, struct

rng = random.Random(20240611)

def png(r, g, b):
    """A 2x2 single-colour PNG."""
    raw = b"".join(b"\x00" + bytes([r, g, b]) * 2 for _ in range(2))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def esc(s):
    return s.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;").replace("\n", "\\n")

def fold(line):
    out, b = [], line.encode()
    limit = 75
    while len(b) > limit:
        cut = limit
        while cut > 0 and (b[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append(b[:cut]); b = b[cut:]; limit = 74
    out.append(b)
    return b"\r\n ".join(out).decode()

def uid():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))

def us_phone():
    return rng.choice(["(415)", "(212)", "(617)", "(312)", "(206)"]) + f" 555-01{rng.randrange(100):02d}"

def phone_for(region):
    n = rng.randrange(1000)
    return {
        "US": us_phone(),
        "GB": f"+44 7700 900{n:03d}" if rng.random() < .5 else f"+44 20 7946 0{n:03d}",
        "AU": f"+61 491 570 {rng.randrange(110, 160)}",
        "FR": f"+33 1 99 00 {rng.randrange(100):02d} {rng.randrange(100):02d}",
    }[region]

# (script tag, language, [(given, family, phonetic given, phonetic family)], email stem romanization, region)
PEOPLE = {
    "en": (["Olivia", "Liam", "Amelia", "Noah", "Ava", "Ethan", "Harper", "Mason", "Evelyn", "Logan", "Abigail",
            "Lucas", "Emily", "Jackson", "Ella", "Aiden", "Scarlett", "Carter", "Grace", "Wyatt"],
           ["Smith", "Johnson", "Brown", "Taylor", "Anderson", "Thomas", "Moore", "Martin", "Jackson", "White",
            "Harris", "Clark", "Lewis", "Walker", "Young", "King", "Wright", "Scott", "Green", "Baker"], "US"),
    "fr": (["Élodie", "François", "Chloé", "Gaëlle", "Jérôme", "Anaïs", "Loïc", "Hélène", "Noël", "Cécile"],
           ["Lefèvre", "Dubois", "Moreau", "Girard", "Bérenger", "Fournier", "Rousseau", "Lemaître", "Faure", "Chevalier"], "FR"),
    "de": (["Jürgen", "Käthe", "Björn", "Müge", "Uwe", "Lötte", "Sören", "Grete", "Jörg", "Anneliese"],
           ["Müller", "Schäfer", "Größer", "Weiß", "Köhler", "Bäcker", "Schröder", "Krüger", "Hoffmann", "Vogel"], "GB"),
    "es": (["José", "María", "Ángel", "Lucía", "Íñigo", "Begoña", "Martín", "Sofía"],
           ["Núñez", "Ibáñez", "García", "Peña", "Muñoz", "Álvarez", "Jiménez", "Castaño"], "US"),
    "pl": (["Łukasz", "Małgorzata", "Wojciech", "Zofia", "Paweł"], ["Wiśniewski", "Kowalczyk", "Żółkiewska", "Lewandowski", "Dąbrowska"], "GB"),
    "cs": (["Jiří", "Kateřina", "Tomáš", "Zdeňka"], ["Dvořák", "Černá", "Procházka", "Růžičková"], "GB"),
    "vi": (["Nguyễn Văn", "Trần Thị", "Lê Minh", "Phạm Thu", "Hoàng Đức"], ["An", "Bích", "Khoa", "Hương", "Dũng"], "AU"),
    "tr": (["Çağlar", "Gülşen", "Şükrü", "Ayşe", "İlker"], ["Yıldız", "Öztürk", "Çelik", "Şahin", "Aydın"], "GB"),
    "sv": (["Åsa", "Örjan", "Linnéa", "Søren", "Ærin"], ["Ångström", "Sjögren", "Nyström", "Østergaard", "Læssøe"], "GB"),
    "ru": (["Иван", "Мария", "Алексей", "Наталья", "Дмитрий", "Ольга", "Сергей", "Екатерина"],
           ["Петров", "Иванова", "Смирнов", "Кузнецова", "Попов", "Соколова", "Лебедев", "Новикова"], "GB"),
    "uk": (["Олександр", "Ганна", "Богдан", "Ірина"], ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко"], "GB"),
    "el": (["Γιώργος", "Ελένη", "Νίκος", "Μαρία", "Δημήτρης", "Κατερίνα"], ["Παπαδόπουλος", "Οικονόμου", "Γεωργίου", "Νικολάου", "Αντωνίου", "Μακρής"], "GB"),
    "ar": (["محمد", "فاطمة", "أحمد", "ليلى", "عمر", "نور", "يوسف", "مريم"], ["العلي", "حداد", "الخطيب", "منصور", "سعيد", "الحسيني", "ناصر", "عباس"], "GB"),
    "he": (["נועה", "דוד", "מיכל", "יוסף", "שירה", "אבי"], ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם"], "GB"),
    "zh-Hans": (["伟", "芳", "娜", "敏", "静", "磊", "洋", "艳", "勇", "杰"], ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周"], "AU"),
    "zh-Hant": (["志明", "淑芬", "家豪", "美玲", "俊傑", "雅婷"], ["陳", "林", "黃", "張", "李", "王"], "AU"),
    "ko": (["민준", "서연", "도윤", "지우", "하준", "서윤", "시우"], ["김", "이", "박", "최", "정", "강", "조"], "US"),
    "th": (["สมชาย", "สมหญิง", "ประเสริฐ", "วิไล", "อนันต์"], ["ใจดี", "ศรีสุข", "บุญมา", "แก้วมณี", "ทองดี"], "AU"),
    "hi": (["आरव", "अनन्या", "विहान", "दिया", "अर्जुन", "सान्वी"], ["शर्मा", "वर्मा", "गुप्ता", "सिंह", "पटेल", "मेहता"], "GB"),
}
# Japanese: (given, family, given reading, family reading, romaji)
JAPANESE = [("太郎", "山田", "たろう", "やまだ", "taro.yamada"), ("花子", "佐藤", "はなこ", "さとう", "hanako.sato"),
            ("健一", "鈴木", "けんいち", "すずき", "kenichi.suzuki"), ("美咲", "高橋", "みさき", "たかはし", "misaki.takahashi"),
            ("翔", "田中", "しょう", "たなか", "sho.tanaka"), ("さくら", "伊藤", "さくら", "いとう", "sakura.ito"),
            ("大輔", "渡辺", "だいすけ", "わたなべ", "daisuke.watanabe"), ("愛", "中村", "あい", "なかむら", "ai.nakamura"),
            ("拓也", "小林", "たくや", "こばやし", "takuya.kobayashi"), ("陽菜", "加藤", "ひな", "かとう", "hina.kato"),
            ("蓮", "吉田", "れん", "よしだ", "ren.yoshida"), ("結衣", "山本", "ゆい", "やまもと", "yui.yamamoto"),
            ("悠斗", "松本", "ゆうと", "まつもと", "yuto.matsumoto"), ("葵", "井上", "あおい", "いのうえ", "aoi.inoue"),
            ("颯太", "木村", "そうた", "きむら", "sota.kimura"), ("凛", "林", "りん", "はやし", "rin.hayashi"),
            ("一郎", "斎藤", "いちろう", "さいとう", "ichiro.saito"), ("真央", "清水", "まお", "しみず", "mao.shimizu"),
            ("浩", "山口", "ひろし", "やまぐち", "hiroshi.yamaguchi"), ("彩", "森", "あや", "もり", "aya.mori")]
CHINESE_PINYIN = {"王": "Wang", "李": "Li", "张": "Zhang", "刘": "Liu", "陈": "Chen", "杨": "Yang", "黄": "Huang",
                  "赵": "Zhao", "吴": "Wu", "周": "Zhou"}
COUNTS = {"en": 60, "fr": 14, "de": 12, "es": 10, "pl": 6, "cs": 4, "vi": 6, "tr": 5, "sv": 5, "ru": 14, "uk": 6,
          "el": 12, "ar": 15, "he": 12, "zh-Hans": 20, "zh-Hant": 12, "ko": 15, "th": 10, "hi": 12}
ORGS = ["Example Widgets", "Acme Example Ltd", "Northwind Example", "Example Bakery", "Fabrikam Example", "Example University",
        "Contoso Example", "Example Clinic", "Blue Harbor Example", "Example Studio"]
TITLES = ["Engineer", "Designer", "Teacher", "Nurse", "Accountant", "Chef", "Translator", "Architect", "Pharmacist", "Manager"]
NICKS = {"en": ["Liv", "Mase", "Evie", "Abby", "Scottie"], "fr": ["Lolo", "Cécé"], "de": ["Jöggi"], "es": ["Pepe", "Lucy"],
         "ru": ["Ваня", "Маша"], "el": ["Γιωργάκης"], "ar": ["أبو علي"], "he": ["דודו"], "zh-Hans": ["小王", "阿芳"],
         "zh-Hant": ["阿明"], "ko": ["민이"], "th": ["ต้น", "ฝน"], "hi": ["आरू"]}
CITIES = {"US": ("Springfield", "IL", "62701", "USA"), "GB": ("London", "", "SW1A 1AA", "United Kingdom"),
          "AU": ("Sydney", "NSW", "2000", "Australia"), "FR": ("Paris", "", "75001", "France")}
CATEGORY_CHOICES = ["Friends", "Family", "Work", "Book club", "Neighbours"]

cards = []      # (uid, lines)
people = []     # uids for groups

def card(lines, uid_):
    cards.append((uid_, lines))
    people.append(uid_)

def email_stem(lang, given, family, i):
    if lang in ("en", "fr", "de", "es", "pl", "cs", "tr", "sv", "vi"):
        import unicodedata
        s = unicodedata.normalize("NFKD", f"{given}.{family}".lower().replace(" ", ""))
        s = "".join(ch for ch in s if ch.isascii())
        return s.replace("ł", "l")
    return f"contact{i:03d}"

counter = 0
photo_colors = [(200, 40, 40), (40, 160, 60), (40, 80, 200), (220, 180, 30)]
for lang, (givens, families, region) in PEOPLE.items():
    for k in range(COUNTS[lang]):
        counter += 1
        given = givens[k % len(givens)]
        family = families[(k * 3 + k // len(givens)) % len(families)]
        u = uid()
        rtl_or_eastern = lang in ("zh-Hans", "zh-Hant", "ko", "vi")
        fn = f"{family}{given}" if lang in ("zh-Hans", "zh-Hant", "ko") else (f"{family} {given}" if rtl_or_eastern else f"{given} {family}")
        lines = ["VERSION:4.0", f"UID:urn:uuid:{u}", "FN:" + esc(fn), f"N:{esc(family)};{esc(given)};;;"]
        if lang == "zh-Hans" and family in CHINESE_PINYIN:
            lines.append("X-PHONETIC-LAST-NAME:" + CHINESE_PINYIN[family])
        if lang in NICKS and k < len(NICKS[lang]):
            lines.append("NICKNAME:" + esc(NICKS[lang][k]))
        if rng.random() < .35:
            lines.append(f"ORG:{esc(rng.choice(ORGS))}")
            lines.append(f"TITLE:{esc(rng.choice(TITLES))}")
        stem = email_stem(lang, given, family, counter)
        lines.append(f"EMAIL;TYPE=home;PREF=1:{stem}@example.{rng.choice(['com', 'org', 'net'])}")
        if rng.random() < .3:
            lines.append(f"EMAIL;TYPE=work:{stem}@work.example.com")
        if rng.random() < .1:
            lines.append(f"item1.EMAIL:{stem}.club@example.org")
            lines.append("item1.X-ABLabel:Club")
        lines.append(f"TEL;TYPE=cell;PREF=1:{phone_for(region)}")
        if rng.random() < .35:
            lines.append(f"TEL;TYPE=home:{phone_for(region)}")
        if rng.random() < .15:
            lines.append(f"TEL;TYPE=work,fax:{phone_for(region)}")
        if rng.random() < .25:
            city, reg, code, country = CITIES[region]
            lines.append(f"ADR;TYPE=home:;;{rng.randrange(1, 200)} Example Street;{city};{reg};{code};{country}")
        if rng.random() < .2:
            lines.append(f"BDAY:{rng.randrange(1950, 2005)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}")
        lines.append(f"LANG;PREF=1:{lang}")
        if rng.random() < .3:
            cats = sorted(set(rng.sample(CATEGORY_CHOICES, rng.randrange(1, 3))))
            lines.append("CATEGORIES:" + ",".join(esc(c) for c in cats))
        if counter in (3, 57, 121, 190):
            r, g, b = photo_colors[len([1 for _, l in cards if any(x.startswith("PHOTO") for x in l)]) % 4]
            lines.append("PHOTO:data:image/png;base64," + base64.b64encode(png(r, g, b)).decode())
        card(lines, u)

for i, (given, family, gr, fr, romaji) in enumerate(JAPANESE):
    u = uid()
    lines = ["VERSION:4.0", f"UID:urn:uuid:{u}", f"FN:{family} {given}", f'N;SORT-AS="{fr},{gr}":{family};{given};;;',
             f"X-PHONETIC-FIRST-NAME:{gr}", f"X-PHONETIC-LAST-NAME:{fr}", f"EMAIL;TYPE=home:{romaji}@example.org",
             f"TEL;TYPE=cell:{us_phone()}", "LANG:ja"]
    if i % 4 == 0:
        lines.append(f"ORG:{rng.choice(ORGS)}")
    card(lines, u)

# Unnamed contacts: email-only, phone-only, organization-only.
for i in range(8):
    u = uid()
    card(["VERSION:4.0", f"UID:urn:uuid:{u}", "FN:", f"EMAIL:someone{i + 1}@example.net"], u)
for i in range(8):
    u = uid()
    card(["VERSION:4.0", f"UID:urn:uuid:{u}", "FN:", f"TEL;TYPE=cell:{us_phone()}"], u)
for org in ["Example Plumbing", "Example Pizza", "Example Dental", "Example Taxi", "Example Library", "Example Garage"]:
    u = uid()
    card(["VERSION:4.0", f"UID:urn:uuid:{u}", "KIND:org", f"FN:{org}", f"ORG:{org}",
          f"TEL;TYPE=work:{us_phone()}", f"URL:https://{org.split()[1].lower()}.example.com"], u)

# Duplicates: the same person twice (another card, the same name, numbers written differently).
for src in [0, 5, 47, 100, 150, 200]:
    u0, lines0 = cards[src]
    u = uid()
    dup = ["VERSION:4.0", f"UID:urn:uuid:{u}"] + [l for l in lines0[2:] if not l.startswith(("PHOTO", "CATEGORIES"))]
    dup.append("NOTE:Duplicate of another card (imported twice)")
    card(dup, u)

# Groups (vCard 4 KIND:group).
groups = []
for name in ["Team Alpha", "Choir", "Running club", "Parents' committee"]:
    members = rng.sample(people, rng.randrange(6, 15))
    groups.append((name, members))

out = []
for u, lines in cards:
    out.append("BEGIN:VCARD")
    out.extend(fold(l) for l in lines)
    out.append("END:VCARD")
for name, members in groups:
    out += ["BEGIN:VCARD", "VERSION:4.0", "KIND:group", f"UID:urn:uuid:{uid()}", "FN:" + esc(name)]
    out += [f"MEMBER:urn:uuid:{m}" for m in members]
    out.append("END:VCARD")
sys.stdout.buffer.write(("\r\n".join(out) + "\r\n").encode())
print(f"{len(cards)} contacts, {len(groups)} groups", file=sys.stderr)
