import Foundation
import SharedNotes
import Testing

/// Two devices of one account, as the user sees them: what one writes the other shows.
@Suite struct SyncTests {
    @Test func twoDevicesOfOneAccountConverge() async throws {
        try await Backend.with { backend in
            let folder = freshFolder("Recipes")
            let phone = try backend.device("phone", of: "alice")
            let laptop = try backend.device("laptop", of: "alice")
            await phone.write("flour, water, salt", id: "bread", folder: folder)
            await phone.write("eggs, sugar", id: "cake", folder: folder)
            await phone.write("to delete", id: "draft", folder: folder)
            try await phone.sync()
            await phone.delete(id: "draft", folder: folder)
            try await phone.sync()
            try await laptop.sync()
            #expect(await laptop.notes(in: folder) == ["bread": "flour, water, salt", "cake": "eggs, sugar"])

            await laptop.write("eggs, sugar, butter", id: "cake", folder: folder)
            try await laptop.sync()
            try await phone.sync()
            #expect(await phone.notes(in: folder) == ["bread": "flour, water, salt", "cake": "eggs, sugar, butter"])
        }
    }

    @Test func anOfflineEditSurvivesARelaunch() async throws {
        try await Backend.with { backend in
            let folder = freshFolder("Journal")
            let phone = try backend.device("phone", of: "alice")
            await phone.write("Monday", id: "day-1", folder: folder)
            try await phone.sync()
            // Offline: edited and written, never synced; then the app is quit.
            await phone.write("Monday, rainy", id: "day-1", folder: folder)
            await phone.write("Tuesday", id: "day-2", folder: folder)

            let relaunched = try backend.device("phone", of: "alice")
            #expect(await relaunched.notes(in: folder) == ["day-1": "Monday, rainy", "day-2": "Tuesday"])
            try await relaunched.sync()
            let laptop = try backend.device("laptop", of: "alice")
            try await laptop.sync()
            #expect(await laptop.notes(in: folder) == ["day-1": "Monday, rainy", "day-2": "Tuesday"])
        }
    }

    @Test func aConflictResolvesTheSameWayOnBothDevices() async throws {
        try await Backend.with { backend in
            let folder = freshFolder("Plans")
            let phone = try backend.device("phone", of: "alice")
            let laptop = try backend.device("laptop", of: "alice")
            let start = Date()
            await phone.write("v1", id: "trip", folder: folder, at: start)
            await phone.write("v1", id: "dinner", folder: folder, at: start)
            try await phone.sync()
            try await laptop.sync()

            // Both edit both notes offline. The later edit wins, whichever device sends first.
            await phone.write("phone, earlier", id: "trip", folder: folder, at: start.addingTimeInterval(10))
            await laptop.write("laptop, later", id: "trip", folder: folder, at: start.addingTimeInterval(20))
            await phone.write("phone, later", id: "dinner", folder: folder, at: start.addingTimeInterval(40))
            await laptop.write("laptop, earlier", id: "dinner", folder: folder, at: start.addingTimeInterval(30))
            try await phone.sync()
            try await laptop.sync()
            try await phone.sync()

            let expected = ["trip": "laptop, later", "dinner": "phone, later"]
            #expect(await phone.notes(in: folder) == expected)
            #expect(await laptop.notes(in: folder) == expected)
        }
    }
}
