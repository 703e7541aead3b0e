// The work budget of a render (RenderOptions.maxSteps)
extension Renderer {
    /// Counts one step of work, done at instruction `index` of `p` (or a pass through the section that
    /// ends before it); throws ``TemplatingError/workLimitExceeded(template:line:column:limit:recipient:)``
    /// naming the template and that line once the render has done more than ``RenderOptions/maxSteps``.
    @inline(__always) mutating func spend(_ p: Program, near index: Int) throws {
        steps &+= 1
        if steps > stepLimit { throw workLimitExceeded(p, near: index) }
    }

    func workLimitExceeded(_ p: Program, near index: Int) -> TemplatingError {
        let position = p.positions.isEmpty ? SourcePosition(line: 1, column: 1) : Self.position(in: p, near: index)
        return .workLimitExceeded(
            template: templateName, line: position.line, column: position.column, limit: stepLimit,
            recipient: options.recipient)
    }
}
