import Hummingbird
import NIOCore
import StratusCore

/// Reads each request's body before any handler runs, within the size limit and a deadline:
/// a body that trickles in is refused once the deadline passes (checked as each part arrives,
/// so no timer or task is spent per request), and one that stops arriving altogether is closed
/// by the connection's idle timeout. Either way a slow client holds no task or connection for
/// as long as it likes. The limit becomes the context's `maxUploadSize`, which the routes' decoder
/// reads by.
struct BodyDeadlineMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext
    let limit: Int
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let deadline = ContinuousClock.now + timeout
        var buffer = ByteBuffer()
        do {
            for try await part in request.body {
                guard buffer.readableBytes + part.readableBytes <= limit else { throw JSONBody.tooLarge(limit) }
                guard ContinuousClock.now < deadline else {
                    var response = ErrorMiddleware<Context>.response(
                        for: CoreError.badRequest("request body not received within \(timeout)"), requestID: context.id
                    )
                    response.headers[.connection] = "close"
                    return response
                }
                buffer.writeImmutableBuffer(part)
            }
        } catch let error as CoreError {
            throw error
        } catch {
            // The connection closed (or broke) before the body was complete.
            throw CoreError.badRequest("the request body ended before it was complete")
        }
        var request = request
        request.body = RequestBody(buffer: buffer)
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
