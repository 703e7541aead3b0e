extension Message {
    /// The variables the message takes from its caller: those of `.input` declarations and those used but
    /// never declared by `.local`, in order of first appearance.
    ///
    /// ```swift
    /// try Message(parsing: ".local $n = {$count :number} {{{$n} for {$who}}}").externalVariables   // ["count", "who"]
    /// ```
    public var externalVariables: [String] {
        var locals = Set<String>()
        var out: [String] = []
        var seen = Set<String>()
        func use(_ name: String) {
            if !locals.contains(name), seen.insert(name).inserted { out.append(name) }
        }
        func visit(_ e: Expression) {
            if case .variable(let v) = e.operand { use(v.name) }
            for o in e.function?.options ?? [] { if case .variable(let v) = o.value { use(v.name) } }
        }
        func visit(_ p: Pattern) {
            for element in p.elements {
                switch element {
                case .text: break
                case .expression(let e): visit(e)
                case .markup(let m): for o in m.options { if case .variable(let v) = o.value { use(v.name) } }
                }
            }
        }
        for d in declarations {
            visit(d.expression)
            if case .local(let name, _) = d { locals.insert(name) }
        }
        switch body {
        case .pattern(let p): visit(p)
        case .match(let selectors, let variants):
            for s in selectors { use(s.name) }
            for v in variants { visit(v.pattern) }
        }
        return out
    }
}
