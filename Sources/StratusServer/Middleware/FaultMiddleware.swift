import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat
import StratusCore
import StratusModel

/// Injects the faults of ``FaultInjector`` into CKWS requests, after authentication (rules match
/// on the caller) and before the handler: a request-level error (with `Retry-After`), added
/// latency, per-item errors handed to the record service in the scope, or the answer dropped
/// after the handler ran — the connection closes and the client never hears that its write
/// committed. Every fired fault is logged at notice level with the request ID.
///
/// With no rule and no buggify it costs one lock; the body is read only when a live rule
/// matches on zone or record type.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = StratusRequestContext

    let faults: FaultInjector
    /// Path components before the endpoint (`database/1/{container}/{environment}[/{database}]`).
    let prefixComponents: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let readiness = faults.readiness
        guard readiness.armed, let scope = context.scope else { return try await next(request, context) }
        var request = request
        var faulted = FaultedRequest(
            database: scope.database, endpoint: endpoint(of: request), userRecordName: scope.caller.userRecordName
        )
        if readiness.readsBody {
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: context.maxUploadSize) } catch { throw JSONBody.tooLarge(context.maxUploadSize) }
            let peek = FaultBodyPeek.read(body)
            faulted.zoneNames = peek.zoneNames
            faulted.recordTypes = peek.recordTypes
        }
        guard let fault = await faults.decide(faulted) else { return try await next(request, context) }
        context.logger.notice(
            "fault injected",
            metadata: ["faultID": .string(fault.faultID), "action": .string("\(fault.action)"), "requestID": .string(context.id)]
        )
        switch fault.verdict {
        case .fail(let error):
            throw error
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return try await next(request, context)
        case .failItems(let itemFault):
            var context = context
            context.scope?.itemFault = itemFault
            return try await next(request, context)
        case .dropAnswer:
            // The handler runs to the end (a write commits); then the connection goes, unanswered.
            let response = try? await next(request, context)
            try? await context.channel.close()
            return response ?? Response(status: .internalServerError)
        }
    }

    private func endpoint(of request: Request) -> String {
        request.uri.path.split(separator: "/", omittingEmptySubsequences: true).dropFirst(prefixComponents).joined(separator: "/")
    }
}

/// The zones and record types a CKWS body names, for fault rules that match on them: read
/// leniently (a body the handler will refuse names nothing).
struct FaultBodyPeek: Decodable {
    private struct ZoneRef: Decodable {
        var zoneID: ZoneID?
        init(from decoder: any Decoder) throws {
            // `zones` holds zone IDs in zones/lookup and `{zoneID}` dictionaries in changes/zone.
            let keyed = try? decoder.container(keyedBy: CodingKeys.self)
            zoneID = (try? keyed?.decodeIfPresent(ZoneID.self, forKey: .zoneID)) ?? (try? ZoneID(from: decoder))
        }
        private enum CodingKeys: String, CodingKey { case zoneID }
    }
    private struct TypeRef: Decodable { var recordType: String? }
    private struct Operation: Decodable {
        var record: TypeRef?
        var zone: ZoneRef?
    }

    private var zoneID: ZoneID?
    private var zones: [ZoneRef]?
    private var operations: [Operation]?
    private var query: TypeRef?

    var zoneNames: [String] {
        [zoneID?.zoneName].compactMap { $0 } + (zones ?? []).compactMap { $0.zoneID?.zoneName }
            + (operations ?? []).compactMap { $0.zone?.zoneID?.zoneName }
    }

    var recordTypes: [String] {
        [query?.recordType].compactMap { $0 } + (operations ?? []).compactMap { $0.record?.recordType }
    }

    static func read(_ body: ByteBuffer) -> FaultBodyPeek {
        (try? JSONDecoder().decode(FaultBodyPeek.self, from: body)) ?? FaultBodyPeek()
    }

    private init() {}
}
