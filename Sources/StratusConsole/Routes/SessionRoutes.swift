import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import StratusCore
import StratusModel

/// Signing in and out, the home page, and the console's static files.
struct SessionRoutes: Sendable {
    let console: Console

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("", use: home)
        group.post("sign-in", use: signIn)
        group.post("sign-out", use: signOut)
        group.get("static/console.css") { _, _ in Self.file(ConsoleStatic.css, type: "text/css; charset=UTF-8") }
        group.get("static/console.js") { _, _ in Self.file(ConsoleStatic.script, type: "text/javascript; charset=UTF-8") }
        // Any other console address: a readable page, not the API's JSON 404.
        group.get("**", use: console.page { _ in throw ConsoleFailure("There is no such console page.") })
    }

    /// Signed out: the sign-in form. Signed in: the accounts of a container.
    @Sendable private func home<Context: RequestContext>(_ request: Request, context: Context) async throws -> Response {
        guard let signedIn = try await console.consoleRequest(request, context) else {
            let local = console.sessions.localSignInToken != nil && Self.isLocal(request, context)
            return ConsoleViews.html(console.views.render(
                "signIn", ["title": "Sign in", "signedOut": request.uri.query == "signed-out", "localSignIn": local]
            ))
        }
        do {
            return try await BrowseRoutes(console: console).home(signedIn)
        } catch {
            let chrome = console.chrome(signedIn, place: nil)
            return console.views.page("message", title: "Not possible", ["message": ConsoleFailure.from(error).message], chrome: chrome)
        }
    }

    /// The admin token, checked, becomes a session; the token itself goes no further than memory.
    @Sendable private func signIn<Context: RequestContext>(_ request: Request, context: Context) async throws -> Response {
        let body = try await request.body.collect(upTo: console.services.configuration.limits.requestBytes)
        let form = FormFields(String(buffer: body))
        var token = form["adminToken"] ?? ""
        if form["local"] == "1", let offered = console.sessions.localSignInToken, Self.isLocal(request, context) { token = offered }
        var valid = false
        if !token.isEmpty {
            do { valid = try await console.services.identity.isAdmin(token: token) } catch { valid = false }
        }
        guard valid else {
            context.logger.notice("console: sign-in refused")
            let page = console.views.render("signIn", ["title": "Sign in", "error": "That is not an admin token of this server."])
            return ConsoleViews.html(page, status: .unauthorized)
        }
        let session = console.sessions.open(adminToken: token)
        context.logger.info("console: signed in")
        var response = Console.redirect("/console")
        response.setCookie(Cookie(
            name: ConsoleSessions.cookieName, value: session.id, path: "/console", secure: Console.scheme(of: request) == "https",
            httpOnly: true, sameSite: .strict
        ))
        return response
    }

    @Sendable private func signOut<Context: RequestContext>(_ request: Request, context: Context) async throws -> Response {
        if let signedIn = try await console.consoleRequest(request, context) {
            // Another page of the same site cannot sign the operator out: the form must be the console's.
            guard signedIn.form["formToken"] == signedIn.session.formToken else {
                console.sessions.setNotice(.init(text: "The form was stale; you are still signed in.", isError: true), for: signedIn.session.id)
                return Console.redirect("/console")
            }
            if let closed = console.sessions.close(signedIn.session.id) {
                await LiveRoutes.removeSubscriptions(of: closed, services: console.services)
            }
        }
        var response = Console.redirect("/console?signed-out")
        response.setCookie(Cookie(name: ConsoleSessions.cookieName, value: "", maxAge: 0, path: "/console", httpOnly: true, sameSite: .strict))
        return response
    }

    /// A browser on the server's own machine, asking for a loopback address, not through a proxy,
    /// from a page of the same host: what one-click sign-in is offered to (a development server's
    /// convenience). A proxy or tunnel on the same machine connects from loopback too; it gives
    /// itself away by forwarding headers or by the public host name it passes on.
    static func isLocal<Context: RequestContext>(_ request: Request, _ context: Context) -> Bool {
        let loopbackAddresses: Set<String> = ["127.0.0.1", "::1", "::ffff:127.0.0.1"]
        let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]", "::1"]
        guard let address = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress,
            loopbackAddresses.contains(address)
        else { return false }
        let forwarding = ["Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host", "X-Real-IP", "Via"]
        guard !forwarding.compactMap({ HTTPField.Name($0) }).contains(where: { request.headers[$0] != nil }) else { return false }
        guard let authority = request.head.authority, let host = URLComponents(string: "http://\(authority)")?.host,
            loopbackHosts.contains(host)
        else { return false }
        guard let origin = request.headers[.origin] else { return true }
        return loopbackHosts.contains(URLComponents(string: origin)?.host ?? "")
    }

    private static func file(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
