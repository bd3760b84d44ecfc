import HTTPStubs

/// A parsed Handlebars template, ready to render many times: parse once when a stub loads
/// (``TemplateParser``), render per request (``TemplateRenderer``).
struct Template: Sendable, Hashable {
    /// The template's top-level pieces.
    let nodes: [TemplateNode]
    /// What a render's output is likely to need: the top-level text's bytes and 16 for each
    /// other top-level piece, so that the output grows once rather than piece by piece.
    let outputCapacity: Int

    /// A template of `nodes`.
    init(nodes: [TemplateNode]) {
        self.nodes = nodes
        self.outputCapacity = nodes.reduce(0) { total, node in
            if case .text(let text) = node { return total + text.utf8.count }
            return total + 16
        }
    }

    /// A helper call found in a template, with where it is.
    struct HelperCall: Sendable, Hashable {
        /// The helper's name.
        let name: String
        /// Where the name is written.
        let location: TemplateSourceLocation
    }

    /// Every tag that can only be a helper call, in source order: tags, blocks and `{{else if …}}`
    /// links with parameters or hash arguments, and subexpressions. handlebars.java refuses these
    /// when no helper has the name. A bare `{{name}}` or `{{#name}}` is not listed: it calls the
    /// helper `name` if there is one, and otherwise reads the path `name` (a section for a block).
    var helperCalls: [HelperCall] {
        var calls: [HelperCall] = []
        Self.collect(nodes, into: &calls)
        return calls
    }

    /// Fails with a located error naming the first helper call whose name is not in `helpers`.
    func validate(helpers: Set<String>) throws(TemplateSyntaxError) {
        for call in helperCalls where !helpers.contains(call.name) {
            throw TemplateSyntaxError(
                location: call.location,
                message:
                    "helper '\(call.name)' is not implemented: "
                    + "check the spelling, or remove the tag (a tag with parameters always calls a helper)"
            )
        }
    }

    /// The template with each helper tag prepared by its helper (``TemplateHelper/prepare``), so
    /// that work on constant arguments is done once here rather than on every render, and each
    /// tag's name bound to its helper in `helpers` (``TemplateExpression/binding``), so that a
    /// render does not look it up. Render it with a renderer of the same `helpers`.
    func prepared(with helpers: [String: TemplateHelper]) -> Template {
        Template(nodes: Self.prepare(nodes, helpers))
    }

    private static func prepare(_ nodes: [TemplateNode], _ helpers: [String: TemplateHelper]) -> [TemplateNode] {
        nodes.map { node in
            switch node {
            case .text, .comment:
                return node
            case .mustache(let expression, let escaped):
                return .mustache(prepare(expression, helpers), escaped: escaped)
            case .block(let block):
                return .block(
                    TemplateBlock(
                        expression: block.inverted ? block.expression : prepare(block.expression, helpers),
                        inverted: block.inverted,
                        blockParams: block.blockParams,
                        body: prepare(block.body, helpers),
                        inverse: prepare(block.inverse, helpers)
                    )
                )
            }
        }
    }

    private static func prepare(
        _ expression: TemplateExpression,
        _ helpers: [String: TemplateHelper]
    ) -> TemplateExpression {
        var expression = TemplateExpression(
            name: expression.name,
            params: expression.params.map { prepare($0, helpers) },
            hash: expression.hash.map { TemplateHashArgument(key: $0.key, value: prepare($0.value, helpers)) },
            location: expression.location
        )
        let helper = helpers[expression.name.text]
        expression.prepared = helper?.prepare?(expression)
        expression.binding = helper.map(TemplateHelperBinding.helper) ?? .path
        return expression
    }

    private static func prepare(_ argument: TemplateArgument, _ helpers: [String: TemplateHelper]) -> TemplateArgument {
        guard case .subexpression(let expression) = argument else { return argument }
        return .subexpression(prepare(expression, helpers))
    }

    private static func collect(_ nodes: [TemplateNode], into calls: inout [HelperCall]) {
        for node in nodes {
            switch node {
            case .text, .comment:
                break
            case .mustache(let expression, _):
                collect(expression, into: &calls)
            case .block(let block):
                if !block.inverted { collect(block.expression, into: &calls) }
                collect(block.body, into: &calls)
                collect(block.inverse, into: &calls)
            }
        }
    }

    private static func collect(_ expression: TemplateExpression, into calls: inout [HelperCall]) {
        if expression.requiresHelper {
            calls.append(HelperCall(name: expression.name.text, location: expression.location))
        }
        for argument in expression.params { collect(argument, into: &calls) }
        for argument in expression.hash { collect(argument.value, into: &calls) }
    }

    private static func collect(_ argument: TemplateArgument, into calls: inout [HelperCall]) {
        guard case .subexpression(let expression) = argument else { return }
        calls.append(HelperCall(name: expression.name.text, location: expression.location))
        for argument in expression.params { collect(argument, into: &calls) }
        for argument in expression.hash { collect(argument.value, into: &calls) }
    }
}
