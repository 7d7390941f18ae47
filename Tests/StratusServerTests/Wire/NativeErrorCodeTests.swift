import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// CloudKit JS copies an error's `ckErrorCode` into its own `CKError.ckErrorCode`, which apps
/// compare with string constants: no error the server writes may carry that key, and the native
/// `CKError.Code` numbers Stratus adds for its own client (`nativeErrorCode`) are written only
/// for a client that asks (`X-Stratus-Extensions: nativeErrorCodes`). Walks every error that
/// carries a native code — top-level, per record and per zone — and every web code.
@Suite struct NativeErrorCodeTests {
    /// A request as a plain CKWS client sends it (no extension header), or asking for native codes.
    static func send(
        _ server: TestServer, _ operation: String, _ body: some Encodable, database: String = "private", asking: Bool
    ) async throws -> TestResponse {
        try await ErrorExtrasTests.send(server, operation, body, database: database, asking: asking ? .nativeErrorCodes : nil)
    }

    /// Every `nativeErrorCode` (and any `ckErrorCode`) anywhere in a JSON answer.
    static func codes(in text: String) throws -> (native: [Int], apple: Int) {
        var native: [Int] = []
        var apple = 0
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if key == "nativeErrorCode", let code = inner as? Int { native.append(code) }
                    if key == "ckErrorCode" { apple += 1 }
                    walk(inner)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        return (native, apple)
    }

    @Test("each error with a native code answers a plain client without it, and a client that asks with it")
    func everyNativeCodeIsAskedFor() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([Records.create("a"), Records.create("b")], zone: "Trips")
            let old = try await server.allZoneChanges("Trips", limit: 200).token
            var delete = Record(recordName: "b")
            delete.recordChangeTag = created[1].record?.recordChangeTag
            _ = try await server.modify([RecordOperation(.delete, delete)], zone: "Trips")
            let compact = try await server.admin("zones/compact", CompactZoneRequest(
                container: server.credentials.container, environment: .development, ownerRecordName: server.userRecordName("alice"), zoneName: "Trips"
            ))
            #expect(compact.status == .ok, "\(compact.text)")
            _ = try await server.modify([OneSharePerZoneTests.share(ShareNames.zoneWideShare)], zone: "Trips")
            try await server.createZone("Purged")
            _ = try await server.modify([Records.create("r1")], zone: "Purged")
            try await ZoneResetErrorTests.reset("Purged", .purged, on: server)

            let trips = ZoneID(zoneName: "Trips")
            let tooMany = ModifyRecordsRequest(operations: (0...200).map { Records.create("n\($0)") }, zoneID: trips)
            let oversized = ModifyRecordsRequest(
                operations: [RecordOperation(.create, Records.destination("big", caption: String(repeating: "x", count: 1_000_001)))], zoneID: trips
            )
            let cases: [(label: String, expected: Int, send: @Sendable (Bool) async throws -> TestResponse)] = [
                ("201 operations (top level)", CKErrorCodeNumber.limitExceeded, { try await Self.send(server, "records/modify", tooMany, asking: $0) }),
                ("a record over 1 MB (per record)", CKErrorCodeNumber.limitExceeded, { try await Self.send(server, "records/modify", oversized, asking: $0) }),
                ("an expired token (per zone)", CKErrorCodeNumber.changeTokenExpired, {
                    try await Self.send(server, "changes/zone", ZoneChangesRequest(zones: [.init(zoneID: trips, syncToken: old)]), asking: $0)
                }),
                ("an expired token (top level)", CKErrorCodeNumber.changeTokenExpired, {
                    try await Self.send(server, "records/changes", RecordChangesRequest(zoneID: trips, syncToken: old), asking: $0)
                }),
                ("a record share in a zone shared whole (per record)", CKErrorCodeNumber.alreadyShared, {
                    try await Self.send(server, "records/modify", ModifyRecordsRequest(
                        operations: [OneSharePerZoneTests.share("share-a")], zoneID: trips
                    ), asking: $0)
                }),
                ("a write into a purged zone (per record)", CKErrorCodeNumber.userDeletedZone, {
                    try await Self.send(server, "records/modify", ModifyRecordsRequest(
                        operations: [RecordOperation(.forceUpdate, Records.destination("r1", caption: "x"))], zoneID: ZoneID(zoneName: "Purged")
                    ), asking: $0)
                }),
                ("a purged zone looked up (per zone)", CKErrorCodeNumber.userDeletedZone, {
                    try await Self.send(server, "zones/lookup", LookupZonesRequest(zones: [ZoneID(zoneName: "Purged")]), asking: $0)
                }),
                ("a container the server does not have (top level)", CKErrorCodeNumber.badContainer, { asking in
                    var headers: HTTPFields = [:]
                    if asking { headers[TestServer.extensionsHeader] = WireExtensions.nativeErrorCodes.headerValue }
                    let uri = "/database/1/iCloud.com.example.Other/development/private/zones/list?ckAPIToken=\(server.credentials.apiToken)"
                    return try await server.client.execute(uri: uri, method: .get, headers: headers, body: nil)
                }),
            ]
            for (label, expected, send) in cases {
                let plain = try await send(false)
                let plainCodes = try Self.codes(in: plain.text)
                #expect(plainCodes.native.isEmpty && plainCodes.apple == 0, "\(label), unasked: \(plain.text)")
                #expect(plain.status != .ok || plain.text.contains("serverErrorCode"), "\(label): \(plain.text)")
                let asked = try await send(true)
                let askedCodes = try Self.codes(in: asked.text)
                #expect(askedCodes.native.contains(expected) && askedCodes.apple == 0, "\(label), asked: \(asked.text)")
            }
        }
    }

    @Test("no error body, per-record or per-zone error of any web code writes a native code unasked")
    func everyWebCodeUnasked() throws {
        for code in ServerErrorCode.documented {
            let zone = ZoneID(zoneName: "Z")
            let errors: [any Encodable] = [
                ErrorBody(uuid: "u", serverErrorCode: code, reason: "r", nativeErrorCode: 27),
                RecordsResponse(records: [.failure(RecordError(recordName: "a", serverErrorCode: code, reason: "r", nativeErrorCode: 28))]),
                ZoneError(zoneID: zone, serverErrorCode: code, reason: "r", nativeErrorCode: 21),
            ]
            for error in errors {
                let plain = String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
                #expect(!plain.contains("nativeErrorCode") && !plain.contains("ckErrorCode"), "\(code): \(plain)")
                let encoder = JSONEncoder()
                encoder.userInfo[.wireExtensions] = WireExtensions.nativeErrorCodes
                let asked = String(decoding: try encoder.encode(error), as: UTF8.self)
                #expect(asked.contains("\"nativeErrorCode\":2"), "\(code): \(asked)")
            }
            let written = String(decoding: try RecordsResponse(records: [
                .failure(RecordError(recordName: "a", serverErrorCode: code, reason: "r", nativeErrorCode: 28)),
            ]).jsonBytes(), as: UTF8.self)
            #expect(!written.contains("nativeErrorCode"), "\(code), the fast writer: \(written)")
        }
    }
}
