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

/// The JSON the request context's coders (``WireRequestDecoder``, ``WireResponseEncoder``) read
/// and write, and the words of their refusals: bodies are JSON whatever the Content-Type, an empty
/// body reads as `{}`, responses are always `application/json`.
enum JSONBody {
    /// The whole body, refused (`LIMIT_EXCEEDED`) over `limit` bytes.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch {
            throw tooLarge(limit)
        }
    }

    /// Decodes `buffer` as `T` with `JSONDecoder`; an empty body reads as `{}`.
    /// - Throws: ``CoreError`` `BAD_REQUEST` for a body that is not valid JSON for `T`.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
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

    /// A response carrying `value` as JSON: written by ``JSONWriter`` for a ``JSONWritable``
    /// (records answers: the hot path), by `JSONEncoder` otherwise; the same JSON either way.
    static func response(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, numbersAsStrings: Bool = false, extensions: WireExtensions = []
    ) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        let body: ByteBuffer
        if let writable = value as? any JSONWritable {
            body = ByteBuffer(bytes: try writable.jsonBytes(numbersAsStrings: numbersAsStrings, escapesSlashes: false, extensions: extensions))
        } else {
            body = try encode(value, numbersAsStrings: numbersAsStrings, extensions: extensions)
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    /// `value` as the server writes JSON (slashes unescaped).
    static func encode<T: Encodable>(_ value: T, numbersAsStrings: Bool = false, extensions: WireExtensions = []) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        if numbersAsStrings { encoder.userInfo[.numbersAsStrings] = true }
        if !extensions.isEmpty { encoder.userInfo[.wireExtensions] = extensions }
        return ByteBuffer(data: try encoder.encode(value))
    }

    /// What did not decode, in the caller's terms: which key, and what was expected there
    /// (never Swift's type names).
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            var text = ""
            for key in context.codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : "." + key.stringValue }
            }
            return text.isEmpty ? "the body" : "key '\(text)'"
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "\(path(context)): \(invalidValue(context.debugDescription))"
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return parent == "the body" ? "missing key '\(key.stringValue)'" : "\(parent): missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            // Our own decoders say what they expected; Foundation's name Swift types.
            guard context.debugDescription.hasPrefix("Expected to decode") else { return "\(path(context)): \(context.debugDescription)" }
            return "\(path(context)): expected \(jsonKind(of: type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(jsonKind(of: type)), found null"
        @unknown default:
            return "the body is not valid"
        }
    }

    /// A Swift type as the JSON a client would send for it.
    private static func jsonKind(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") { return "an object" }
        if name == "String" { return "a string" }
        if name == "Bool" { return "true or false" }
        if ["Int", "Int64", "Int32", "Double", "Float", "UInt", "UInt64"].contains(name) { return "a number" }
        return "an object"
    }

    /// Foundation's account of a value that fit no case, without the Swift type it names.
    private static func invalidValue(_ description: String) -> String {
        // "Cannot initialize RecordOperationType from invalid String value upsert"
        if let range = description.range(of: "from invalid String value ") {
            return "'\(description[range.upperBound...])' is not one of the accepted values"
        }
        if description.hasPrefix("Expected to decode") || description.contains("Swift.") { return "invalid value" }
        return description
    }
}
