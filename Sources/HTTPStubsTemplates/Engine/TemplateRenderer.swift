import HTTPStubs

/// Renders parsed templates against a context, with a table of helpers: the per-request half of
/// templating (parse once at load with ``TemplateParser``, render here per request).
///
/// Rendering follows handlebars.java 4.x as WireMock configures it; see ``TemplateRenderSession``
/// for how tags, blocks and paths behave. A rendering holds no lock and shares no mutable state,
/// so one renderer can serve many requests at once.
struct TemplateRenderer: Sendable {
    /// The helpers by name. ``TemplateBuiltinHelpers/all`` are handlebars.java's built-ins
    /// (`if`, `unless`, `each`, `with`, `lookup`, `log`); callers add their own.
    let helpers: [String: TemplateHelper]
    /// The bounds on each rendering.
    let limits: TemplateRenderLimits

    /// A renderer with `helpers` (by default the built-ins) and `limits`.
    init(helpers: [String: TemplateHelper] = TemplateBuiltinHelpers.all, limits: TemplateRenderLimits = .standard) {
        self.helpers = helpers
        self.limits = limits
    }

    /// `template` rendered with `context` as the root `this`; helpers read the clock and the random
    /// source from `environment`. Helpers charge the ``WorkBudget/current`` budget (a response's,
    /// which ``TemplatedResponse`` installs), or one of its own installed for this rendering.
    func render(
        _ template: Template,
        context: TemplateValue,
        environment: TemplateEnvironment = .system
    ) throws(TemplateRenderError) -> String {
        let rendered = WorkBudget.metering { budget in
            Result { () throws(TemplateRenderError) in
                let session = TemplateRenderSession(
                    helpers: helpers,
                    limits: limits,
                    root: context,
                    environment: environment,
                    budget: budget
                )
                return try session.render(
                    template.nodes,
                    in: session.rootScope,
                    outputCapacity: template.outputCapacity
                )
            }
        }
        return try rendered.get()
    }
}
