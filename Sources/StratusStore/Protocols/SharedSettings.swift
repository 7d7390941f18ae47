/// Small named values every server instance on one store reads and writes (today: the fault
/// rules, so a rule added on one instance applies on all of them, and an instance that starts
/// later finds them; and how often each rule fired). Paired with ``InstanceSignals``, which says
/// when one changed.
public protocol SharedSettings: Sendable {
    /// The value of a setting, or `nil` when it was never set (or was removed).
    func sharedSetting(_ name: String) async throws(StoreError) -> String?
    /// Sets a setting, or removes it with `nil`.
    func setSharedSetting(_ name: String, to value: String?) async throws(StoreError)
    /// Takes one of `limit` uses of the counter `name` (a setting holding a count, created at
    /// zero), atomically for every instance: the use taken (1...limit), or `nil` when all are.
    func claimSharedUse(_ name: String, limit: Int) async throws(StoreError) -> Int?
}
