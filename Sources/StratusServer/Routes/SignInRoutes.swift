import Foundation
import Hummingbird
import StratusCore
import StratusModel

/// `GET /stratus/v1/auth/signin?container=C[&oauth_callback=URL]`: the page a 421's `redirectURL`
/// opens — every account to pick on a `--dev` server, email and password otherwise. The `POST`
/// signs in and hands the web auth token back as CloudKit JS's sign-in expects: posted to the
/// opening window (`{ckWebAuthToken}`), or, with a callback URL, a redirect to it with
/// `?ckWebAuthToken=…`; the page shows it too.
struct SignInRoutes {
    let signIn: SignInService
    let pages: Pages
    let limit: Int

    /// The sign-in form's fields (other fields are ignored; a repeated one counts once).
    struct Form {
        var container: String
        var email: String
        var password: String?
        var callback: String?

        /// The fields of an `application/x-www-form-urlencoded` body, or `nil` without a container or email.
        init?(urlEncoded body: String) {
            let fields = URLEncodedFields.parse(body[...])
            guard let container = fields["container"], !container.isEmpty, let email = fields["email"], !email.isEmpty else { return nil }
            self.container = container
            self.email = email
            self.password = fields["password"]
            self.callback = fields["callback"]
        }
    }

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("auth/signin", use: page)
        group.post("auth/signin", use: submit)
    }

    @Sendable private func page(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        return try await form(
            container: query["container"].map(String.init) ?? "", callback: (query["oauth_callback"] ?? query["callback"]).map(String.init) ?? "",
            error: nil
        )
    }

    @Sendable private func submit(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: limit)
        guard let form = Form(urlEncoded: String(buffer: body)) else {
            return try await self.form(container: "", callback: "", error: "Fill in the container and the email.", status: .badRequest)
        }
        let callback = form.callback.flatMap { $0.isEmpty ? nil : $0 }
        let result: Result<CreateWebAuthTokenResponse, CoreError>
        do {
            result = .success(try await signIn.signIn(email: form.email, password: form.password, container: form.container))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let signedIn):
            if let callback, let target = Self.redirect(callback, token: signedIn.webAuthToken) {
                return Response(status: .seeOther, headers: [.location: target])
            }
            return pages.response("signedIn", ["email": form.email, "container": form.container, "token": signedIn.webAuthToken])
        case .failure(let error) where error.code == .authenticationFailed:
            return try await self.form(container: form.container, callback: callback ?? "", error: error.reason, status: .unauthorized)
        case .failure(let error):
            throw error
        }
    }

    private func form(container: String, callback: String, error: String?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let accounts = try await signIn.accounts().map { account -> [String: Any] in
            let name = [account.givenName, account.familyName].compactMap { $0 }.joined(separator: " ")
            return ["email": account.email, "name": name.isEmpty ? account.email : name]
        }
        var values: [String: Any] = [
            "title": "Sign in", "container": container, "callback": callback, "listsAccounts": signIn.listsAccounts, "accounts": accounts,
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
