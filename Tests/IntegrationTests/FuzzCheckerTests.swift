import Foundation
import StratusCloudKit
import StratusCore
import StratusFuzz
import StratusKit
import StratusModel
import Testing

/// The sync fuzzer against a real server: a short seeded run converges and repeats itself, and
/// the checker is not blind — a mirror changed behind the engine, and an acknowledged write
/// removed on the server, are both reported.
@Suite("Sync fuzzer")
struct FuzzCheckerTests {
    /// A short plan without zone resets: a purge legitimately deletes what the planted checks
    /// put on a device, so the checker would have nothing left to catch.
    static let plan: FuzzPlan = {
        var plan = FuzzPlan.generate(seed: 5, devices: 3, accounts: 2, count: 80)
        plan.steps.removeAll { $0.action == .resetZone }
        return plan
    }()

    @Test("a seeded run converges")
    func seededRunConverges() async throws {
        try await Journal.run { journal in
            let outcome = try await Fuzzer(plan: Self.plan).run(Self.plan.steps, on: journal.fuzzServer)
            #expect(outcome.passed, "\(outcome.divergences)")
        }
    }

    @Test("a seeded run at the edges converges: fields cleared, asset files missing, zones deleted and made again")
    func edgesRunConverges() async throws {
        let plan = FuzzPlan.generate(seed: 7, devices: 3, accounts: 2, count: 80, edges: true)
        for kind in [FuzzAction.clearField, .missingAsset, .remakeZone] { #expect(plan.steps.contains { $0.action == kind }) }
        try await Journal.run { journal in
            let outcome = try await Fuzzer(plan: plan).run(plan.steps, on: journal.fuzzServer)
            #expect(outcome.passed, "\(outcome.divergences)")
        }
    }

    @Test("a mirror that differs from the server is caught")
    func plantedMirrorDivergenceIsCaught() async throws {
        try await Journal.run { journal in
            let outcome = try await Fuzzer(plan: Self.plan).run(Self.plan.steps, on: journal.fuzzServer) { devices, _ in
                // A record only this device has, put in as if the server had sent it: no sync removes it.
                let device = try #require(devices.first)
                let zone = await device.privateKey("x").zoneID
                var planted = Record(recordName: "planted", recordType: "Destination", recordChangeTag: "t1", fields: ["caption": .string("ghost")])
                planted.zoneID = zone
                try await device.store.importRecord(planted, scope: .private)
            }
            #expect(outcome.divergences.contains { $0.hasPrefix("mirror") && $0.contains("planted") }, "\(outcome.divergences)")
        }
    }

    @Test("an acknowledged write missing from the server is caught")
    func plantedLostWriteIsCaught() async throws {
        try await Journal.run { journal in
            let outcome = try await Fuzzer(plan: Self.plan).run(Self.plan.steps, on: journal.fuzzServer) { devices, server in
                // Every acknowledged record of a device's account goes, behind the fuzzer's back
                // (the first device that holds any: which one the plan leaves some on is its business).
                var found: (device: SimulatedDevice, saved: [LocalRecord])?
                for device in devices where found == nil {
                    let saved = try await device.records(in: .private).filter { $0.changeTag != nil && $0.recordType == "Destination" }
                    if !saved.isEmpty, await device.account != nil { found = (device, saved) }
                }
                let (device, saved) = try #require(found)
                let container = try #require(await device.account).container(FuzzServer.container, serverURL: server.url)
                // Each in its own zone (a name may live in two).
                for (zone, records) in Dictionary(grouping: saved, by: \.key.zoneID) {
                    _ = try await container.privateCloudDatabase.modifyRecords(
                        saving: [], deleting: records.map { CKRecord.ID(recordName: $0.key.recordName, zoneID: CKRecordZone.ID(zoneName: zone.zoneName)) }
                    )
                }
            }
            #expect(outcome.divergences.contains { $0.hasPrefix("acknowledged") }, "\(outcome.divergences)")
        }
    }

    @Test("shrinking keeps exactly the steps a failure needs")
    func shrinkingFindsTheNeededSteps() async throws {
        let plan = FuzzPlan.generate(seed: 9, devices: 2, accounts: 1, count: 64)
        var fuzzer = Fuzzer(plan: plan)
        fuzzer.output = { _ in }
        let needed: Set<Int> = [7, 30, 31]
        let shortest = try await fuzzer.shrink(plan.steps) { steps in needed.isSubset(of: Set(steps.map(\.number))) }
        #expect(shortest.map(\.number) == [7, 30, 31])
    }
}

extension Journal {
    /// This journal's server as the fuzzer sees it.
    var fuzzServer: FuzzServer { FuzzServer(url: serverURL, adminToken: credentials.adminToken) }
}
