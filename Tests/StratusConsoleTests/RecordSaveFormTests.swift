import Foundation
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The console's "Save a record" form: several fields in one save, for a new record and for an
/// existing one (whose other fields stay).
@Suite struct RecordSaveFormTests {
    @Test func oneSaveSetsEveryFieldRowOfTheFormAndKeepsTheRecordsOtherFields() async throws {
        try await TestServer.run { server in
            _ = try await server.createZone("Trips")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let alice = "/console/c/\(DevSeeder.container)/development/u/\(server.userRecordName("alice"))/private"
            _ = try await browser.get(alice)  // the page's form token
            let created = try await browser.post("\(alice)/records", [
                ("operation", "save"), ("zone", "Trips"), ("name", "lisbon"), ("recordType", "Destination"),
                ("field", "caption"), ("type", "STRING"), ("value", "Lisbon"),
                ("field2", "nights"), ("type2", "INT64"), ("value2", "4"),
                ("field3", ""), ("type3", "STRING"), ("value3", ""), ("back", "\(alice)/zone?zone=Trips"),
            ])
            #expect(created.text.contains("Record lisbon created."), "\(created.text.prefix(300))")
            var record = try #require(try await server.lookup(["lisbon"], zone: "Trips").first?.value)
            #expect(record.fields?["caption"]?.value == .string("Lisbon") && record.fields?["nights"]?.value == .int64(4))

            let saved = try await browser.post("\(alice)/records", [
                ("operation", "save"), ("zone", "Trips"), ("name", "lisbon"), ("recordType", "Destination"),
                ("field", "nights"), ("type", "INT64"), ("value", "5"), ("field3", "country"), ("type3", "STRING"), ("value3", "Portugal"),
                ("back", "\(alice)/zone?zone=Trips"),
            ])
            #expect(saved.text.contains("Record lisbon saved."))
            record = try #require(try await server.lookup(["lisbon"], zone: "Trips").first?.value)
            #expect(record.fields?["nights"]?.value == .int64(5) && record.fields?["country"]?.value == .string("Portugal"))
            #expect(record.fields?["caption"]?.value == .string("Lisbon"), "a field the form did not name stays")
        }
    }

    @Test func aSaveTheServerRefusesComesBackWithWhatWasTypedOnceAndTheNextPageIsBlank() async throws {
        try await TestServer.run { server in
            _ = try await server.createZone("Trips")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let alice = "/console/c/\(DevSeeder.container)/development/u/\(server.userRecordName("alice"))/private"
            let zone = "\(alice)/zone?zone=Trips"
            _ = try await browser.get(zone)
            let refused = try await browser.post("\(alice)/records", [
                ("operation", "save"), ("zone", "Trips"), ("name", "porto"), ("recordType", "Destination"),
                ("field", "nights"), ("type", "INT64"), ("value", "twelve"), ("field2", "caption"), ("type2", "STRING"), ("value2", "Porto"),
                ("back", zone),
            ])
            #expect(refused.text.contains("notice error"), "the refusal is shown")
            #expect(refused.text.contains("name=\"name\" value=\"porto\""))
            #expect(refused.text.contains("name=\"value\" value=\"twelve\"") && refused.text.contains("name=\"value2\" value=\"Porto\""))
            #expect(refused.text.contains("<option value=\"INT64\" selected>"), "the row's type is still chosen")
            #expect(try await server.lookup(["porto"], zone: "Trips").first?.value == nil, "nothing saved")
            let again = try await browser.get(zone)
            #expect(!again.text.contains("twelve"), "shown once")
        }
    }
}
