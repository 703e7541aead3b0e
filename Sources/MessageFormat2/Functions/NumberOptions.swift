/// The options of the number functions, checked, and the ICU number skeleton they make.
struct NumberOptions {
    enum Kind: String {
        case number, integer, percent, currency, unit
    }
    enum SelectMode {
        case plural, ordinal, exact, invalid
    }

    let kind: Kind
    /// Valid options only, as text (what a later function inherits).
    var values: [String: String] = [:]
    var select: SelectMode = .plural

    static let enumerated: [String: Set<String>] = [
        "signDisplay": ["auto", "always", "exceptZero", "negative", "never"],
        "useGrouping": ["auto", "always", "never", "min2"],
        "notation": ["standard", "scientific", "engineering", "compact"],
        "compactDisplay": ["short", "long"],
        "currencyDisplay": ["narrowSymbol", "symbol", "name", "code", "formalSymbol", "variantSymbol"],
        "currencySign": ["standard", "accounting"],
        "unitDisplay": ["short", "narrow", "long"],
        "roundingMode": [
            "ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven",
        ],
    ]
    static let digitSizes: Set<String> = [
        "minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits",
        "maximumSignificantDigits",
    ]

    /// Checks the inherited options overridden by the call's; bad ones are reported and left out.
    init(kind: Kind, inherited: [String: ResolvedValue], call: inout FunctionCall) {
        self.kind = kind
        var merged = inherited
        for (k, v) in call.options { merged[k] = v }
        for (name, value) in merged.sorted(by: { $0.key < $1.key }) {
            let text = value.stringValue
            if name == "select" {
                guard call.literalOptions.contains("select") else {
                    call.report(.badOption, "select must be a literal written on the expression")
                    select = .invalid
                    continue
                }
                switch text {
                case "plural": select = .plural
                case "ordinal": select = .ordinal
                case "exact": select = .exact
                default:
                    call.report(.badOption, "select is plural, ordinal or exact")
                    select = .invalid
                    continue
                }
            } else if Self.digitSizes.contains(name) {
                guard let n = value.digitSize, !(name.hasSuffix("SignificantDigits") && (n < 1 || n > 21)) else {
                    call.report(.badOption, "\(name) must be a digit size")
                    continue
                }
                values[name] = String(n)
                continue
            } else if let allowed = Self.enumerated[name] {
                guard let text, allowed.contains(text) else {
                    call.report(.badOption, "\(name) is one of \(allowed.sorted().joined(separator: ", "))")
                    continue
                }
            } else if name == "fractionDigits" {
                guard text == "auto" || value.digitSize != nil else {
                    call.report(.badOption, "fractionDigits is auto or a digit size")
                    continue
                }
            } else if name == "currency" {
                guard let text, text.count == 3, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    call.report(.badOption, "currency is a three-letter ISO 4217 code")
                    continue
                }
            } else if name == "numberingSystem" || name == "unit" {
                guard let text, !text.isEmpty,
                    text.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
                else {
                    call.report(.badOption, "\(name) is a lowercase identifier")
                    continue
                }
            } else {
                continue  // options the function does not know are ignored
            }
            if let text { values[name] = text }
        }
        if let min = int("minimumFractionDigits"), let max = int("maximumFractionDigits"), min > max {
            call.report(.badOption, "minimumFractionDigits is more than maximumFractionDigits")
            values["maximumFractionDigits"] = nil
        }
        if let min = int("minimumSignificantDigits"), let max = int("maximumSignificantDigits"), min > max {
            call.report(.badOption, "minimumSignificantDigits is more than maximumSignificantDigits")
            values["maximumSignificantDigits"] = nil
        }
    }

    func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }

    /// The options as values a later function inherits (`select` among them when it was valid).
    var inheritable: [String: ResolvedValue] {
        var out = values.mapValues { ResolvedValue(string: $0) }
        switch select {
        case .ordinal: out["select"] = ResolvedValue(string: "ordinal")
        case .exact: out["select"] = ResolvedValue(string: "exact")
        case .plural, .invalid: break
        }
        return out
    }

    /// The ICU number skeleton for these options.
    var skeleton: String {
        var stems: [String] = []
        switch kind {
        case .percent: stems.append("percent scale/100")
        case .currency: if let c = values["currency"] { stems.append("currency/" + c.uppercased()) }
        case .unit: if let u = values["unit"] { stems.append("unit/" + u) }
        case .number, .integer: break
        }
        let minSig = int("minimumSignificantDigits")
        let maxSig = int("maximumSignificantDigits")
        if minSig != nil || maxSig != nil {
            let lo = minSig ?? 1
            stems.append(
                String(repeating: "@", count: lo) + (maxSig.map { String(repeating: "#", count: $0 - lo) } ?? "+"))
        } else if kind == .integer {
            stems.append("precision-integer")
        } else if kind == .currency {
            if let digits = values["fractionDigits"], let n = Int(digits) {
                stems.append(Self.fractionStem(min: n, max: n))
            } else if int("minimumFractionDigits") != nil || int("maximumFractionDigits") != nil {
                let lo = int("minimumFractionDigits") ?? 0
                stems.append(Self.fractionStem(min: lo, max: int("maximumFractionDigits") ?? Swift.max(lo, 2)))
            }
        } else {
            let lo = int("minimumFractionDigits") ?? 0
            let hi = int("maximumFractionDigits") ?? Swift.max(lo, kind == .percent ? 0 : 3)
            stems.append(Self.fractionStem(min: lo, max: hi))
        }
        if let n = int("minimumIntegerDigits"), n > 1 {
            stems.append("integer-width/+" + String(repeating: "0", count: n))
        }
        let accounting = values["currencySign"] == "accounting"
        switch values["signDisplay"] {
        case "always": stems.append(accounting ? "sign-accounting-always" : "sign-always")
        case "exceptZero": stems.append(accounting ? "sign-accounting-except-zero" : "sign-except-zero")
        case "negative": stems.append(accounting ? "sign-accounting-negative" : "sign-negative")
        case "never": stems.append("sign-never")
        default: if accounting { stems.append("sign-accounting") }
        }
        switch values["useGrouping"] {
        case "always": stems.append("group-on-aligned")
        case "never": stems.append("group-off")
        case "min2": stems.append("group-min2")
        default: break
        }
        switch values["notation"] {
        case "scientific": stems.append("scientific")
        case "engineering": stems.append("engineering")
        case "compact": stems.append(values["compactDisplay"] == "long" ? "compact-long" : "compact-short")
        default: break
        }
        switch values[kind == .unit ? "unitDisplay" : "currencyDisplay"] {
        case "narrowSymbol", "narrow": stems.append("unit-width-narrow")
        case "name", "long": stems.append("unit-width-full-name")
        case "code": stems.append("unit-width-iso-code")
        case "formalSymbol": stems.append("unit-width-formal")
        case "variantSymbol": stems.append("unit-width-variant")
        default: break
        }
        if let system = values["numberingSystem"] { stems.append("numbering-system/" + system) }
        switch values["roundingMode"] {
        case "ceil": stems.append("rounding-mode-ceiling")
        case "floor": stems.append("rounding-mode-floor")
        case "expand": stems.append("rounding-mode-up")
        case "trunc": stems.append("rounding-mode-down")
        case "halfCeil", "halfExpand": stems.append("rounding-mode-half-up")
        case "halfFloor", "halfTrunc": stems.append("rounding-mode-half-down")
        case "halfEven": stems.append("rounding-mode-half-even")
        default: break
        }
        return stems.joined(separator: " ")
    }

    static func fractionStem(min: Int, max: Int) -> String {
        max == 0
            ? "precision-integer" : "." + String(repeating: "0", count: min) + String(repeating: "#", count: max - min)
    }
}
