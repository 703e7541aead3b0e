import Foundation
import Support

extension XCStringsDocument {
    /// Applies one catalog unit of an XLIFF import: true when it changed the catalog, false when the
    /// catalog already said so, nil when the unit's id or shape does not fit the catalog.
    mutating func importUnit(_ u: XLIFFUnit, target: String, language: String) -> Bool? {
        guard let (key, path) = XLIFF.catalogID(u.id, in: self) else { return nil }
        // A unit must fit the shape the translation already has (a plural variation, device variations,
        // or a string unit with substitutions); otherwise it would add an entry nothing uses.
        if let loc = entry(key)?.localizations[language], XLIFF.hasContent(loc), let head = path.first {
            switch head {
            case "plural" where loc.value != nil || !loc.device.isEmpty: return nil
            case "device" where loc.value != nil || !loc.plural.isEmpty: return nil
            default: break
            }
        } else if let loc = entry(key)?.localizations[language], path.isEmpty,
            !loc.plural.isEmpty || !loc.device.isEmpty
        {
            return nil
        }
        // A unit exported and read back unchanged keeps the state it has (`stale`, a form needing review
        // beside translated ones): the XLIFF state it was exported with maps back to it.
        if let existing = entry(key)?.localizations[language].flatMap({ Self.unit(at: path, in: $0) }),
            existing.value == target, XLIFF.xliffState(existing.state) == u.state
        {
            return false
        }
        return applyUnit(target, forKey: key, language: language, path: path, state: XLIFF.catalogState(u.state))
    }

    /// The string unit at an XLIFF variation path (`[]`, `["plural","one"]`, `["device","mac","plural","one"]`,
    /// `["substitutions","n","plural","one"]`) of a localization.
    static func unit(at path: [String], in loc: Localization) -> Localization? {
        guard let head = path.first else { return loc }
        guard path.count >= 2 else { return nil }
        switch head {
        case "plural": return loc.plural[path[1]].flatMap { unit(at: Array(path.dropFirst(2)), in: $0) }
        case "device": return loc.device[path[1]].flatMap { unit(at: Array(path.dropFirst(2)), in: $0) }
        case "substitutions":
            guard path.count == 4, path[2] == "plural", let sub = loc.substitutions[path[1]] else { return nil }
            return sub.plural[path[3]]
        default: return nil
        }
    }
}

extension XCStringsDocument {
    /// Sets a string unit at `path` below `localizations.<language>` (`[]`, `["plural","one"]`,
    /// `["device","mac"]`, `["substitutions","n","plural","one"]`), creating what is missing and copying a
    /// substitution's `argNum`/`formatSpecifier` from the source language. Returns false for a path that
    /// is not one of those forms.
    public mutating func setUnit(
        _ value: String, forKey key: String, language: String, path: [String], state: String = "translated"
    ) -> Bool {
        applyUnit(value, forKey: key, language: language, path: path, state: state) != nil
    }

    /// ``setUnit(_:forKey:language:path:state:)`` telling whether the catalog changed (nil: a path of
    /// another form). A key the catalog has is edited in place (``editEntry(_:_:)``).
    mutating func applyUnit(
        _ value: String, forKey key: String, language: String, path: [String], state: String
    ) -> Bool? {
        // Translate the XLIFF path into JSON member names.
        var json: [String] = []
        var k = 0
        var substitution: String?
        while k < path.count {
            switch path[k] {
            case "plural", "device":
                guard k + 1 < path.count else { return nil }
                json += ["variations", path[k], path[k + 1]]
                k += 2
            case "substitutions":
                guard k + 1 < path.count else { return nil }
                substitution = path[k + 1]
                json += ["substitutions", path[k + 1]]
                k += 2
            default:
                return nil
            }
        }
        func set(_ node: JSONValue, _ rest: ArraySlice<String>) -> JSONValue {
            var node = node.members == nil ? JSONValue.object([]) : node
            guard let head = rest.first else {
                var unit = node["stringUnit"] ?? .object([])
                if unit["value"]?.stringValue == value && unit["state"]?.stringValue == state { return node }
                unit.insertSorted("state", .string(state))
                unit.insertSorted("value", .string(value))
                node.insertSorted("stringUnit", unit)
                return node
            }
            node.insertSorted(head, set(node[head] ?? .object([]), rest.dropFirst()))
            return node
        }
        let sourceLanguage = self.sourceLanguage
        /// The entry with the unit set; nil when that changes nothing.
        func edited(_ entry: JSONValue) -> JSONValue? {
            var entry = entry
            var locs = entry["localizations"] ?? .object([])
            var loc = set(locs[language] ?? .object([]), json[...])
            // A substitution this import creates takes the source's argument number and type; one the
            // translation has keeps what it has (no `argNum` added where it had none).
            if let substitution, locs[language]?["substitutions"]?[substitution] == nil,
                let src = locs[sourceLanguage]?["substitutions"]?[substitution]
            {
                var sub = loc["substitutions"]?[substitution] ?? .object([])
                for field in ["argNum", "formatSpecifier"] where sub[field] == nil {
                    if let v = src[field] { sub.insertSorted(field, v) }
                }
                var subs = loc["substitutions"] ?? .object([])
                subs.insertSorted(substitution, sub)
                loc.insertSorted("substitutions", subs)
                if loc["stringUnit"] == nil, let srcUnit = locs[sourceLanguage]?["stringUnit"]?["value"]?.stringValue {
                    var unit = JSONValue.object([])
                    unit.insertSorted("state", .string("new"))
                    unit.insertSorted("value", .string(srcUnit))
                    loc.insertSorted("stringUnit", unit)
                }
            }
            if locs[language] == loc { return nil }
            locs.insertSorted(language, loc)
            entry.insertSorted("localizations", locs)
            return entry
        }
        let inPlace = editEntry(key) { entry in
            guard let new = edited(entry) else { return false }
            entry = new
            return true
        }
        if let inPlace { return inPlace }
        guard let entry = edited(.object([])) else { return false }
        var root = self.root
        var strings = root["strings"] ?? .object([])
        strings.insertSorted(key, entry)
        root.insertSorted("strings", strings)
        replaceRoot(root)
        return true
    }
}
