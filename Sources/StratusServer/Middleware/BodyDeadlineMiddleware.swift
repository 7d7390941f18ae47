import Hummingbird
import NIOCore
import StratusCore

/// Reads each request's body before any handler runs, within the size limit and a deadline:
/// a body that trickles in, or stops mid-way, is refused once the deadline passes instead of
/// holding a task and a connection for as long as the client likes.
struct BodyDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let limit = self.limit
        let timeout = self.timeout
        let collected = try await withThrowingTaskGroup(of: Request?.self) { group in
            group.addTask {
                var request = request
                do {
                    _ = try await request.collectBody(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw JSONBody.tooLarge(limit)
                } catch {
                    // The connection closed (or broke) before the body was complete.
                    throw CoreError.badRequest("the request body ended before it was complete")
                }
                return request
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let collected else {
            var response = ErrorMiddleware<Context>.response(
                for: CoreError.badRequest("request body not received within \(timeout)"), requestID: context.id
            )
            response.headers[.connection] = "close"
            return response
        }
        return try await next(collected, context)
    }
}
