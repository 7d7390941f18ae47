import Foundation
import Hummingbird
import StratusCore
import StratusModel

/// `GET /stratus/v1/auth/signin?container=C[&ckAPIToken=T][&oauth_callback=URL][&origin=O]`: the
/// page a 421's `redirectURL` opens — every account to pick on a `--dev` server, email and password
/// otherwise. The `POST` signs in and hands the web auth token back as CloudKit JS's sign-in
/// expects, but only where the API token allows (``SignInTargets``): posted to the opening window
/// (`{ckWebAuthToken}`) when its origin — `origin`, else the `Referer` the page was opened from —
/// is registered, or a redirect to a registered callback URL with `?ckWebAuthToken=…`; the page
/// shows it too. A callback or origin the token does not allow answers 400 before anyone signs in.
struct SignInRoutes {
    let signIn: SignInService
    let pages: Pages

    /// The sign-in form's fields (other fields are ignored; a repeated one counts once).
    struct Form {
        var container: String
        var email: String
        var password: String?
        var callback: String?
        var origin: String?
        var apiToken: String?

        /// The fields of an `application/x-www-form-urlencoded` body, or `nil` without a container or email.
        init?(urlEncoded body: String) {
            let fields = URLEncodedFields.parse(body[...])
            guard let container = fields["container"], !container.isEmpty, let email = fields["email"], !email.isEmpty else { return nil }
            self.container = container
            self.email = email
            self.password = fields["password"]
            self.callback = fields["callback"].flatMap { $0.isEmpty ? nil : $0 }
            self.origin = fields["origin"].flatMap { $0.isEmpty ? nil : $0 }
            self.apiToken = fields["ckAPIToken"].flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// What the page carries from its URL to the form it posts.
    struct Carried {
        var container = ""
        var callback = ""
        var origin = ""
        var apiToken = ""
    }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("auth/signin", use: page)
        group.post("auth/signin", use: submit)
    }

    @Sendable private func page(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        var carried = Carried(
            container: query["container"].map(String.init) ?? "",
            callback: (query["oauth_callback"] ?? query["callback"]).map(String.init) ?? "",
            origin: query["origin"].map(String.init) ?? "",
            apiToken: query["ckAPIToken"].map(String.init) ?? ""
        )
        if carried.origin.isEmpty, !carried.container.isEmpty, let referer = request.headers[.referer].flatMap(SignInTargets.normalizedOrigin) {
            // The page that opened sign-in, when the token may go there; any other referrer (a
            // link from elsewhere) only means nothing is posted.
            let targets = try? await signIn.targets(apiToken: carried.apiToken, container: carried.container)
            if targets?.allowsOrigin(referer) == true { carried.origin = referer }
        }
        return try await form(carried, error: nil)
    }

    @Sendable private func submit(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        guard let form = Form(urlEncoded: String(buffer: body)) else {
            return try await self.form(Carried(), error: "Fill in the container and the email.", status: .badRequest)
        }
        let carried = Carried(container: form.container, callback: form.callback ?? "", origin: form.origin ?? "", apiToken: form.apiToken ?? "")
        // Where the token may go is settled before anyone signs in: a refused target mints nothing.
        // (Results, not `catch where`: Swift 6.3's SIL cleanup crashes on a filtered typed catch here.)
        let checked: Result<SignInTargets, CoreError>
        do { checked = .success(try await signIn.targets(apiToken: form.apiToken, container: form.container)) } catch { checked = .failure(error) }
        let targets: SignInTargets
        switch checked {
        case .success(let found): targets = found
        case .failure(let error): return try await self.form(carried, error: error.reason, status: error.code == .notFound ? .notFound : .badRequest)
        }
        if let callback = form.callback, !targets.allowsCallback(callback) {
            return try await self.form(carried, error: "The callback URL \(callback) is not registered for this API token.", status: .badRequest)
        }
        let origin = form.origin.flatMap(SignInTargets.normalizedOrigin)
        if let origin, !targets.allowsOrigin(origin) {
            return try await self.form(carried, error: "The page at \(origin) is not an allowed origin of this API token.", status: .badRequest)
        }
        let result: Result<CreateWebAuthTokenResponse, CoreError>
        do {
            result = .success(try await signIn.signIn(email: form.email, password: form.password, container: form.container))
        } catch {
            result = .failure(error)
        }
        let signedIn: CreateWebAuthTokenResponse
        switch result {
        case .success(let answer): signedIn = answer
        case .failure(let error) where error.code == .authenticationFailed:
            return try await self.form(carried, error: error.reason, status: .unauthorized)
        case .failure(let error): throw error
        }
        if let callback = form.callback, let target = Self.redirect(callback, token: signedIn.webAuthToken) {
            return Response(status: .seeOther, headers: [.location: target])
        }
        var values: [String: Any] = ["email": form.email, "container": form.container, "token": signedIn.webAuthToken]
        if let origin { values["origin"] = origin }
        return pages.response("signedIn", values)
    }

    private func form(_ carried: Carried, error: String?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let accounts = try await signIn.accounts().map { account -> [String: Any] in
            let name = [account.givenName, account.familyName].compactMap { $0 }.joined(separator: " ")
            return ["email": account.email, "name": name.isEmpty ? account.email : name]
        }
        var values: [String: Any] = [
            "title": "Sign in", "container": carried.container, "callback": carried.callback, "origin": carried.origin,
            "apiToken": carried.apiToken, "listsAccounts": signIn.listsAccounts, "accounts": accounts,
        ]
        if let error { values["error"] = error }
        return pages.response("signin", values, status: status)
    }

    /// The callback URL with the token added, for http(s) callbacks only.
    static func redirect(_ callback: String, token: String) -> String? {
        guard var components = URLComponents(string: callback), ["http", "https"].contains(components.scheme?.lowercased() ?? "") else {
            return nil
        }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "ckWebAuthToken", value: token)]
        // `+` and `/` of the Base64 token must arrive intact.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
        return components.string
    }
}
