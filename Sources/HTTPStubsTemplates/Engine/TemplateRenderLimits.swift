import HTTPStubs

/// Bounds on one rendering, so that a hostile or mistaken template (nested loops over a large
/// body, a helper that renders its body many times) fails with a located error instead of
/// hanging a test or exhausting memory.
struct TemplateRenderLimits: Sendable, Hashable {
    /// The most UTF-8 bytes a rendering may produce: 10 MiB by default. Text and tag output count
    /// as they are produced, including bodies a helper renders and then drops, and the final
    /// output is checked too.
    var maximumOutputBytes = 10 * 1024 * 1024
    /// The deepest nesting of bodies being rendered at once (blocks inside blocks, helper bodies):
    /// 200 by default. Parsing already limits static nesting to ``TemplateParser/maximumNesting``.
    var maximumDepth = 200
    /// The most steps a rendering may take, a step being a node visited or a body rendered (a
    /// body of three nodes rendered 1,000 times is 4,000 steps, an empty one 1,000): one million
    /// by default, well under a second of work.
    var maximumSteps = 1_000_000

    /// The default limits.
    static let standard = TemplateRenderLimits()
}
