import Testing

@Suite("Documentation examples")
struct DocExamplesTests {
    /// The examples compiled into this target by the DocSnippets plugin; a count that drops to nothing
    /// would mean the plugin found no documentation, not that all is well.
    @Test func examplesWereCompiled() {
        #expect(documentationExampleCount >= 90)
    }
}
