import Hummingbird
import StratusCore
import StratusModel

/// `/stratus/v1/admin/faults`: fault rules — POST adds one, GET lists them with how often each
/// fired, DELETE `/{faultID}` removes one, DELETE on the collection removes all.
struct FaultRoutes {
    let faults: FaultInjector

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.post("faults", use: create)
        group.get("faults", use: list)
        group.delete("faults", use: clear)
        group.delete("faults/:faultID", use: remove)
    }

    @Sendable private func create(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let body = try await request.decode(as: CreateFaultRequest.self, context: context)
        return WireAnswer(try faults.add(body), status: .created)
    }

    @Sendable private func list(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        WireAnswer(faults.list())
    }

    @Sendable private func clear(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        WireAnswer(DeleteFaultsResponse(deleted: faults.clear()))
    }

    @Sendable private func remove(_ request: Request, context: StratusRequestContext) async throws -> some ResponseGenerator {
        let id = context.parameters.get("faultID") ?? ""
        guard faults.remove(id) else { throw CoreError(.notFound, "no fault rule '\(id)'") }
        return WireAnswer(DeleteFaultsResponse(deleted: 1))
    }
}
