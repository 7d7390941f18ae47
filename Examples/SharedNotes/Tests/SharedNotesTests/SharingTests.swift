import Foundation
import SharedNotes
import Testing

/// A folder shared with another account: bob accepts alice's share and edits; alice stops
/// sharing and the folder leaves bob's device.
@Suite struct SharingTests {
    @Test func bobAcceptsAlicesShareEditsAndLosesTheFolderWhenAliceStopsSharing() async throws {
        try await Backend.with { backend in
            let folder = freshFolder("Lisbon")
            let alice = try backend.device("phone", of: "alice")
            let bob = try backend.device("phone", of: "bob")
            await alice.write("Pastéis de Belém", id: "food", folder: folder)
            try await alice.sync()
            let url = try await alice.share(folder: folder, with: "bob@example.com")

            try await bob.accept(url)
            let shared = try #require(await bob.sharedFolders().first { $0.folder == folder })
            #expect(await bob.notes(in: folder, owner: shared.owner) == ["food": "Pastéis de Belém"])

            await bob.write("Pastéis de Belém, and the tram 28", id: "food", folder: folder, owner: shared.owner)
            await bob.write("Alfama at dusk", id: "walk", folder: folder, owner: shared.owner)
            try await bob.sync()
            try await alice.sync()
            #expect(await alice.notes(in: folder) == ["food": "Pastéis de Belém, and the tram 28", "walk": "Alfama at dusk"])

            try await alice.stopSharing(folder: folder)
            try await bob.sync()
            #expect(await !bob.sharedFolders().contains(shared))
            #expect(await bob.notes(in: folder, owner: shared.owner).isEmpty)
            // Alice keeps her folder, bob's edits included.
            #expect(await alice.notes(in: folder).count == 2)
        }
    }
}
