import StratusModel

/// `stratus serve --buggify RATE --seed N`: on every CKWS request, with chance `RATE`, one of the
/// transient failures a CloudKit app must ride out — throttled, try again later (both with
/// `retryAfter: 1`), a slow answer, or an answer lost after the write committed. All are
/// retryable; none refuses an item for good.
enum Buggify {
    static let faultID = "buggify"

    /// The seed's next draw: whether this request gets a fault, and which.
    static func draw(_ setting: inout BuggifySetting, for request: FaultedRequest) -> FiredFault? {
        let position = setting.drawn
        setting.drawn += 1
        guard FaultDice.unit(seed: setting.seed, draw: position) < setting.rate else { return nil }
        setting.fired += 1
        let pick = FaultDice.unit(seed: setting.seed, draw: position, salt: 1)
        let action: FaultAction =
            switch pick {
            case ..<0.35: .error(.throttled, retryAfter: 1)
            case ..<0.7: .error(.tryAgainLater, retryAfter: 1)
            case ..<0.85: .latency(milliseconds: 50 + Int(FaultDice.unit(seed: setting.seed, draw: position, salt: 2) * 250))
            default: .dropResponseAfterCommit
            }
        return FiredFault(faultID: faultID, action: action, recordType: nil)
    }
}
