import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// The console's Mustache templates, parsed once: a page is its template rendered into the
/// layout (navigation, notice, sign-out). Every `{{value}}` is HTML-escaped; only the layout's
/// `{{{body}}}` is not, and it holds a rendered template.
struct ConsoleViews: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { library.register(try MustacheTemplate(string: text), named: name) }
        self.library = library
    }

    static var templates: [(String, String)] {
        LayoutTemplates.all + BrowseTemplates.all + RecordTemplates.all + ShareTemplates.all + LiveTemplates.all + ControlTemplates.all
    }

    /// A template rendered on its own (a fragment a script fetches).
    func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    /// A whole page: `name` rendered inside the layout.
    func page(
        _ name: String, title: String, _ values: [String: Any], chrome: PageChrome, status: HTTPResponse.Status = .ok
    ) -> Response {
        var layout = chrome.values
        layout["title"] = title
        var body = values.merging(["formToken": chrome.formToken]) { current, _ in current }
        // A refused save comes back with what was typed in it.
        if let refused = chrome.refusedForm { body.merge(SaveFormValues.values(refused: refused)) { _, typed in typed } }
        layout["body"] = render(name, body)
        return Self.html(render("layout", layout), status: status)
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=UTF-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Scripts and styles only from the console itself; images from this server (asset downloads) or data URLs.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"
}

/// What the layout around every page needs: the form token, the notice, where the navigation points.
struct PageChrome: Sendable {
    var formToken: String
    var notice: ConsoleSession.Notice?
    /// The fields of the form the server just refused, to show again.
    var refusedForm: [String: String]?
    var container: String
    var environment: String
    /// Breadcrumb links, outermost first.
    var crumbs: [(label: String, href: String)] = []

    var values: [String: Any] {
        let base = "/console/c/\(QueryText.encode(container))"
        var values: [String: Any] = [
            "formToken": formToken,
            "home": "/console?" + QueryText.join([("container", container), ("environment", environment)]),
            "sideBySide": "\(base)/\(environment)/side-by-side",
            "timeline": "\(base)/\(environment)/timeline",
            "requests": "\(base)/\(environment)/requests",
            "schema": "\(base)/\(environment)/schema",
            "faults": "\(base)/\(environment)/faults",
            "accounts": "\(base)/\(environment)/accounts",
            "data": "\(base)/\(environment)/data",
            "container": container,
            "environment": environment,
        ]
        if let notice { values["notice"] = ["text": notice.text, "isError": notice.isError] }
        if !crumbs.isEmpty { values["crumbs"] = crumbs.map { ["label": $0.label, "href": $0.href] } }
        return values
    }
}
