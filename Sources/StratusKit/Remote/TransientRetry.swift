/// Runs `call`, and again after each transient failure (network, throttled, busy), waiting the
/// server's `retryAfter` or else a short growing backoff, times `delayScale`; at most `attempts`
/// calls. What CKSyncEngine and the OS do for the calls they make; any other error is thrown at once.
public func retryingTransient<T: Sendable>(
    attempts: Int, delayScale: Double = 1, _ call: @Sendable () async throws(CloudError) -> T
) async throws(CloudError) -> T {
    var attempt = 1
    while true {
        do {
            return try await call()
        } catch where error.isTransient && attempt < attempts {
            let delay = (error.retryAfter ?? 0.05 * Double(1 << attempt)) * delayScale
            try? await Task.sleep(for: .seconds(delay))
            attempt += 1
        }
    }
}
