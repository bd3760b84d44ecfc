import HTTPStubs

/// The state of one rendering (the counters the limits check) and the rules of handlebars.java
/// 4.x for each node:
///
/// - `{{name}}`: a helper called `name` if there is one, else the value of the path; nothing for a
///   missing value or `null`, otherwise the value printed as Java does (``TemplateValue/printed``),
///   HTML-escaped unless the value is ``TemplateValue/safe(_:)``. `{{{ }}}` and `{{& }}` do not escape.
/// - `{{#name …}}`: the helper `name`; without a helper, a section over the path's value (a list
///   iterates like `each`, a boolean acts like `if`, anything else like `with`).
/// - `{{^name}}`: the body when the path's value is falsy, the inverse otherwise.
/// - Paths: a plain name is looked up in the current context, then in its data variables, then in
///   the root data (`root`), and if still missing in the enclosing contexts one by one
///   (handlebars.java's parent scope resolution); once the first segment is found the lookup stays
///   there (`a.b` with `a` found and `b` missing is missing). Paths starting with `this`, `.`, `./`
///   or `../` do not walk up.
final class TemplateRenderSession {
    /// The outermost context.
    let rootScope: TemplateScope

    /// The clock and random source helpers read.
    let environment: TemplateEnvironment

    private let helpers: [String: TemplateHelper]
    private let limits: TemplateRenderLimits
    /// The response's budget, which helpers charge for the work they do and what they make
    /// (``charge(_:by:for:)``), and which the expressions they run (JSONPath, XPath, regular
    /// expressions) charge too.
    private let budget: WorkBudget
    /// The units the helper being called has charged so far, so that the charge for the value it
    /// returns counts only what it has not paid for already.
    private var chargedByCurrentCall = 0
    /// handlebars.java's shared `data` map: `root` is the root value. Made when a path is first
    /// missing from the contexts, or a variable is set (most renders need neither).
    private lazy var rootData = TemplateObject([("root", rootScope.value)])
    private var producedBytes = 0
    private var steps = 0
    private var depth = 0
    /// The innermost block being rendered, to locate errors found in plain text.
    private var blockLocation = TemplateSourceLocation(line: 1, column: 1)
    /// The text ``json(parsing:)`` parsed last and what it gave (`nil` for text that is not JSON).
    private var lastParsedJSON: (text: String, json: JSONValue?)?

    init(
        helpers: [String: TemplateHelper],
        limits: TemplateRenderLimits,
        root: TemplateValue,
        environment: TemplateEnvironment = .system,
        budget: WorkBudget
    ) {
        self.helpers = helpers
        self.environment = environment
        self.limits = limits
        self.budget = budget
        self.rootScope = TemplateScope(value: root, parent: nil, data: TemplateObject())
    }

    /// Sets the data variable `name` for the rest of the rendering (handlebars.java's
    /// `context.data(name, value)`), which paths then read like `root`.
    func setVariable(_ name: String, _ value: TemplateValue) {
        rootData[name] = value
    }

    /// `text` parsed as JSON, `nil` when it is not JSON. The last text parsed is remembered, so
    /// that several `jsonPath` tags reading the same request body parse it once per render; a
    /// parse is charged to `call`'s work budget, ``WorkBudget/Cost/parsedByte`` a byte.
    func json(parsing text: String, for call: TemplateHelperCall) throws(TemplateRenderError) -> JSONValue? {
        if let last = lastParsedJSON, last.text == text { return last.json }
        try charge(
            text.utf8.count * WorkBudget.Cost.parsedByte,
            by: call,
            for: "parsing \(text.utf8.count) bytes of JSON"
        )
        let json = try? JSONValue(parsing: text)
        lastParsedJSON = (text, json)
        return json
    }

