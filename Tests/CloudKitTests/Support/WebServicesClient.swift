import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A strict CloudKit Web Services client, as an existing CKWS client reads a Stratus server:
/// plain HTTP with the dev credentials' tokens, no Stratus header, answers read key by key.
struct WebServicesClient {
    let base: String
    let query: String

    /// As `account` of the server's default container.
    init(_ server: DevServer, account: String) throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: server.credentials)) as? [String: Any] ?? [:]
        let accounts = json["accounts"] as? [[String: Any]] ?? []
        let token = accounts.first { $0["name"] as? String == account }?["webAuthToken"] as? String ?? ""
        base = "http://127.0.0.1:\(server.port)/database/1/\(server.containerIdentifier)/development/private"
        query = "ckAPIToken=\(json["apiToken"] as? String ?? "")&ckWebAuthToken=\(token)"
    }

    /// POSTs `body` to `operation` and answers the JSON object it returns.
    func post(_ operation: String, _ body: [String: Any]) async throws -> [String: Any] {
        guard let url = URL(string: "\(base)/\(operation)?\(query)") else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
