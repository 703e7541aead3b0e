// The gettext `Plural-Forms` of every language with CLDR plural rules in ICU 72, derived from CLDR's
// integer rules (operands v, w, f, t, e are 0 for the whole numbers gettext counts) and checked against
// ICU for n = 0…10,000 and powers of ten by PluralFormsTests. Where CLDR and a traditional gettext formula
// differ (French, Spanish, Italian, Portuguese and Catalan "many" for millions), the table follows CLDR.
// Columns: language (BCP 47), the CLDR categories msgstr[0], msgstr[1], … stand for, the plural expression.
extension PluralForms {
    static let table: [(language: String, categories: String, expression: String)] = [
        ("af", "one other", "(n == 1) ? 0 : 1"),
        ("agq", "other", "0"),
        ("ak", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("am", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        (
            "ar", "zero one two few many other",
            """
            (n == 0) ? 0 : (n == 1) ? 1 : (n == 2) ? 2 : (n % 100 >= 3 && n % 100 <= 10) ? 3 : \
            (n % 100 >= 11 && n % 100 <= 99) ? 4 : 5
            """
        ),
        ("as", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("asa", "one other", "(n == 1) ? 0 : 1"),
        ("ast", "one other", "(n == 1) ? 0 : 1"),
        ("az", "one other", "(n == 1) ? 0 : 1"),
        ("bas", "other", "0"),
        (
            "be", "one few many",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("bem", "one other", "(n == 1) ? 0 : 1"),
        ("bez", "one other", "(n == 1) ? 0 : 1"),
        ("bg", "one other", "(n == 1) ? 0 : 1"),
        ("bgc", "other", "0"),
        ("bho", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("bm", "other", "0"),
        ("bn", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("bo", "other", "0"),
        (
            "br", "one two few many other",
            """
            (n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 0 : \
            (n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 1 : \
            (((n % 10 >= 3 && n % 10 <= 4) || n % 10 == 9) && ((n % 100 < 10 || n % 100 > 19) && (n % 100 < \
            70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99))) ? 2 : \
            (n != 0 && n % 1000000 == 0) ? 3 : 4
            """
        ),
        ("brx", "one other", "(n == 1) ? 0 : 1"),
        (
            "bs", "one few other",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("ca", "one many other", "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("ccp", "other", "0"),
        ("ce", "one other", "(n == 1) ? 0 : 1"),
        ("ceb", "one other", "((n == 1 || n == 2 || n == 3) || (n % 10 != 4 && n % 10 != 6 && n % 10 != 9)) ? 0 : 1"),
        ("cgg", "one other", "(n == 1) ? 0 : 1"),
        ("chr", "one other", "(n == 1) ? 0 : 1"),
        ("ckb", "one other", "(n == 1) ? 0 : 1"),
        ("cs", "one few other", "(n == 1) ? 0 : (n >= 2 && n <= 4) ? 1 : 2"),
        ("cv", "other", "0"),
        (
            "cy", "zero one two few many other",
            """
            (n == 0) ? 0 : (n == 1) ? 1 : (n == 2) ? 2 : (n == 3) ? 3 : (n == 6) ? 4 : 5
            """
        ),
        ("da", "one other", "(n == 1) ? 0 : 1"),
        ("dav", "other", "0"),
        ("de", "one other", "(n == 1) ? 0 : 1"),
        ("dje", "other", "0"),
        ("doi", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        (
            "dsb", "one two few other",
            """
            (n % 100 == 1) ? 0 : (n % 100 == 2) ? 1 : (n % 100 >= 3 && n % 100 <= 4) ? 2 : 3
            """
        ),
        ("dua", "other", "0"),
        ("dyo", "other", "0"),
        ("dz", "other", "0"),
        ("ebu", "other", "0"),
        ("ee", "one other", "(n == 1) ? 0 : 1"),
        ("el", "one other", "(n == 1) ? 0 : 1"),
        ("en", "one other", "(n == 1) ? 0 : 1"),
        ("eo", "one other", "(n == 1) ? 0 : 1"),
        ("es", "one many other", "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("et", "one other", "(n == 1) ? 0 : 1"),
        ("eu", "one other", "(n == 1) ? 0 : 1"),
        ("ewo", "other", "0"),
        ("fa", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("ff", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("fi", "one other", "(n == 1) ? 0 : 1"),
        ("fil", "one other", "((n == 1 || n == 2 || n == 3) || (n % 10 != 4 && n % 10 != 6 && n % 10 != 9)) ? 0 : 1"),
        ("fo", "one other", "(n == 1) ? 0 : 1"),
        ("fr", "one many other", "(n == 0 || n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("fur", "one other", "(n == 1) ? 0 : 1"),
        ("fy", "one other", "(n == 1) ? 0 : 1"),
        (
            "ga", "one two few many other",
            """
            (n == 1) ? 0 : (n == 2) ? 1 : (n >= 3 && n <= 6) ? 2 : (n >= 7 && n <= 10) ? 3 : 4
            """
        ),
        (
            "gd", "one two few other",
            """
            ((n == 1 || n == 11)) ? 0 : ((n == 2 || n == 12)) ? 1 : \
            (((n >= 3 && n <= 10) || (n >= 13 && n <= 19))) ? 2 : 3
            """
        ),
        ("gl", "one other", "(n == 1) ? 0 : 1"),
        ("gsw", "one other", "(n == 1) ? 0 : 1"),
        ("gu", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("guz", "other", "0"),
        (
            "gv", "one two few other",
            """
            (n % 10 == 1) ? 0 : (n % 10 == 2) ? 1 : \
            ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80)) ? 2 : 3
            """
        ),
        ("ha", "one other", "(n == 1) ? 0 : 1"),
        ("haw", "one other", "(n == 1) ? 0 : 1"),
        ("he", "one two other", "(n == 1) ? 0 : (n == 2) ? 1 : 2"),
        ("hi", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        (
            "hr", "one few other",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        (
            "hsb", "one two few other",
            """
            (n % 100 == 1) ? 0 : (n % 100 == 2) ? 1 : (n % 100 >= 3 && n % 100 <= 4) ? 2 : 3
            """
        ),
        ("hu", "one other", "(n == 1) ? 0 : 1"),
        ("hy", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("ia", "one other", "(n == 1) ? 0 : 1"),
        ("id", "other", "0"),
        ("ig", "other", "0"),
        ("ii", "other", "0"),
        ("is", "one other", "(n % 10 == 1 && n % 100 != 11) ? 0 : 1"),
        ("it", "one many other", "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("ja", "other", "0"),
        ("jgo", "one other", "(n == 1) ? 0 : 1"),
        ("jmc", "one other", "(n == 1) ? 0 : 1"),
        ("jv", "other", "0"),
        ("ka", "one other", "(n == 1) ? 0 : 1"),
        ("kab", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("kam", "other", "0"),
        ("kde", "other", "0"),
        ("kea", "other", "0"),
        ("kgp", "other", "0"),
        ("khq", "other", "0"),
        ("ki", "other", "0"),
        ("kk", "one other", "(n == 1) ? 0 : 1"),
        ("kkj", "one other", "(n == 1) ? 0 : 1"),
        ("kl", "one other", "(n == 1) ? 0 : 1"),
        ("kln", "other", "0"),
        ("km", "other", "0"),
        ("kn", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("ko", "other", "0"),
        ("kok", "other", "0"),
        ("ks", "one other", "(n == 1) ? 0 : 1"),
        ("ksb", "one other", "(n == 1) ? 0 : 1"),
        ("ksf", "other", "0"),
        ("ksh", "zero one other", "(n == 0) ? 0 : (n == 1) ? 1 : 2"),
        ("ku", "one other", "(n == 1) ? 0 : 1"),
        (
            "kw", "zero one two few many other",
            """
            (n == 0) ? 0 : (n == 1) ? 1 : \
            ((n % 100 == 2 || n % 100 == 22 || n % 100 == 42 || n % 100 == 62 || n % 100 == 82) || (n % \
            1000 == 0 && ((n % 100000 >= 1000 && n % 100000 <= 20000) || n % 100000 == 40000 || n % 100000 \
            == 60000 || n % 100000 == 80000)) || (n != 0 && n % 1000000 == 100000)) ? 2 : \
            ((n % 100 == 3 || n % 100 == 23 || n % 100 == 43 || n % 100 == 63 || n % 100 == 83)) ? 3 : \
            (n != 1 && (n % 100 == 1 || n % 100 == 21 || n % 100 == 41 || n % 100 == 61 || n % 100 == 81)) ? 4 : \
            5
            """
        ),
        ("ky", "one other", "(n == 1) ? 0 : 1"),
        ("lag", "zero one other", "(n == 0) ? 0 : ((n == 0 || n == 1) && n != 0) ? 1 : 2"),
        ("lb", "one other", "(n == 1) ? 0 : 1"),
        ("lg", "one other", "(n == 1) ? 0 : 1"),
        ("lkt", "other", "0"),
        ("ln", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("lo", "other", "0"),
        ("lrc", "other", "0"),
        (
            "lt", "one few other",
            """
            (n % 10 == 1 && ((n % 100 < 11 || n % 100 > 19))) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 9 && ((n % 100 < 11 || n % 100 > 19))) ? 1 : 2
            """
        ),
        ("lu", "other", "0"),
        ("luo", "other", "0"),
        ("luy", "other", "0"),
        (
            "lv", "zero one other",
            """
            (n % 10 == 0 || (n % 100 >= 11 && n % 100 <= 19)) ? 0 : (n % 10 == 1 && n % 100 != 11) ? 1 : 2
            """
        ),
        ("mai", "other", "0"),
        ("mas", "one other", "(n == 1) ? 0 : 1"),
        ("mer", "other", "0"),
        ("mfe", "other", "0"),
        ("mg", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("mgh", "other", "0"),
        ("mgo", "one other", "(n == 1) ? 0 : 1"),
        ("mi", "other", "0"),
        ("mk", "one other", "(n % 10 == 1 && n % 100 != 11) ? 0 : 1"),
        ("ml", "one other", "(n == 1) ? 0 : 1"),
        ("mn", "one other", "(n == 1) ? 0 : 1"),
        ("mni", "other", "0"),
        ("mr", "one other", "(n == 1) ? 0 : 1"),
        ("ms", "other", "0"),
        (
            "mt", "one two few many other",
            """
            (n == 1) ? 0 : (n == 2) ? 1 : (n == 0 || (n % 100 >= 3 && n % 100 <= 10)) ? 2 : \
            (n % 100 >= 11 && n % 100 <= 19) ? 3 : 4
            """
        ),
        ("mua", "other", "0"),
        ("my", "other", "0"),
        ("mzn", "other", "0"),
        ("naq", "one two other", "(n == 1) ? 0 : (n == 2) ? 1 : 2"),
        ("nb", "one other", "(n == 1) ? 0 : 1"),
        ("nd", "one other", "(n == 1) ? 0 : 1"),
        ("ne", "one other", "(n == 1) ? 0 : 1"),
        ("nl", "one other", "(n == 1) ? 0 : 1"),
        ("nmg", "other", "0"),
        ("nn", "one other", "(n == 1) ? 0 : 1"),
        ("nnh", "one other", "(n == 1) ? 0 : 1"),
        ("no", "one other", "(n == 1) ? 0 : 1"),
        ("nus", "other", "0"),
        ("nyn", "one other", "(n == 1) ? 0 : 1"),
        ("om", "one other", "(n == 1) ? 0 : 1"),
        ("or", "one other", "(n == 1) ? 0 : 1"),
        ("os", "one other", "(n == 1) ? 0 : 1"),
        ("pa", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("pcm", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        (
            "pl", "one few many",
            """
            (n == 1) ? 0 : (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("ps", "one other", "(n == 1) ? 0 : 1"),
        ("pt", "one many other", "(n >= 0 && n <= 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("pt-PT", "one many other", "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2"),
        ("qu", "other", "0"),
        ("raj", "other", "0"),
        ("rm", "one other", "(n == 1) ? 0 : 1"),
        ("rn", "other", "0"),
        ("ro", "one few other", "(n == 1) ? 0 : (n == 0 || (n != 1 && n % 100 >= 1 && n % 100 <= 19)) ? 1 : 2"),
        ("rof", "one other", "(n == 1) ? 0 : 1"),
        (
            "ru", "one few many",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("rw", "other", "0"),
        ("rwk", "one other", "(n == 1) ? 0 : 1"),
        ("sa", "other", "0"),
        ("sah", "other", "0"),
        ("saq", "one other", "(n == 1) ? 0 : 1"),
        ("sat", "one two other", "(n == 1) ? 0 : (n == 2) ? 1 : 2"),
        ("sbp", "other", "0"),
        ("sc", "one other", "(n == 1) ? 0 : 1"),
        ("sd", "one other", "(n == 1) ? 0 : 1"),
        ("se", "one two other", "(n == 1) ? 0 : (n == 2) ? 1 : 2"),
        ("seh", "one other", "(n == 1) ? 0 : 1"),
        ("ses", "other", "0"),
        ("sg", "other", "0"),
        ("shi", "one few other", "(n == 0 || n == 1) ? 0 : (n >= 2 && n <= 10) ? 1 : 2"),
        ("si", "one other", "(n == 0 || n == 1) ? 0 : 1"),
        ("sk", "one few other", "(n == 1) ? 0 : (n >= 2 && n <= 4) ? 1 : 2"),
        ("sl", "one two few other", "(n % 100 == 1) ? 0 : (n % 100 == 2) ? 1 : (n % 100 >= 3 && n % 100 <= 4) ? 2 : 3"),
        ("smn", "one two other", "(n == 1) ? 0 : (n == 2) ? 1 : 2"),
        ("sn", "one other", "(n == 1) ? 0 : 1"),
        ("so", "one other", "(n == 1) ? 0 : 1"),
        ("sq", "one other", "(n == 1) ? 0 : 1"),
        (
            "sr", "one few other",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("su", "other", "0"),
        ("sv", "one other", "(n == 1) ? 0 : 1"),
        ("sw", "one other", "(n == 1) ? 0 : 1"),
        ("ta", "one other", "(n == 1) ? 0 : 1"),
        ("te", "one other", "(n == 1) ? 0 : 1"),
        ("teo", "one other", "(n == 1) ? 0 : 1"),
        ("tg", "other", "0"),
        ("th", "other", "0"),
        ("ti", "one other", "(n >= 0 && n <= 1) ? 0 : 1"),
        ("tk", "one other", "(n == 1) ? 0 : 1"),
        ("to", "other", "0"),
        ("tr", "one other", "(n == 1) ? 0 : 1"),
        ("tt", "other", "0"),
        ("twq", "other", "0"),
        ("tzm", "one other", "((n >= 0 && n <= 1) || (n >= 11 && n <= 99)) ? 0 : 1"),
        ("ug", "one other", "(n == 1) ? 0 : 1"),
        (
            "uk", "one few many",
            """
            (n % 10 == 1 && n % 100 != 11) ? 0 : \
            (n % 10 >= 2 && n % 10 <= 4 && ((n % 100 < 12 || n % 100 > 14))) ? 1 : 2
            """
        ),
        ("ur", "one other", "(n == 1) ? 0 : 1"),
        ("uz", "one other", "(n == 1) ? 0 : 1"),
        ("vai", "other", "0"),
        ("vi", "other", "0"),
        ("vun", "one other", "(n == 1) ? 0 : 1"),
        ("wae", "one other", "(n == 1) ? 0 : 1"),
        ("wo", "other", "0"),
        ("xh", "one other", "(n == 1) ? 0 : 1"),
        ("xog", "one other", "(n == 1) ? 0 : 1"),
        ("yav", "other", "0"),
        ("yi", "one other", "(n == 1) ? 0 : 1"),
        ("yo", "other", "0"),
        ("yrl", "other", "0"),
        ("yue", "other", "0"),
        ("zgh", "other", "0"),
        ("zh", "other", "0"),
        ("zu", "one other", "(n == 0 || n == 1) ? 0 : 1"),
    ]
}