    /// `nodes` rendered in `scope`, into an output made with room for `outputCapacity` bytes (when
    /// more than a small string holds).
    func render(
        _ nodes: [TemplateNode],
        in scope: TemplateScope,
        outputCapacity: Int = 0
    ) throws(TemplateRenderError) -> String {
        depth += 1
        defer { depth -= 1 }
        // Rendering a body is a step even when it is empty, so a loop over a loop is bounded.
        steps += 1
        if steps > limits.maximumSteps { throw tooManySteps(at: blockLocation) }
        var output = ""
        if outputCapacity > 15 { output.reserveCapacity(outputCapacity) }
        for node in nodes {
            steps += 1
            if steps > limits.maximumSteps { throw tooManySteps(at: Self.location(of: node) ?? blockLocation) }
            if depth > limits.maximumDepth {
                throw TemplateRenderError(
                    location: Self.location(of: node) ?? blockLocation,
                    message: "rendering nested more than \(limits.maximumDepth) bodies: simplify the template"
                )
            }
            let piece: String
            switch node {
            case .text(let text):
                piece = text
            case .comment:
                continue
            case .mustache(let expression, let escaped):
                guard let value = try mustacheValue(expression, in: scope), !value.isNull else { continue }
                if case .safe(let text) = value {
                    piece = text
                } else {
                    let printed = value.printed
                    // Escaping never shortens text: output past the limit fails before it is escaped.
                    if producedBytes + printed.utf8.count > limits.maximumOutputBytes {
                        throw tooLarge(at: expression.location, tag: expression.name.text)
                    }
                    piece = escaped ? TemplateEscaping.html(printed) : printed
                }
            case .block(let block):
                let outer = blockLocation
                blockLocation = block.expression.location
                defer { blockLocation = outer }
                let blockOutput = try render(block, in: scope)
                // Its text was counted as it was produced; a helper may add more, so the total is
                // checked at the top level.
                if depth == 1, output.utf8.count + blockOutput.utf8.count > limits.maximumOutputBytes {
                    throw tooLarge(at: block.expression.location, tag: block.expression.name.text)
                }
                output += blockOutput
                continue
            }
            producedBytes += piece.utf8.count
            if producedBytes > limits.maximumOutputBytes {
                let tag: String? = if case .mustache(let expression, _) = node { expression.name.text } else { nil }
                throw tooLarge(at: Self.location(of: node) ?? blockLocation, tag: tag)
            }
            output += piece
        }
        return output
    }

    /// Takes `units` from the response's work budget for `work` done by the helper `call` calls,
    /// before it makes what they pay for (a negative count takes none). Throws the error located at
    /// the helper's tag, naming what spent the budget, once it is spent (by this helper, or by an
    /// expression it ran).
    func charge(
        _ units: Int,
        by call: TemplateHelperCall,
        for work: @autoclosure () -> String
    ) throws(TemplateRenderError) {
        let units = max(units, 0)
        guard budget.spend(units, on: work()) else { throw budgetSpent(by: call) }
        chargedByCurrentCall += units
    }

    /// The error once the budget is spent, during the call of `call`'s helper: the first exhaustion
    /// throws at once, so what spent the last unit is this helper's work, or an expression it ran.
    private func budgetSpent(by call: TemplateHelperCall) -> TemplateRenderError {
        let exhaustion = budget.exhaustion.map { "\($0)" } ?? "the request's work budget is spent"
        return TemplateRenderError(
            location: call.location,
            message:
                "helper '\(call.name)' failed: \(exhaustion): make the template ask for less (smaller sizes, "
                + "ranges, inputs or loops)"
        )
    }

    private func tooManySteps(at location: TemplateSourceLocation) -> TemplateRenderError {
        TemplateRenderError(
            location: location,
            message:
                "rendering visited more than \(limits.maximumSteps) tags (loops over large data?): "
                + "simplify the template"
        )
    }

    /// The error for output past the limit, at the node that took it past; `tag` names the tag's
    /// helper or path.
    private func tooLarge(at location: TemplateSourceLocation, tag: String?) -> TemplateRenderError {
        TemplateRenderError(
            location: location,
            message:
                "rendering produced more than \(limits.maximumOutputBytes) bytes"
                + (tag.map { " when '\($0)' printed" } ?? "") + ": the template's output is too large"
        )
    }

    private static func location(of node: TemplateNode) -> TemplateSourceLocation? {
        switch node {
        case .text: nil
        case .comment(let location): location
        case .mustache(let expression, _): expression.location
        case .block(let block): block.expression.location
        }
    }

    /// The value a `{{ }}` tag prints, `nil` when there is nothing to print.
    private func mustacheValue(
        _ expression: TemplateExpression,
        in scope: TemplateScope
    ) throws(TemplateRenderError) -> TemplateValue? {
        // In a block-parameter level a bare name is never a helper call (`Variable.value`).
        if let helper = helper(named: expression), !(scope.holdsBlockParams && !expression.requiresHelper) {
            return try call(helper, expression, isBlock: false, body: [], inverse: [], blockParams: [], in: scope)
        }
        try requireNoHelper(expression)
        return lookup(expression.name, in: scope)
    }

