import StratusCore
import StratusModel

/// The fault check every CKWS request passes (the server's fault middleware), made for the
/// console's own actions: a rule for THROTTLED on records/modify fails the console's save as it
/// would fail a device's, and fires in the timeline.
extension StratusServices {
    /// Fails with the injected error, waits out injected latency, or hands back an item fault for records/modify.
    func faultCheck(_ place: Place, endpoint: String, recordTypes: [String] = []) async throws -> ItemFault? {
        let database = DatabaseRef(container: place.container, environment: place.environment, scope: place.scope ?? .private)
        let request = FaultedRequest(
            database: database, endpoint: endpoint, userRecordName: place.user, zoneNames: place.zone.map { [$0] } ?? [],
            recordTypes: recordTypes
        )
        guard faults.readiness.armed, let fired = await faults.decide(request) else { return nil }
        switch fired.verdict {
        case .fail(let error):
            throw error
        case .failItems(let itemFault):
            return itemFault
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return nil
        case .dropAnswer:
            // A browser has no connection to drop mid-answer: the action goes through.
            return nil
        }
    }
}
