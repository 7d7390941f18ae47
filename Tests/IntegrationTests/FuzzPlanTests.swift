import StratusFuzz
import Testing

/// The fuzzer's plans, without a server: `--edges` draws the edge steps, and without it a seed
/// draws exactly the plan it drew before they existed (CI's seeds stay the runs they were).
@Suite("Sync fuzzer: plans")
struct FuzzPlanTests {
    /// The kinds and weights of the plans before the edge steps, in `allCases` order.
    static let weightsBeforeEdges: [(FuzzAction, Int)] = [
        (.create, 14), (.update, 14), (.delete, 6), (.share, 5), (.accept, 6), (.changePermission, 3), (.leave, 2),
        (.stopSharing, 2), (.toggleSync, 3), (.goOffline, 2), (.goOnline, 3), (.signOut, 1), (.signIn, 3), (.crash, 2),
        (.sync, 20), (.revokeToken, 1), (.createShared, 4), (.resetZone, 1), (.createTwin, 4), (.shareFailingOnce, 1),
        (.serverCrash, 1), (.attachPhoto, 4), (.automaticSync, 2),
    ]

    /// A plan drawn as `FuzzPlan.generate` drew it before the edge steps: each step's kind and device.
    static func planBeforeEdges(seed: UInt64, devices: Int, count: Int) -> [(action: FuzzAction, device: Int)] {
        var random = FuzzRandom(seed: seed)
        let total = weightsBeforeEdges.reduce(0) { $0 + $1.1 }
        return (0..<count).map { _ -> (action: FuzzAction, device: Int) in
            var pick = Int.random(in: 0..<total, using: &random)
            var action = FuzzAction.sync
            for (candidate, weight) in weightsBeforeEdges {
                if pick < weight {
                    action = candidate
                    break
                }
                pick -= weight
            }
            return (action, Int.random(in: 0..<devices, using: &random))
        }
    }

    @Test("the edge kinds come last, after every kind the plans drew before them")
    func edgeKindsComeLast() {
        let kinds = FuzzAction.allCases
        #expect(Array(kinds.prefix(Self.weightsBeforeEdges.count)) == Self.weightsBeforeEdges.map { $0.0 })
        let added = kinds.dropFirst(Self.weightsBeforeEdges.count)
        #expect(!added.isEmpty && added.allSatisfy { $0.isEdge })
        #expect(Set(kinds.filter(\.isEdge)) == [.clearField, .missingAsset, .remakeZone])
    }

    @Test("without --edges a seed draws the plan it drew before, and no edge step", arguments: [UInt64(1), 2, 3, 4])
    func withoutEdgesThePlanIsUnchanged(seed: UInt64) {
        let plan = FuzzPlan.generate(seed: seed, devices: 3, accounts: 2, count: 300)
        #expect(!plan.edges)
        let before = Self.planBeforeEdges(seed: seed, devices: 3, count: 300)
        #expect(plan.steps.map(\.action) == before.map { $0.action })
        #expect(plan.steps.map(\.device) == before.map { $0.device })
        #expect(plan.steps.map(\.number) == Array(0..<300))
        #expect(!plan.steps.contains { $0.action.isEdge })
    }

    @Test("with --edges CI's seed draws each edge step several times, and the other kinds still")
    func withEdgesTheEdgeStepsAreDrawn() {
        let plan = FuzzPlan.generate(seed: 4, devices: 3, accounts: 2, count: 300, edges: true)
        #expect(plan.edges)
        for kind in [FuzzAction.clearField, .missingAsset, .remakeZone] {
            #expect(plan.steps.filter { $0.action == kind }.count >= 2, "\(kind) is drawn too rarely to occur")
        }
        #expect(plan.steps.contains { $0.action == .create } && plan.steps.contains { $0.action == .sync })
        #expect(plan == FuzzPlan.generate(seed: 4, devices: 3, accounts: 2, count: 300, edges: true), "a seed is the same run")
    }
}
