/// The one step every read-ahead driver repeats (the PostgreSQL store's group commit, and
/// ``ReadAheadBatchRows``): run the engine, and when it was refused a row (``BatchRowsMissing``)
/// answer `nil`, so the driver reads what was missed and runs it again. Here, not under
/// `Engine/`: the engine catches nothing.
package enum BatchRerun {
    /// The engine's decision, or `nil` when a read was refused.
    package static func attempt(_ decide: () throws -> ZoneBatchDecision) throws -> ZoneBatchDecision? {
        do {
            return try decide()
        } catch is BatchRowsMissing {
            return nil
        }
    }

    /// A run refused with nothing noted to read: running again would loop.
    package static let askedForNothing = StoreError(.failure, "the batch engine asked for nothing it lacked")
}
