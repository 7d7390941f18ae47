import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore
import StratusModel

/// The bytes of assets, on the URLs `assets/upload` and fetched records hand out:
/// - `POST` (or `PUT`) `/stratus/v1/assets/upload/{ticket}`: the raw bytes, streamed to disk
///   (never collected whole), answered `{"singleFile": {…}}`.
/// - `GET` (or `HEAD`) `/stratus/v1/assets/download/{ticket}/{file}`: the bytes, with `Content-Length`,
///   an `ETag` (the checksum), `If-None-Match` and single `Range` requests. A download URL ends in
///   Apple's `${f}` file-name placeholder: `{file}` is any name a client put there, or the
///   placeholder itself (sent as is or percent-encoded); `…/download/{ticket}` alone serves too.
/// The signed ticket in the path is the credential. Registered before the body deadline
/// middleware, which would read a body whole: the upload keeps its own deadline.
struct AssetTransferRoutes {
    let assets: AssetService
    /// How long an upload may take to arrive.
    let uploadTimeout: Duration
    let files = FileIO()

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("assets/upload/:ticket", use: upload)
        group.put("assets/upload/:ticket", use: upload)
        group.get("assets/download/:ticket", use: download)
        group.head("assets/download/:ticket", use: download)
        // The file name only names the download: the ticket alone decides what is served.
        group.get("assets/download/:ticket/:file", use: download)
        group.head("assets/download/:ticket/:file", use: download)
    }

    @Sendable private func upload(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let ticket = try context.parameters.require("ticket")
        let declared = request.headers[.contentLength].flatMap { Int64($0) }
        let admitted: AdmittedUpload
        do {
            admitted = try await assets.admit(ticket: ticket, declaredLength: declared)
        } catch {
            // Refused before a byte was read: a small body is read and dropped, so the
            // connection serves on; a large or unknown one is left unread and the connection closes.
            if let declared, declared <= drainLimit {
                for try await _ in request.body {}
                return ErrorMiddleware<StratusRequestContext>.response(for: error, requestID: context.id, extensions: WireExtensions(request))
            }
            return Self.closing(ErrorMiddleware<StratusRequestContext>.response(for: error, requestID: context.id, extensions: WireExtensions(request)))
        }
        let result: AssetUploadResult
        do {
            result = try await assets.receive(admitted, bytes: request.body, deadline: .now + uploadTimeout)
        } catch {
            // What is left of a refused body is not read: the connection closes after the answer.
            return Self.closing(ErrorMiddleware<StratusRequestContext>.response(for: error, requestID: context.id, extensions: WireExtensions(request)))
        }
        return try WireAnswer(result).response(from: request, context: context)
    }

    /// The largest refused body read (and dropped) to keep its connection.
    private let drainLimit: Int64 = 2 << 20

    private static func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }

    @Sendable private func download(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let blob = try await assets.download(ticket: try context.parameters.require("ticket"))
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        headers[.eTag] = "\"\(blob.checksum)\""
        headers[.acceptRanges] = "bytes"
        headers[.cacheControl] = "private, max-age=3600"
        if request.headers[.ifNoneMatch].map({ $0.contains(blob.checksum) }) == true {
            return Response(status: .notModified, headers: headers)
        }
        let size = Int(blob.size)
        var status = HTTPResponse.Status.ok
        var range = 0...max(size - 1, 0)
        if let header = request.headers[.range] {
            switch ByteRange(header, size: size) {
            case .whole: break
            case .part(let part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
        }
        headers[.contentLength] = String(size == 0 ? 0 : range.count)
        guard request.method != .head, size > 0 else { return Response(status: status, headers: headers) }
        let body = try await files.loadFile(path: blob.path, range: range, context: context)
        return Response(status: status, headers: headers, body: body)
    }
}

/// A `Range: bytes=…` header against a file of `size` bytes: one range (`a-b`, `a-`, `-n`);
/// several ranges or another unit are answered whole, as RFC 9110 allows.
enum ByteRange: Equatable {
    case whole
    case part(ClosedRange<Int>)
    case unsatisfiable

    init(_ header: String, size: Int) {
        guard header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        let start: Int
        let end: Int
        if bounds[0].isEmpty {
            guard let suffix = Int(bounds[1]), suffix > 0 else {
                self = .unsatisfiable
                return
            }
            start = max(size - suffix, 0)
            end = size - 1
        } else {
            guard let first = Int(bounds[0]), first >= 0 else {
                self = .whole
                return
            }
            start = first
            end = bounds[1].isEmpty ? size - 1 : min(Int(bounds[1]) ?? (size - 1), size - 1)
        }
        guard start < size, start <= end else {
            self = .unsatisfiable
            return
        }
        self = .part(start...end)
    }
}
