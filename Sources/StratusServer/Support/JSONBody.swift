import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationCompat
import StratusCore
import StratusModel

/// The body of a request that carries no parameters: any JSON object (or no body).
struct EmptyRequest: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        // Asking for a keyed container is what refuses arrays, strings, numbers and null.
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}

/// Reading request bodies and writing JSON responses the way CKWS does: bodies are JSON
/// whatever the Content-Type, an empty body reads as `{}`, responses are always
/// `application/json`.
enum JSONBody {
    /// Decodes the body as `T`, refusing bodies over `limit` bytes.
    /// - Throws: ``CoreError`` `BAD_REQUEST` for a body over the limit or one that is not valid JSON for `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw tooLarge(limit)
        }
        let bytes = buffer.readableBytes == 0 ? ByteBuffer(string: "{}") : buffer
        do {
            return try JSONDecoder().decode(T.self, from: bytes)
        } catch let error as DecodingError {
            throw CoreError.badRequest("malformed request: \(describe(error))")
        }
    }

    /// The refusal of a body over `limit` bytes.
    static func tooLarge(_ limit: Int) -> CoreError {
        CoreError.limitExceeded("request body exceeds the limit of \(limit) bytes")
    }

    /// A 200 response carrying `value` as JSON.
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, numbersAsStrings: Bool = false) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        if numbersAsStrings { encoder.userInfo[.numbersAsStrings] = true }
        let data = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    /// A short, client-safe account of what did not decode.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "body" : keys.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "body is not valid JSON" }
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing key '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "invalid body"
        }
    }
}
