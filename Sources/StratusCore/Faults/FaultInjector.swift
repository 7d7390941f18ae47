import Foundation
import Synchronization
import StratusModel

/// The fault rules of a running server and its buggify switch: what `/stratus/v1/admin/faults`
/// edits and what the server asks, once per CKWS request, whether a fault fires.
///
/// Rules are tried in the order they were added; the first that matches and fires decides. A
/// seeded rule's `k`-th match fires by the seed and `k` alone, so a run repeats exactly. The
/// lock is held only to count and draw (no I/O, no waits).
public final class FaultInjector: Sendable {
    /// At most this many rules at once.
    public static let maximumRules = 1_000

    private struct State {
        var rules: [FaultRule] = []
        var buggify: BuggifySetting?
        var nextID = 1
    }

    private let state: Mutex<State>
    /// Called after every change of the rules (add, remove, clear), outside the lock.
    private let changed = Mutex<(@Sendable () -> Void)?>(nil)
    /// Takes one of a `count` rule's uses on every instance at once (``shareCounts(_:)``).
    private let claimUse = Mutex<ClaimUse?>(nil)

    /// Takes one of a rule's `limit` uses for all instances on a store: the use taken (1...limit),
    /// or `nil` when every one is taken.
    typealias ClaimUse = @Sendable (_ faultID: String, _ limit: Int) async -> Int?
    /// Where fired faults are recorded (the admin activity feed), stamped with `now`.
    private let activity: ActivityLog?
    private let now: @Sendable () -> Int64

    public init(buggify: BuggifySetting? = nil, activity: ActivityLog? = nil, now: @escaping @Sendable () -> Int64 = { 0 }) {
        state = Mutex(State(buggify: buggify))
        self.activity = activity
        self.now = now
    }

    /// Whether any rule could fire and whether one needs the request body; one lock, no allocation.
    public var readiness: (armed: Bool, readsBody: Bool) {
        state.withLock { state in
            let live = state.rules.lazy.filter { !$0.retired }
            return (state.buggify != nil || !live.isEmpty, live.contains { $0.match.readsBody })
        }
    }

    // MARK: - Rules

    /// Adds a rule (without a seed, a probability rule gets a random one, listed so it can be replayed).
    /// - Throws: `BAD_REQUEST` for values out of range or too many rules.
    public func add(_ request: CreateFaultRequest) throws(CoreError) -> FaultRule {
        try Self.validate(request)
        let seed = request.seed ?? (request.probability == nil ? nil : UInt64.random(in: 0...UInt64(Int64.max)))
        let rule = try state.withLock { state throws(CoreError) in
            guard state.rules.count < Self.maximumRules else {
                throw CoreError.badRequest("at most \(Self.maximumRules) fault rules; delete some first")
            }
            let rule = FaultRule(
                faultID: "fault-\(state.nextID)", match: request.match ?? FaultMatch(), action: request.action,
                count: request.count, probability: request.probability, seed: seed
            )
            state.nextID += 1
            state.rules.append(rule)
            return rule
        }
        notifyChange()
        return rule
    }

    public func list() -> FaultsResponse {
        state.withLock { FaultsResponse(faults: $0.rules, buggify: $0.buggify) }
    }

