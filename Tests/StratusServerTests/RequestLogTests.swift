import Foundation
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The request log: one line a request naming what it did — and never a credential.
@Suite struct RequestLogTests {
    @Test func aWriteLineNamesPathDatabaseZoneAccountAndItsPerItemErrorsAndNoToken() async throws {
        let recorder = LogRecorder()
        try await TestServer.run(logger: recorder.logger()) { server in
            _ = try await server.post("zones/modify", ModifyZonesRequest(operations: [.init(.create, ZoneID(zoneName: "LogZone"))]))
            let record = Record(recordName: "dup", recordType: "Note", fields: ["text": .string("a")])
            for _ in 0..<2 {
                _ = try await server.post("records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, record)], zoneID: ZoneID(zoneName: "LogZone")))
            }
            let writes = recorder.recorded.filter { $0.message.hasPrefix("POST \(TestServer.base)/private/records/modify") }
            #expect(writes.count == 2)
            let second = try #require(writes.last)
            #expect(second.message.hasSuffix(" 200"))
            #expect(second.metadata["container"] == DevSeeder.container)
            #expect(second.metadata["environment"] == "development" && second.metadata["database"] == "private")
            #expect(second.metadata["zones"] == "LogZone")
            #expect(second.metadata["account"] == server.userRecordName("alice"))
            #expect(second.metadata["item_errors"] == "EXISTS:1", "the refused create inside the 200")
            #expect(writes.first?.metadata["item_errors"] == nil)
            let everything = recorder.recorded.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(!everything.contains(server.credentials.apiToken), "a token never reaches the log")
            #expect(!everything.contains(server.credentials.account("alice")?.webAuthToken ?? "-"))
        }
    }

    @Test func aMistypedPathIsLoggedAsItsPathWithTheErrorCode() async throws {
        let recorder = LogRecorder()
        try await TestServer.run(logger: recorder.logger()) { server in
            _ = try await server.raw("records/modifyy", body: nil)
            let line = try #require(recorder.recorded.first { $0.message.contains("records/modifyy") })
            #expect(line.message == "POST \(TestServer.base)/private/records/modifyy 404")
            #expect(line.metadata["error"] == "NOT_FOUND")
        }
    }
}
