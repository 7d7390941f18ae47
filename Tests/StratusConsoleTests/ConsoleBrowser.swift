import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusServerTesting
import Testing

/// A minimal browser for the console's HTTP tests: keeps the session cookie, reads each page's
/// form token, posts forms URL-encoded and follows the redirect an action answers.
struct ConsoleBrowser {
    let server: TestServer
    var cookie: String?
    var formToken: String?

    init(_ server: TestServer) { self.server = server }

    /// Signs in with `token` (the server's admin token by default).
    mutating func signIn(_ token: String? = nil) async throws -> TestResponse {
        let response = try await server.client.execute(
            uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: "adminToken=\(token ?? server.credentials.adminToken)")
        )
        if let setCookie = response.headers[.setCookie], let value = setCookie.split(separator: ";").first {
            cookie = String(value)
        }
        return response
    }

    /// GETs a console page (not following a redirect), remembering its form token.
    mutating func get(_ path: String) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = cookie }
        let response = try await server.client.execute(uri: path, method: .get, headers: headers, body: nil)
        if let token = Self.formToken(in: response.text) { formToken = token }
        return response
    }

    /// Posts a form (with the page's form token unless `formToken` is given) and, for a redirect, GETs where it leads.
    mutating func post(_ path: String, _ fields: [(String, String)], formToken: String? = nil, follow: Bool = true) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let cookie { headers[.cookie] = cookie }
        let all = fields + [("formToken", formToken ?? self.formToken ?? "")]
        let body = all.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        let response = try await server.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        guard follow, response.status == .seeOther, let location = response.headers[.location] else { return response }
        return try await get(location)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func formToken(in html: String) -> String? {
        guard let range = html.range(of: #"name="formToken" value="([0-9a-f]+)""#, options: .regularExpression) else { return nil }
        return html[range].split(separator: "\"").dropFirst(3).first.map(String.init)
    }

    /// The `href` of the first link whose text contains `text`.
    static func link(_ text: String, in html: String) -> String? {
        let pattern = #"<a href="([^"]+)">([^<]*)</a>"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        let range = NSRange(html.startIndex..., in: html)
        for match in expression.matches(in: html, range: range) {
            guard let hrefRange = Range(match.range(at: 1), in: html), let textRange = Range(match.range(at: 2), in: html) else { continue }
            if html[textRange].contains(text) { return String(html[hrefRange]).replacingOccurrences(of: "&amp;", with: "&") }
        }
        return nil
    }
}
