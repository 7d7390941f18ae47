import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// The travel journal in automatic mode: devices sync on push, nobody calls `sync()`.
@Suite struct JournalPushTests {
    /// Polls `condition` until it holds or `seconds` pass; returns the time it took, or `nil`.
    /// Deadlines are generous (a busy CI machine runs many servers at once): what is shown is
    /// that the devices converged on push alone, not how fast.
    private func converge(within seconds: Double, _ condition: () async throws -> Bool) async throws -> Double? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(seconds) {
            if try await condition() {
                let elapsed = ContinuousClock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test("alice's iPhone saves; her iPad and bob's phone (on the shared trip) converge on push alone")
    func devicesConvergeOnPush() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            let phone = try await journal.device("bob-phone", signedInAs: "bob")
            let lisbon = await iphone.privateKey("lisbon")
            try await iphone.save(lisbon, type: "Destination", fields: Journal.destination("Lisbon", details: "Trams"))
            let share = try await iphone.share(lisbon, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            try await phone.acceptShareInvitations(from: [try #require(share.url)])
            for device in [iphone, ipad, phone] { try await device.startAutomaticSync() }
            // The engines made their database subscriptions, as CKSyncEngine does.
            let subscriptions = try await journal.container(as: "bob").sharedCloudDatabase.allSubscriptions()
            #expect(subscriptions.map(\.subscriptionType) == [.database])

            // From here on, no sync() call: saves are sent, pushes make the others fetch.
            try await iphone.save(lisbon, type: "Destination", fields: ["details": .string("Trams, and the castle")])
            let porto = await iphone.privateKey("porto")
            try await iphone.save(porto, type: "Destination", fields: Journal.destination("Porto"))
            let shared = RecordKey(scope: .shared, zoneID: lisbon.zoneID, recordName: "lisbon")
            let elapsed = try await converge(within: 60) {
                let edited = try await ipad.store.record(lisbon)?.fields["details"]?.value == .string("Trams, and the castle")
                let added = try await ipad.store.record(porto) != nil
                let onIPad = edited && added
                let onPhone = try await phone.store.record(shared)?.fields["details"]?.value == .string("Trams, and the castle")
                return onIPad && onPhone
            }
            #expect(elapsed != nil, "the iPad and bob's phone did not converge on push")
            #expect(await ipad.scheduledFetches > 0)
            #expect(await phone.scheduledFetches > 0)
            // bob's edit on the shared trip travels back to both of alice's devices the same way.
            try await phone.save(shared, type: "Destination", fields: ["details": .string("bob was here")])
            let back = try await converge(within: 60) {
                let onIPhone = try await iphone.store.record(lisbon)?.fields["details"]?.value == .string("bob was here")
                let onIPad = try await ipad.store.record(lisbon)?.fields["details"]?.value == .string("bob was here")
                return onIPhone && onIPad
            }
            #expect(back != nil, "alice's devices did not get bob's edit on push")
            for device in [iphone, ipad, phone] { await device.stopAutomaticSync() }
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice"), (phone, "bob")])
        }
    }

    @Test("a device reconnecting from its cursor receives what it missed: no manual sync")
    func reconnectResumesFromTheCursor() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            try await ipad.startAutomaticSync()
            let first = await iphone.privateKey("first")
            try await iphone.save(first, type: "Destination", fields: Journal.destination("First"))
            try await iphone.sync()
            #expect(try await converge(within: 60) { try await ipad.store.record(first) != nil } != nil)
            // The iPad stops listening (offline); changes made meanwhile arrive when it listens again.
            await ipad.stopAutomaticSync()
            for index in 0..<5 {
                try await iphone.save(await iphone.privateKey("offline-\(index)"), type: "Destination", fields: Journal.destination("Day \(index)"))
            }
            try await iphone.sync()
            try await ipad.startAutomaticSync()
            let all = try await converge(within: 60) { try await ipad.records(in: .private).count == 6 }
            #expect(all != nil)
        }
    }
}
