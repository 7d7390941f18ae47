import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore
import StratusModel

/// The console at `/console`: server-rendered pages over Core's services (the ones the HTTP
/// routes call), signed in with the admin token, acting as any account.
///
/// Signing in trades the admin token for a session cookie (`HttpOnly`, `SameSite=Strict`, path
/// `/console`); the token stays in the server's memory, never in a URL, a page or the log. Every
/// form echoes the session's form token. `stratus serve` and the test servers mount it with
/// ``register(on:)``.
public struct Console: Sendable {
    let services: StratusServices
    let sessions: ConsoleSessions
    let views: ConsoleViews

    public init(services: StratusServices) throws {
        self.services = services
        self.sessions = ConsoleSessions()
        self.views = try ConsoleViews()
    }

    /// A development server on loopback offers the browsers of its own machine a one-click sign-in
    /// with this admin token (`stratus serve --dev` calls it once it has seeded the token).
    public func offerLocalSignIn(adminToken: String) {
        sessions.offerLocalSignIn(adminToken: adminToken)
    }

    /// Adds every console route to `router`.
    public func register<Context: RequestContext>(on router: Router<Context>) {
        // The server's front door: a browser opening the server's address lands on the console.
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/console"]) }
        let console = router.group("console")
        SessionRoutes(console: self).register(on: console)
        BrowseRoutes(console: self).register(on: console)
        RecordRoutes(console: self).register(on: console)
        ShareRoutes(console: self).register(on: console)
        LiveRoutes(console: self).register(on: console)
        TimelineRoutes(console: self).register(on: console)
        RequestsRoutes(console: self).register(on: console)
        ControlRoutes(console: self).register(on: console)
        SchemaFileRoutes(console: self).register(on: console)
        DataRoutes(console: self).register(on: console)
    }

    // MARK: - Requests

    /// What a signed-in page handler answers to; `nil` without a live session.
    func consoleRequest<Context: RequestContext>(_ request: Request, _ context: Context) async throws -> ConsoleRequest? {
        guard let session = sessions.session(request.cookies[ConsoleSessions.cookieName]?.value) else { return nil }
        let stillAdmin: Bool
        do { stillAdmin = try await services.identity.isAdmin(token: session.adminToken) } catch { stillAdmin = false }
        guard stillAdmin else {
            sessions.close(session.id)
            return nil
        }
        var form = FormFields(nil)
        var bodyRefused = false
        if request.method == .post {
            do {
                form = FormFields(String(buffer: try await request.body.collect(upTo: services.configuration.limits.requestBytes)))
            } catch {
                bodyRefused = true
            }
        }
        return ConsoleRequest(
            request: request, session: session, parameters: context.parameters, query: FormFields(request.uri.query), form: form,
            origin: "\(Self.scheme(of: request))://\(request.head.authority ?? "127.0.0.1")", bodyRefused: bodyRefused
        )
    }

    /// `https` when a proxy in front says the browser used it (`X-Forwarded-Proto`), else `http`.
    static func scheme(of request: Request) -> String {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https" ? "https" : "http"
    }

    /// A signed-in page: signed out, the browser goes to the sign-in form; a failure is shown as a message.
    func page<Context: RequestContext>(
        _ body: @escaping @Sendable (ConsoleRequest) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            guard let console = try await consoleRequest(request, context) else { return Self.redirect("/console") }
            do {
                return try await body(console)
            } catch {
                let chrome = chrome(console, place: try? console.place())
                return views.page(
                    "message", title: "Not possible", ["message": ConsoleFailure.from(error).message, "back": "/console"], chrome: chrome,
                    status: .badRequest
                )
            }
        }
    }

    /// A form's action: carried out, then back to a page with what happened as a notice (the
    /// form's `back` page when it failed). A form without the session's form token changes nothing.
    func action<Context: RequestContext>(
        _ body: @escaping @Sendable (ConsoleRequest) async throws -> (notice: String, next: String)
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            guard let console = try await consoleRequest(request, context) else { return Self.redirect("/console") }
            let back = Self.safePath(console.form["back"]) ?? "/console"
            guard !console.bodyRefused else {
                let limit = services.configuration.limits.requestBytes
                sessions.setNotice(.init(text: "The form is larger than \(limit) bytes; nothing changed.", isError: true), for: console.session.id)
                return Self.redirect(back)
            }
            guard console.form["formToken"] == console.session.formToken else {
                sessions.setNotice(.init(text: "The form was stale; nothing changed. Try again.", isError: true), for: console.session.id)
                return Self.redirect(back)
            }
            do {
                let outcome = try await body(console)
                sessions.setNotice(.init(text: outcome.notice, isError: false), for: console.session.id)
                return Self.redirect(Self.safePath(outcome.next) ?? back)
            } catch {
                sessions.setNotice(.init(text: ConsoleFailure.from(error).message, isError: true), for: console.session.id)
                sessions.setRefusedForm(console.form.typed, for: console.session.id)
                return Self.redirect(back)
            }
        }
    }

    /// A piece of a page a script fetches: signed out answers 401; a failure is an alert in the fragment.
    func fragment<Context: RequestContext>(
        _ body: @escaping @Sendable (ConsoleRequest) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            guard let console = try await consoleRequest(request, context) else {
                return ConsoleViews.html("<p class=\"notice error\" role=\"alert\">Signed out.</p>", status: .unauthorized)
            }
            if request.method == .post, console.form["formToken"] != console.session.formToken {
                return ConsoleViews.html(views.render("message", ["message": "The form was stale; nothing changed."]), status: .forbidden)
            }
            do {
                return try await body(console)
            } catch {
                return ConsoleViews.html(views.render("message", ["message": ConsoleFailure.from(error).message]), status: .badRequest)
            }
        }
    }

    /// The layout's values for a page at `place`, with the session's pending notice.
    func chrome(_ request: ConsoleRequest, place: Place?, crumbs: [(label: String, href: String)] = []) -> PageChrome {
        PageChrome(
            formToken: request.session.formToken, notice: sessions.takeNotice(request.session.id),
            refusedForm: sessions.takeRefusedForm(request.session.id),
            container: place?.container ?? request.query["container"] ?? DevSeeder.container,
            environment: (place?.environment ?? ContainerEnvironment(rawValue: request.query["environment"] ?? "") ?? .development).rawValue,
            crumbs: crumbs
        )
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// A path inside the console, or `nil` (never another site).
    static func safePath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/console"), !path.hasPrefix("//"), !path.contains("\\") else { return nil }
        return path
    }
}
