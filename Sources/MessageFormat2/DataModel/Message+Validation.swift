extension Message {
    /// Checks the data-model rules of the specification: no variable declared twice or declared after use,
    /// no option named twice, selectors that have a function, as many keys as selectors, a catch-all variant
    /// and no two variants with the same keys. Throws the first ``MessageError/dataModel(_:_:)`` found.
    ///
    /// ```swift
    /// let m = try Message(parsing: ".input {$n :number} .match $n one {{one}}")
    /// do { try m.validate() } catch { print(error.name) }   // "missing-fallback-variant"
    /// ```
    public func validate() throws(MessageError) {
        var declared = Set<String>()
        var referenced = Set<String>()
        for declaration in declarations {
            let expression = declaration.expression
            try Self.checkOptions(expression.function?.options ?? [])
            var uses = Set<String>()
            if case .variable(let v) = expression.operand { uses.insert(v.name) }
            for option in expression.function?.options ?? [] {
                if case .variable(let v) = option.value { uses.insert(v.name) }
            }
            let name = declaration.name
            let clash: Bool
            switch declaration {
            case .input: clash = declared.contains(name) || referenced.contains(name)
            case .local: clash = declared.contains(name) || referenced.contains(name) || uses.contains(name)
            }
            if clash {
                throw .dataModel(.duplicateDeclaration, "$\(name) is declared twice or after it is used")
            }
            declared.insert(name)
            referenced.formUnion(uses)
        }
        switch body {
        case .pattern(let pattern):
            try Self.checkOptions(in: pattern)
        case .match(let selectors, let variants):
            for selector in selectors where !hasAnnotation(selector.name, before: declarations.count) {
                throw .dataModel(
                    .missingSelectorAnnotation, "the selector $\(selector.name) has no function annotation")
            }
            var seen = Set<[String]>()
            var hasFallback = false
            for variant in variants {
                guard variant.keys.count == selectors.count else {
                    throw .dataModel(
                        .variantKeyMismatch, "a variant has \(variant.keys.count) keys for \(selectors.count) selectors"
                    )
                }
                let keys = variant.keys.map { key -> String in
                    if case .literal(let l) = key { return "=" + l.value }
                    return "*"
                }
                if !seen.insert(keys).inserted {
                    throw .dataModel(.duplicateVariant, "two variants have the keys \(keys.joined(separator: " "))")
                }
                if keys.allSatisfy({ $0 == "*" }) { hasFallback = true }
                try Self.checkOptions(in: variant.pattern)
            }
            if !hasFallback { throw .dataModel(.missingFallbackVariant, "no variant has only '*' keys") }
        }
    }

    /// True when the variable's declaration (among the first `count`) has a function, itself or through the
    /// variable its expression refers to.
    func hasAnnotation(_ name: String, before count: Int) -> Bool {
        guard let i = declarations[..<count].lastIndex(where: { $0.name == name }) else { return false }
        let expression = declarations[i].expression
        if expression.function != nil { return true }
        if case .local = declarations[i], case .variable(let v) = expression.operand {
            return hasAnnotation(v.name, before: i)
        }
        return false
    }

    static func checkOptions(in pattern: Pattern) throws(MessageError) {
        for element in pattern.elements {
            switch element {
            case .text: break
            case .expression(let e): try checkOptions(e.function?.options ?? [])
            case .markup(let m): try checkOptions(m.options)
            }
        }
    }

    static func checkOptions(_ options: [Option]) throws(MessageError) {
        guard options.count > 1 else { return }
        var names = Set<String>()
        for option in options where !names.insert(option.name.description).inserted {
            throw .dataModel(.duplicateOptionName, "the option \(option.name) is given twice")
        }
    }
}
