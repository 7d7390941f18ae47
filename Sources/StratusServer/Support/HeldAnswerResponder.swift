import Hummingbird

/// The router's responder, with the webcourier's requests (`/stratus/v1/push/…`, whose answers
/// may be held open for half a minute) run on a task of their own.
///
/// Swift's task allocator keeps a task's frames, as deep as they ever went, until the task ends,
/// and Hummingbird answers every request of a keep-alive connection on the connection's one
/// task. Routed there, a held poll costs its connection the frames of the router, eight
/// middleware levels, the handler and a store read (~30 KB) for as long as the connection
/// lives. Routed on a task of its own, those frames go when the handler returns; the poll then
/// waits in its response body, which Hummingbird writes from the connection's task at the depth
/// of the connection itself.
struct HeldAnswerResponder<Router: HTTPResponder>: HTTPResponder where Router.Context == StratusRequestContext {
    let router: Router

    func respond(to request: Request, context: StratusRequestContext) async throws -> Response {
        guard request.uri.path.hasPrefix(WebcourierRoutes.pathPrefix) else { return try await router.respond(to: request, context: context) }
        let router = self.router
        return try await OwnTask.run { try await router.respond(to: request, context: context) }
    }
}

/// Runs work on a task of its own and waits for it, so the frames it needs are freed when it
/// returns rather than kept by the calling task (see ``HeldAnswerResponder``).
enum OwnTask {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task(operation: body)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
