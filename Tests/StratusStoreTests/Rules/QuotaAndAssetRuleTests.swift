import StratusModel
import StratusStore
import Testing

/// Storage quotas and asset receipts, each rule stated once and run on every store.
@Suite("Quota and asset rules")
struct QuotaAndAssetRuleTests {
    typealias F = RuleFixture

    @Test("a write past the owner's quota fails alone; deletes and zone deletions give bytes back", arguments: StoreKind.allCases)
    func quota(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: false)
            let big: [String: Field] = ["text": .string(String(repeating: "x", count: 150))]
            _ = try await store.setQuota(400, container: "iCloud.test", environment: .development, owner: F.alice)
            let first = try await store.apply(F.batch([F.save("a", big), F.save("b", big), F.save("c", big)]))
            #expect(first.failures == [nil, nil, .quotaExceeded(quota: 400)])
            #expect(try await store.apply(F.batch([F.delete("a"), F.save("c", big)])).failures == [nil, nil])
            #expect(try await store.apply(F.batch([F.save("d", big)])).failures == [.quotaExceeded(quota: 400)])
            _ = try await store.deleteZone(F.zone)
            _ = try await store.createZone(F.zone, atomic: false)
            #expect(try await store.apply(F.batch([F.save("a", big), F.save("b", big)])).failures == [nil, nil])
            #expect(try await store.setQuota(nil, container: "iCloud.test", environment: .development, owner: F.alice) > 300)
        }
    }

    @Test("a receipt serves one record field, only while its bytes are stored; a receiptless asset must be the record's", arguments: StoreKind.allCases)
    func receipts(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: false)
            let checksum = String(repeating: "ab", count: 32)
            try await store.recordUpload(
                AssetUpload(uploadID: "u1", container: "iCloud.test", environment: .development, owner: F.alice, checksum: checksum, size: 3, createdAt: 1_000)
            ) {}
            func photo(_ name: String, receipt: Bool = true) -> RecordWrite {
                var write = F.save(name, ["photo": Field(.asset(AssetValue(fileChecksum: checksum, size: 3)), type: .asset)])
                if receipt {
                    write.assetClaims = [AssetClaim(uploadID: "u1", checksum: checksum, fieldName: "photo")]
                } else {
                    write.unclaimedAssets = [checksum]
                }
                return write
            }
            #expect(try await store.apply(F.batch([photo("a")])).failures == [nil])
            #expect(try await store.apply(F.batch([photo("a")])).failures == [nil], "the same field again (a resend)")
            guard case .assetRefused = try await store.apply(F.batch([photo("b")])).failures[0] else {
                throw TestFailure("one receipt served two records")
            }
            guard case .assetRefused = try await store.apply(F.batch([photo("c", receipt: false)])).failures[0] else {
                throw TestFailure("a receiptless asset that is not the record's was accepted")
            }
            #expect(try await store.apply(F.batch([photo("a", receipt: false)])).failures == [nil], "the record's own asset, kept")
            let collection = try await store.collectBlobs(unreferencedSince: Int64.max, now: Int64.max, uploadsBefore: 0) { _ in }
            let size = try await store.blobSize(checksum)
            #expect(collection.removed == 0 && size == 3, "a referenced blob is never collected")
        }
    }
}