    /// The helper the name of `expression` calls: the one it was bound to when the template was
    /// prepared, else the one registered under the name.
    private func helper(named expression: TemplateExpression) -> TemplateHelper? {
        switch expression.binding {
        case .helper(let helper): helper
        case .path: nil
        case nil: helpers[expression.name.text]
        }
    }

    private func requireNoHelper(_ expression: TemplateExpression) throws(TemplateRenderError) {
        if expression.requiresHelper {
            throw TemplateRenderError(
                location: expression.location,
                message: "helper '\(expression.name)' is not implemented"
            )
        }
    }

    /// A block's output.
    private func render(_ block: TemplateBlock, in scope: TemplateScope) throws(TemplateRenderError) -> String {
        let expression = block.expression
        if block.inverted {
            let value = lookup(expression.name, in: scope) ?? .null
            return try render(value.isFalsy ? block.body : block.inverse, in: scope)
        }
        if let helper = helper(named: expression) {
            let result = try call(
                helper,
                expression,
                isBlock: true,
                body: block.body,
                inverse: block.inverse,
                blockParams: block.blockParams,
                in: scope
            )
            return result.isNull ? "" : result.printed
        }
        try requireNoHelper(expression)
        // A section: handlebars.java picks `each` for a list, `if` for a boolean, else `with`.
        var value = lookup(expression.name, in: scope) ?? .null
        if case .javaObject(let object) = value, let items = object.items { value = .list(items) }
        let sectionScope: TemplateScope
        switch value {
        case .list:
            sectionScope = scope
        case .bool(let flag):
            return try render(flag ? block.body : block.inverse, in: scope)
        default:
            sectionScope = TemplateScope(value: value, parent: scope, data: TemplateObject())
        }
        let call = TemplateHelperCall(
            name: expression.name.text,
            params: [value],
            hash: [:],
            context: sectionScope.value,
            isBlock: true,
            location: expression.location,
            session: self,
            scope: sectionScope,
            body: block.body,
            inverse: block.inverse,
            blockParams: block.blockParams
        )
        if case .list = value {
            return try TemplateBuiltinHelpers.each(call).printed
        }
        return try value.isFalsy ? call.renderInverse() : call.renderBody()
    }

    /// Calls `helper` with the arguments of `expression` evaluated in `scope`.
    private func call(
        _ helper: TemplateHelper,
        _ expression: TemplateExpression,
        isBlock: Bool,
        body: [TemplateNode],
        inverse: [TemplateNode],
        blockParams: [String],
        in scope: TemplateScope
    ) throws(TemplateRenderError) -> TemplateValue {
        var params: [TemplateValue] = []
        params.reserveCapacity(expression.params.count)
        for argument in expression.params { params.append(try evaluate(argument, in: scope)) }
        var hash: [String: TemplateValue] = [:]
        for argument in expression.hash { hash[argument.key] = try evaluate(argument.value, in: scope) }
        let call = TemplateHelperCall(
            name: expression.name.text,
            params: params,
            hash: hash,
            context: scope.value,
            isBlock: isBlock,
            location: expression.location,
            session: self,
            scope: scope,
            body: body,
            inverse: inverse,
            blockParams: blockParams,
            prepared: expression.prepared
        )
        let outerCharge = chargedByCurrentCall
        chargedByCurrentCall = 0
        defer { chargedByCurrentCall = outerCharge }
        let value: TemplateValue
        do {
            value = try helper.function(call)
        } catch let error as TemplateRenderError {
            throw error
        } catch {
            throw TemplateRenderError(
                location: expression.location,
                message: "helper '\(expression.name)' failed: \(error)"
            )
        }
        // The call, and what a helper returns: that counts even when it is then dropped or only
        // measured (`size`); a block's output was counted as it was rendered. The charge fails
        // too once an expression the helper ran has spent the budget.
        let made = isBlock ? 0 : max(value.workUnits - chargedByCurrentCall, 0)
        try charge(WorkBudget.Cost.helperCall + made, by: call, for: "its call and \(made) units of result")
        return value
    }

    /// The value of a parameter or hash value (`null` for a missing path).
    private func evaluate(
        _ argument: TemplateArgument,
        in scope: TemplateScope
    ) throws(TemplateRenderError) -> TemplateValue {
        switch argument {
        case .literal(let value):
            return value
        case .path(let path):
            return lookup(path, in: scope) ?? .null
        case .subexpression(let expression):
            guard let helper = helper(named: expression) else {
                throw TemplateRenderError(
                    location: expression.location,
                    message: "helper '\(expression.name)' is not implemented"
                )
            }
            return try call(helper, expression, isBlock: false, body: [], inverse: [], blockParams: [], in: scope)
        }
    }

