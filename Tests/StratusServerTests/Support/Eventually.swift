/// Waits for `condition` to hold, looking every 20 ms, for at most `limit`: whether it held. For
/// what happens after an answer (another instance hearing a signal, a file removed once a
/// connection drops), in place of a fixed sleep. The limit only ends a wait that would hang: the
/// whole suite shares two cores on CI, so it is generous.
func eventually(within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
