import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// The few HTML pages Stratus serves itself — the sign-in page behind `redirectURL` and the page
/// a share URL opens — rendered with Mustache (values HTML-escaped), no script but the one that
/// posts a web auth token to the page that opened sign-in, at that page's registered origin only.
struct Pages: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { library.register(try MustacheTemplate(string: text), named: name) }
        self.library = library
    }

    /// The page `name` rendered with `values`, as an HTML answer.
    func response(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(values, withTemplate: name) ?? ""
        return Response(
            status: status, headers: [.contentType: "text/html; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    private static let head = """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Stratus</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}
        button,input{font:inherit;padding:.4rem .6rem;margin:.2rem 0}label{display:block;margin-top:.6rem}
        code{word-break:break-all}.error{color:#a00}</style></head><body>
        """

    static let templates: [(String, String)] = [
        ("signin", head + """
            <main><h1>Sign in to {{container}}</h1>
            {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
            {{#listsAccounts}}<p>Development server: choose an account.</p>
            <ul>{{#accounts}}<li><form method="post" action="/stratus/v1/auth/signin">
            <input type="hidden" name="container" value="{{container}}"><input type="hidden" name="email" value="{{email}}">
            <input type="hidden" name="callback" value="{{callback}}"><input type="hidden" name="origin" value="{{origin}}">
            <input type="hidden" name="ckAPIToken" value="{{apiToken}}">
            <button type="submit">{{name}} ({{email}})</button></form></li>{{/accounts}}</ul>{{/listsAccounts}}
            {{^listsAccounts}}<form method="post" action="/stratus/v1/auth/signin">
            <input type="hidden" name="callback" value="{{callback}}"><input type="hidden" name="origin" value="{{origin}}">
            <input type="hidden" name="ckAPIToken" value="{{apiToken}}">
            <label for="container">Container</label><input id="container" name="container" value="{{container}}" required>
            <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
            <p><button type="submit">Sign in</button></p></form>{{/listsAccounts}}</main></body></html>
            """),
        ("signedIn", head + """
            <main><h1>Signed in</h1><p>{{email}} is signed in to {{container}}.</p>
            <p>Web auth token (pass it as <code>ckWebAuthToken</code>):</p>
            <p><code id="token" data-token="{{token}}" data-origin="{{origin}}">{{token}}</code></p>
            <script>const shown = document.getElementById("token"), origin = shown.dataset.origin;
            if (window.opener && origin) { window.opener.postMessage({ ckWebAuthToken: shown.dataset.token }, origin); }</script></main></body></html>
            """),
        ("share", head + """
            <main><h1>{{#title}}{{title}}{{/title}}{{^title}}A shared item{{/title}}</h1>
            <p>Shared by {{ownerName}} in {{containerIdentifier}} ({{environment}}).</p>
            <p>{{#invitationOnly}}Only the people it was shared with can open it.{{/invitationOnly}}
            {{^invitationOnly}}Anyone signed in can join it.{{/invitationOnly}}</p>
            <h2>Accept it</h2><p>Sign in, then call:</p><p><code>{{accept}}</code></p>
            <p>Short GUID: <code>{{shortGUID}}</code></p></main></body></html>
            """),
    ]
}
