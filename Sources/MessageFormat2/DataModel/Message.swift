/// A parsed MessageFormat 2 message: the data model of the specification.
///
/// ```swift
/// let message = try Message(parsing: "Hello {$name}!")
/// message.declarations.isEmpty   // true
/// ```
public struct Message: Sendable, Hashable {
    /// The `.input` and `.local` declarations, in order.
    public var declarations: [Declaration]
    /// A single pattern, or selectors and variants.
    public var body: Body

    /// What a message formats: one pattern, or a `.match` over selectors.
    public enum Body: Sendable, Hashable {
        case pattern(Pattern)
        case match(selectors: [VariableRef], variants: [Variant])
    }

    public init(declarations: [Declaration] = [], body: Body) {
        self.declarations = declarations
        self.body = body
    }
}

/// `.input {$x …}` or `.local $x = {…}`.
public enum Declaration: Sendable, Hashable {
    /// `.input`: the expression's operand is the variable declared.
    case input(name: String, expression: Expression)
    case local(name: String, expression: Expression)

    /// The variable the declaration binds.
    public var name: String {
        switch self {
        case .input(let n, _), .local(let n, _): n
        }
    }
    /// The declaration's expression.
    public var expression: Expression {
        switch self {
        case .input(_, let e), .local(_, let e): e
        }
    }
}

/// One variant of a `.match`: its keys and its pattern.
public struct Variant: Sendable, Hashable {
    public var keys: [VariantKey]
    public var pattern: Pattern
    public init(keys: [VariantKey], pattern: Pattern) {
        self.keys = keys
        self.pattern = pattern
    }
}

/// A variant key: a literal or the catch-all `*`.
public enum VariantKey: Sendable, Hashable {
    case literal(Literal)
    case catchAll
}

/// A sequence of text and placeholders.
public struct Pattern: Sendable, Hashable {
    public var elements: [PatternElement]
    public init(_ elements: [PatternElement]) { self.elements = elements }
}

/// Text, an expression placeholder or a markup placeholder.
public enum PatternElement: Sendable, Hashable {
    case text(String)
    case expression(Expression)
    case markup(Markup)
}

/// A literal: its value (escapes resolved) and whether it was written between `|`.
public struct Literal: Sendable, Hashable {
    public var value: String
    public var quoted: Bool
    public init(_ value: String, quoted: Bool = false) {
        self.value = value
        self.quoted = quoted
    }
}

/// A `$variable` reference.
public struct VariableRef: Sendable, Hashable {
    public var name: String
    public init(_ name: String) { self.name = name }
}

/// What an expression or option value starts from.
public enum Operand: Sendable, Hashable {
    case literal(Literal)
    case variable(VariableRef)
}

/// A `namespace:name` identifier.
public struct Identifier: Sendable, Hashable, CustomStringConvertible {
    public var namespace: String?
    public var name: String
    public init(namespace: String? = nil, name: String) {
        self.namespace = namespace
        self.name = name
    }
    public var description: String { namespace.map { "\($0):\(name)" } ?? name }
}

/// An option: `name=value`, in the order written.
public struct Option: Sendable, Hashable {
    public var name: Identifier
    public var value: Operand
    public init(name: Identifier, value: Operand) {
        self.name = name
        self.value = value
    }
}

/// An attribute: `@name` or `@name=literal`. Attributes never change formatting.
public struct Attribute: Sendable, Hashable {
    public var name: Identifier
    public var value: Literal?
    public init(name: Identifier, value: Literal? = nil) {
        self.name = name
        self.value = value
    }
}

/// A function annotation: `:name option=value …`.
public struct FunctionRef: Sendable, Hashable {
    public var name: Identifier
    public var options: [Option]
    public init(name: Identifier, options: [Option] = []) {
        self.name = name
        self.options = options
    }
}

/// An expression: an operand, a function or both, and attributes.
public struct Expression: Sendable, Hashable {
    public var operand: Operand?
    public var function: FunctionRef?
    public var attributes: [Attribute]
    public init(operand: Operand? = nil, function: FunctionRef? = nil, attributes: [Attribute] = []) {
        self.operand = operand
        self.function = function
        self.attributes = attributes
    }
}

/// Markup: `{#open}`, `{#standalone/}` or `{/close}`, with options and attributes.
public struct Markup: Sendable, Hashable {
    /// Which of the three forms.
    public enum Kind: String, Sendable, Hashable {
        case open, standalone, close
    }
    public var kind: Kind
    public var name: Identifier
    public var options: [Option]
    public var attributes: [Attribute]
    public init(kind: Kind, name: Identifier, options: [Option] = [], attributes: [Attribute] = []) {
        self.kind = kind
        self.name = name
        self.options = options
        self.attributes = attributes
    }
}