    /// Removes a rule; `false` when there is none with that ID.
    public func remove(_ faultID: String) -> Bool {
        let removed = state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.faultID == faultID }) else { return false }
            state.rules.remove(at: index)
            return true
        }
        if removed { notifyChange() }
        return removed
    }

    /// Removes every rule (buggify stays as the server was started); returns how many there were.
    @discardableResult
    public func clear() -> Int {
        let count = state.withLock { state in
            defer { state.rules.removeAll() }
            return state.rules.count
        }
        notifyChange()
        return count
    }

    // MARK: - Sharing rules between instances

    /// Calls `body` after every change of the rules made here (not after ``replaceRules(_:)``).
    func onChange(_ body: @escaping @Sendable () -> Void) {
        changed.withLock { $0 = body }
    }

    private func notifyChange() {
        changed.withLock { $0 }?()
    }

    /// From now on a `count` rule fires only when `claim` grants it a use, so a rule that may
    /// fire N times fires N times across every instance, not N times on each.
    func shareCounts(_ claim: @escaping ClaimUse) {
        claimUse.withLock { $0 = claim }
    }

    /// The rules and the next rule number, as another instance takes them (``replaceRules(_:nextID:)``).
    func sharedState() -> (rules: [FaultRule], nextID: Int) {
        state.withLock { ($0.rules, $0.nextID) }
    }

    /// Takes the rules another instance set: rules this one knows keep their counts (a shared
    /// `count` is claimed at firing), new ones start at zero, missing ones go; new IDs continue
    /// past every ID this or the other instance handed out, so an ID is never used twice on a store.
    func replaceRules(_ rules: [FaultRule], nextID: Int = 1) {
        state.withLock { state in
            let known = Dictionary(state.rules.map { ($0.faultID, $0) }, uniquingKeysWith: { first, _ in first })
            state.rules = rules.map { rule in
                var rule = rule
                rule.matched = known[rule.faultID]?.matched ?? 0
                rule.fired = known[rule.faultID]?.fired ?? 0
                rule.retired = known[rule.faultID]?.retired ?? false
                return rule
            }
            let highest = rules.compactMap { Int($0.faultID.dropFirst("fault-".count)) }.max() ?? 0
            state.nextID = max(state.nextID, highest + 1, nextID)
        }
    }

    // MARK: - Deciding

    /// The fault that fires for this request, if any: counts the match on every rule that
    /// matches until one fires, then buggify's draw.
    public func decide(_ request: FaultedRequest) async -> FiredFault? {
        let fired = await choose(request)
        if let fired, let activity {
            activity.record(ActivityEntry(
                time: now(), kind: .fault, container: request.database.container, environment: request.database.environment,
                database: request.database.scope, userRecordName: request.userRecordName,
                zoneID: request.zoneNames.first.map {
                    ZoneID(zoneName: $0, ownerRecordName: request.database.scope == .private ? request.userRecordName : nil)
                },
                endpoint: request.endpoint, faultID: fired.faultID, effect: fired.action.summary
            ))
        }
        return fired
    }

    /// What one draw decided: a fault that fires, a `count` rule that fires once it claims a
    /// shared use, or nothing.
    private enum Draw {
        case fired(FiredFault)
        case claim(FiredFault, limit: Int)
        case none
    }

    /// Draws, then claims a shared use where a `count` rule needs one; a rule whose uses are all
    /// taken retires here and the draw goes on with the rules after it.
    private func choose(_ request: FaultedRequest) async -> FiredFault? {
        let claim = claimUse.withLock { $0 }
        var after: String?
        while true {
            switch draw(request, after: after, claiming: claim != nil) {
            case .fired(let fault):
                return fault
            case .none:
                return nil
            case .claim(let fault, let limit):
                let use = await claim?(fault.faultID, limit)
                settle(fault.faultID, use: use, limit: limit)
                if use != nil { return fault }
                after = fault.faultID
            }
        }
    }

    /// The first rule (after the rule `after`, when given) that matches and fires, then buggify's draw.
    private func draw(_ request: FaultedRequest, after: String?, claiming: Bool) -> Draw {
        state.withLock { state in
            let start = after.flatMap { id in state.rules.firstIndex { $0.faultID == id } }.map { $0 + 1 } ?? 0
            for index in state.rules.indices.dropFirst(start) where !state.rules[index].retired {
                let rule = state.rules[index]
                guard rule.match.matches(request), Self.applies(rule.action, to: request) else { continue }
                let draw = rule.matched
                state.rules[index].matched += 1
                if let probability = rule.probability, FaultDice.unit(seed: rule.seed ?? 0, draw: draw) >= probability { continue }
                let fault = FiredFault(faultID: rule.faultID, action: rule.action, recordType: rule.match.recordType)
                if claiming, let count = rule.count { return .claim(fault, limit: count) }
                state.rules[index].fired += 1
                if let count = rule.count, state.rules[index].fired >= count { state.rules[index].retired = true }
                return .fired(fault)
            }
            guard var buggify = state.buggify else { return .none }
            defer { state.buggify = buggify }
            return Buggify.draw(&buggify, for: request).map(Draw.fired) ?? .none
        }
    }

    /// Records a shared claim's outcome: the use taken is the rule's `fired` count (every
    /// instance's firings); with none left, the rule retires.
    private func settle(_ faultID: String, use: Int?, limit: Int) {
        state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.faultID == faultID }) else { return }
            state.rules[index].fired = use ?? limit
            state.rules[index].retired = (use ?? limit) >= limit
        }
    }

    /// Item errors exist only where a batch has items to fail.
    private static func applies(_ action: FaultAction, to request: FaultedRequest) -> Bool {
        if case .itemError = action { return request.endpoint == "records/modify" }
        return true
    }

    /// A fault answers only with a code CloudKit documents (a typo would answer a 500).
    private static func requireDocumented(_ code: ServerErrorCode, field: String) throws(CoreError) {
        guard code.isDocumented else {
            throw CoreError.badRequest("\(field) '\(code.rawValue)' is not a CloudKit Web Services code; one of \(ServerErrorCode.documented.map(\.rawValue).joined(separator: ", "))")
        }
    }

    private static func validate(_ request: CreateFaultRequest) throws(CoreError) {
        if let endpoint = request.match?.endpoint, !FaultMatch.endpoints.contains(endpoint) {
            throw CoreError.badRequest("match.endpoint '\(endpoint)' is not a CKWS endpoint; one of \(FaultMatch.endpoints.joined(separator: ", "))")
        }
        if let count = request.count, count < 1 { throw CoreError.badRequest("count must be at least 1") }
        if let probability = request.probability, !(probability > 0 && probability <= 1) {
            throw CoreError.badRequest("probability must be greater than 0 and at most 1")
        }
        switch request.action {
        case .error(let code, let retryAfter):
            try requireDocumented(code, field: "action.error.serverErrorCode")
            if let retryAfter, !(0...86_400).contains(retryAfter) {
                throw CoreError.badRequest("action.error.retryAfter must be 0 to 86400 seconds")
            }
        case .itemError(let code):
            try requireDocumented(code, field: "action.itemError.serverErrorCode")
        case .latency(let milliseconds):
            guard (0...120_000).contains(milliseconds) else { throw CoreError.badRequest("action.latencyMs must be 0 to 120000") }
        case .dropResponseAfterCommit:
            break
        }
    }
}

extension FaultAction {
    /// What the fault did, in a few words (the activity feed's `effect`).
    public var summary: String {
        switch self {
        case .error(let code, let retryAfter): retryAfter.map { "\(code.rawValue), retry after \($0) s" } ?? code.rawValue
        case .itemError(let code): "\(code.rawValue) on matching records"
        case .latency(let milliseconds): "answered \(milliseconds) ms late"
        case .dropResponseAfterCommit: "committed, then dropped the answer"
        }
    }
}