    // MARK: Paths

    /// The result of following a path from one starting value: found, missing, or missing after
    /// the first segment was found (handlebars.java's `NULL`, which stops the walk up the contexts).
    private enum Resolution {
        case found(TemplateValue)
        case missing
        case stop
    }

    /// The value of `path` in `scope` (`nil` when missing or `null`), as `Context.get` finds it.
    func lookup(_ path: TemplatePath, in scope: TemplateScope) -> TemplateValue? {
        if scope.holdsBlockParams, let parent = scope.parent {
            if path.segments.count == 1 && path.text == "this" { return parent.value.isNull ? nil : parent.value }
            if path.segments.count > 1, path.text.hasPrefix(".") {
                return lookup(TemplatePath(segments: path.segments.dropFirst()), in: parent)
            }
        }
        if path.isLocal {
            if case .found(let value) = follow(path.segments[...], from: scope.value, in: scope) { return value }
            switch path.segments[0] {
            case .this, .current:
                return nil
            default:
                if case .found(let value) = follow(path.segments[...], from: .object(scope.data), in: nil) {
                    return value
                }
                return nil
            }
        }
        var current: TemplateScope? = scope
        while let level = current {
            // The context's value, then its data variables, then the shared data (`root`).
            switch follow(path.segments[...], from: level.value, in: level) {
            case .found(let value): return value
            case .stop: return nil
            case .missing: break
            }
            if level.data.count > 0 {
                switch follow(path.segments[...], from: .object(level.data), in: nil) {
                case .found(let value): return value
                case .stop: return nil
                case .missing: break
                }
            }
            switch follow(path.segments[...], from: .object(rootData), in: level) {
            case .found(let value): return value
            case .stop: return nil
            case .missing: break
            }
            current = level.parent
        }
        return nil
    }

    /// Follows `segments` from `start`; `scope` is the context `../` steps out of (`nil` when the
    /// start is a data map, which has no parent).
    private func follow(
        _ segments: ArraySlice<TemplatePath.Segment>,
        from start: TemplateValue,
        in scope: TemplateScope?
    ) -> Resolution {
        var value = start
        var consumed = 0
        for offset in segments.indices {
            let segment = segments[offset]
            let next: TemplateValue?
            switch segment {
            case .this:
                next = value
            case .current:
                next = value
            case .parentValue:
                next = scope?.parent.map { $0.value.isNull ? value : $0.value }
            case .parent:
                guard let parent = scope?.parent else { return consumed >= 1 ? .stop : .missing }
                let rest = TemplatePath(segments: segments[(offset + 1)...])
                if let found = lookup(rest, in: parent) { return .found(found) }
                return consumed >= 1 ? .stop : .missing
            case .property(let name):
                next = Self.property(name, of: value)
            case .index(let index, let key):
                if case .list(let items) = value {
                    next = items.indices.contains(index) ? items[index] : nil
                } else if case .javaObject(let object) = value, let items = object.items {
                    next = object.property(key) ?? (items.indices.contains(index) ? items[index] : nil)
                } else {
                    next = Self.property(key, of: value)
                }
            case .data(let name):
                next = Self.property("@" + name, of: value) ?? Self.property(name, of: value)
            }
            consumed += 1
            guard let next, !next.isNull else { return consumed > 1 ? .stop : .missing }
            value = next
        }
        return .found(value)
    }

    /// What a Java value resolver finds under `name`: a map's key, else the `size`/`length`/`empty`
    /// of a list, map or string (the methods handlebars.java's resolvers reach).
    private static func property(_ name: String, of value: TemplateValue) -> TemplateValue? {
        switch value {
        case .object(let object):
            if let found = object[name] { return found }
            switch name {
            case "size": return .integer(object.count)
            case "empty", "isEmpty": return .bool(object.count == 0)
            default: return nil
            }
        case .list(let items):
            switch name {
            case "size": return .integer(items.count)
            case "empty", "isEmpty": return .bool(items.isEmpty)
            default: return nil
            }
        case .string(let text), .safe(let text):
            switch name {
            case "length": return .integer(text.utf16.count)
            case "empty", "isEmpty": return .bool(text.isEmpty)
            default: return nil
            }
        case .javaObject(let object):
            if let found = object.property(name) { return found }
            guard let items = object.items else { return nil }
            switch name {
            case "size": return .integer(items.count)
            case "empty", "isEmpty": return .bool(items.isEmpty)
            default: return nil
            }
        case .number, .bool, .null:
            return nil
        }
    }
}
