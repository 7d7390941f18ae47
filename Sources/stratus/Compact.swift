import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StratusModel

/// `stratus compact`: asks a running server to compact a zone (drop tombstones, expire older tokens).
struct Compact: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compact a zone on a running server.")

    @Option(help: "Server URL.") var server = "http://127.0.0.1:8080"
    @Option(help: "Admin token.") var adminToken: String
    @Option(help: "Container identifier.") var container: String
    @Option(help: "Environment.") var environment = "development"
    @Option(help: "Zone owner's user record name.") var owner: String
    @Option(help: "Zone name.") var zone: String

    func run() async throws {
        guard let environment = ContainerEnvironment(rawValue: environment) else {
            throw ValidationError("--environment must be development or production")
        }
        var request = HTTPClientRequest(url: "\(server)/stratus/v1/admin/zones/compact")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(adminToken)")
        let body = try JSONEncoder().encode(
            CompactZoneRequest(container: container, environment: environment, ownerRecordName: owner, zoneName: zone)
        )
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = try await response.body.collect(upTo: 1 << 20)
        print(String(buffer: text))
        guard response.status == .ok else { throw ExitCode.failure }
    }
}
