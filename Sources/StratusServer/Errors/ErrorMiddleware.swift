import Foundation
import HTTPTypes
import Hummingbird
import Logging
import StratusCore
import StratusModel

/// The one place errors become responses: CKWS's error body (`uuid`, `serverErrorCode`,
/// `reason`, `retryAfter`, `redirectURL`) with the code's HTTP status, always JSON.
///
/// ``CoreError`` keeps its code; Hummingbird's `HTTPError`s (unknown route, wrong method, body
/// too large) get the matching CloudKit code; anything else is a 500 whose details stay in the log.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            response.headers[.requestID] = context.id
            return response
        } catch {
            let failure = Self.coreError(for: error)
            (context as? StratusRequestContext)?.facts.update { $0.errorCode = failure.code }
            if failure.code == .internalError {
                // The cause stays here, with the request's ID; the client reads "Internal error".
                context.logger.error("internal error", metadata: ["request_id": "\(context.id)", "cause": "\(failure.cause ?? String(reflecting: error))"])
            } else {
                context.logger.debug("request failed", metadata: ["code": "\(failure.code)", "reason": "\(failure.reason)"])
            }
            return Self.response(for: failure, requestID: context.id, extensions: WireExtensions(request))
        }
    }

    static func coreError(for error: any Error) -> CoreError {
        switch error {
        case let error as CoreError:
            return error
        case let error as HTTPError:
            switch error.status {
            case .notFound: return CoreError(.notFound, "no such endpoint")
            case .methodNotAllowed: return CoreError.badRequest("method not allowed for this endpoint")
            case .contentTooLarge: return CoreError.badRequest("request body too large")
            case .unauthorized: return CoreError(.authenticationFailed, error.body ?? "authentication failed")
            default:
                if (400..<500).contains(error.status.code) { return CoreError.badRequest(error.body ?? "bad request") }
                return CoreError(.internalError, "Internal error")
            }
        case let error as DecodingError:
            return CoreError.badRequest("malformed request: \(JSONBody.describe(error))")
        default:
            return CoreError(.internalError, "Internal error")
        }
    }

    /// The error body for `error`, with its code's HTTP status unless `status` overrides it, in
    /// the extensions the request asked for (a native error code only for a client that asks).
    static func response(
        for error: CoreError, requestID: String, status: HTTPResponse.Status? = nil, extensions: WireExtensions = []
    ) -> Response {
        let body = ErrorBody(
            uuid: requestID, serverErrorCode: error.code, reason: error.reason,
            retryAfter: error.retryAfter, redirectURL: error.redirectURL, nativeErrorCode: error.nativeErrorCode,
            userDidResetEncryptedData: error.userDidResetEncryptedData
        )
        let status = status ?? HTTPResponse.Status(code: error.code.httpStatus)
        var response: Response
        do {
            response = try JSONBody.response(body, status: status, extensions: extensions)
        } catch {
            response = Response(status: .internalServerError)
        }
        if let retryAfter = error.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        response.headers[.requestID] = requestID
        return response
    }
}
