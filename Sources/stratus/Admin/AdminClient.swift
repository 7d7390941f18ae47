import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel
import ArgumentParser

/// Calls a running server's admin API (`/stratus/v1/admin/…`) with the admin token, prints the
/// JSON answer, and fails the command on anything but 200 or 201.
struct AdminClient {
    let server: String
    let adminToken: String
    /// Print answers as JSON (one line, sorted keys) rather than for people (``AdminOutput``).
    var json = false

    func post<Body: Encodable>(_ path: String, _ body: Body) async throws {
        try await send(.POST, path, body: ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }

    func get(_ path: String) async throws { try await send(.GET, path, body: nil) }

    func delete(_ path: String) async throws { try await send(.DELETE, path, body: nil) }

    /// A GET whose answer the command reads rather than prints.
    func fetch<Answer: Decodable>(_ path: String, as: Answer.Type) async throws -> Answer {
        try await read(.GET, path, body: nil)
    }

    /// A GET whose answer is text the command passes on as it is (a schema file); a refusal is
    /// printed to standard error and fails the command.
    func text(_ path: String) async throws -> String {
        let (status, answer) = try await exchange(.GET, path, body: nil)
        guard status == .ok else {
            FileHandle.standardError.write(Data("\(path): \(String(buffer: answer))\n".utf8))
            throw ExitCodeError()
        }
        return String(buffer: answer)
    }

    /// A POST whose answer the command reads rather than prints.
    func call<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, as: Answer.Type) async throws -> Answer {
        try await read(.POST, path, body: ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }

    /// Prints the answer; fails the command on anything but 200 or 201.
    private func send(_ method: HTTPMethod, _ path: String, body: ByteBuffer?) async throws {
        let (status, text) = try await exchange(method, path, body: body)
        print(AdminOutput.render(Data(buffer: text), json: json))
        guard status == .ok || status == .created else { throw ExitCodeError() }
    }

    /// Decodes the answer; a refusal is printed to standard error and fails the command.
    private func read<Answer: Decodable>(_ method: HTTPMethod, _ path: String, body: ByteBuffer?) async throws -> Answer {
        switch try await attempt(method, path, body: body, as: Answer.self) {
        case .success(let answer): return answer
        case .failure(let refusal):
            FileHandle.standardError.write(Data("\(path): \(refusal.text)\n".utf8))
            throw ExitCodeError()
        }
    }

    /// A POST whose refusal the command words itself: the answer, or the server's error body.
    func attempt<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body, as: Answer.Type) async throws -> Result<Answer, AdminRefusal> {
        try await attempt(.POST, path, body: ByteBuffer(bytes: try JSONEncoder().encode(body)), as: Answer.self)
    }

    private func attempt<Answer: Decodable>(_ method: HTTPMethod, _ path: String, body: ByteBuffer?, as: Answer.Type) async throws
        -> Result<Answer, AdminRefusal>
    {
        let (status, text) = try await exchange(method, path, body: body)
        guard status == .ok || status == .created else {
            return .failure(AdminRefusal(text: String(buffer: text), error: try? JSONDecoder().decode(ErrorBody.self, from: text)))
        }
        return .success(try JSONDecoder().decode(Answer.self, from: text))
    }

    private func exchange(_ method: HTTPMethod, _ path: String, body: ByteBuffer?) async throws -> (HTTPResponseStatus, ByteBuffer) {
        try await checkListening()
        var request = HTTPClientRequest(url: "\(server)/stratus/v1/admin/\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(adminToken)")
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (response.status, try await response.body.collect(upTo: 16 << 20))
    }
}

extension AdminClient {
    /// Fails at once, in a sentence, when nothing answers at `server` (the HTTP client would
    /// otherwise keep retrying the connection until its deadline).
    func checkListening() async throws {
        do {
            _ = try await HTTPClient.shared.execute(HTTPClientRequest(url: "\(server)/stratus/v1/health"), timeout: .seconds(3))
        } catch {
            FileHandle.standardError.write(Data("no Stratus server answers at \(server); start one with `stratus serve`\n".utf8))
            throw ExitCodeError()
        }
    }

    /// Runs an admin call as a command: a refused call exits 1 (its answer already printed).
    static func run(_ call: () async throws -> Void) async throws {
        do { try await call() } catch is ExitCodeError { throw ExitCode.failure }
    }
}

/// A failed admin call: the answer was printed, the command exits 1.
struct ExitCodeError: Error {}

/// The admin API's refusal: its body as text, and as CloudKit's error body when it is one.
struct AdminRefusal: Error {
    let text: String
    let error: ErrorBody?
}
