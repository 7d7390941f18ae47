import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusModel

/// How every Stratus route reads its body, as CKWS does: JSON whatever the Content-Type, an empty
/// body read as `{}`, a body over the context's `maxUploadSize` refused. A type the fast path
/// knows (``JSONReadable``: records/modify) is read by ``JSONReader``; `JSONDecoder` reads the rest
/// and words every refusal. The request context owns it, as Hummingbird's contexts own theirs.
public struct WireRequestDecoder: RequestDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await JSONBody.collect(request, limit: context.maxUploadSize)
        if let readable = T.self as? any JSONReadable.Type, let value = Self.read(readable, from: buffer) as? T { return value }
        return try JSONBody.decode(T.self, from: buffer)
    }

    private static func read<R: JSONReadable>(_ type: R.Type, from buffer: ByteBuffer) -> R? {
        buffer.withUnsafeReadableBytes { JSONReader.read(R.self, from: $0) }
    }
}

/// How every Stratus route writes its answer: `application/json`, slashes unescaped, in the
/// extensions the request asked for (`X-Stratus-Extensions`); a type the fast path knows
/// (``JSONWritable``: records answers) is written by ``JSONWriter``, the same JSON `JSONEncoder`
/// would write. The request context owns the default one; an answer with other options carries
/// its own (``WireAnswer``).
public struct WireResponseEncoder: ResponseEncoder {
    /// Numbers (`INT64`, `DOUBLE`) as strings, as a CKWS client may ask in its request.
    public var numbersAsStrings = false

    public init(numbersAsStrings: Bool = false) {
        self.numbersAsStrings = numbersAsStrings
    }

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try JSONBody.response(value, numbersAsStrings: numbersAsStrings, extensions: WireExtensions(request))
    }
}

/// A route's answer: `value` as JSON with this status, written by the request context's encoder,
/// or by one with the options the request's body asked for (`numbersAsStrings`).
struct WireAnswer<Value: Encodable>: ResponseGenerator {
    let value: Value
    var status: HTTPResponse.Status = .ok
    /// `nil`: the context's encoder.
    var numbersAsStrings: Bool?

    init(_ value: Value, status: HTTPResponse.Status = .ok, numbersAsStrings: Bool? = nil) {
        self.value = value
        self.status = status
        self.numbersAsStrings = numbersAsStrings
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response: Response
        if let numbersAsStrings {
            response = try WireResponseEncoder(numbersAsStrings: numbersAsStrings).encode(value, from: request, context: context)
        } else {
            response = try context.responseEncoder.encode(value, from: request, context: context)
        }
        response.status = status
        return response
    }
}
