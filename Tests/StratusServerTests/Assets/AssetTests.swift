import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Synchronization
import Testing

/// Assets end to end over HTTP: upload URLs, bytes, receipts, download URLs, ranges,
/// rereference, collection.
@Suite struct AssetTests {
    @Test func anUploadedPhotoIsSavedAndDownloadedByteForByte() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let bytes = Photos.bytes(300_000)
            let uploaded = try await server.upload(bytes)
            #expect(uploaded.fileChecksum == Photos.checksum(bytes))
            #expect(uploaded.size == 300_000)
            #expect(uploaded.receipt != nil && uploaded.wrappingKey != nil && uploaded.referenceChecksum != nil)
            let saved = try await server.modify([Photos.save("lisbon", photo: uploaded)], zone: "Trips")
            guard case .success(let record)? = saved.first, case .asset(let stored)? = record.fields?["photo"]?.value else {
                throw TestFailure("not saved: \(saved)")
            }
            #expect(stored.receipt == nil, "a receipt is never answered back")
            let photo = try #require(try await server.photo(of: "lisbon"))
            let url = try #require(photo.downloadURL)
            #expect(url.hasPrefix("http://"))

            let whole = try await server.download(url)
            #expect(whole.status == .ok)
            #expect(Photos.checksum(whole.body.readableBytesView) == Photos.checksum(bytes))
            #expect(whole.headers[.contentLength] == "300000")
            #expect(whole.headers[.eTag] == "\"\(Photos.checksum(bytes))\"")

            let slice = try await server.download(url, headers: [.range: "bytes=1000-1999"])
            #expect(slice.status == .partialContent)
            #expect(Array(slice.body.readableBytesView) == Array(bytes[1000...1999]))
            #expect(slice.headers[.contentRange] == "bytes 1000-1999/300000")
            let tail = try await server.download(url, headers: [.range: "bytes=-10"])
            #expect(Array(tail.body.readableBytesView) == Array(bytes.suffix(10)))
            let beyond = try await server.download(url, headers: [.range: "bytes=400000-"])
            #expect(beyond.status == .rangeNotSatisfiable)
            let cached = try await server.download(url, headers: [.ifNoneMatch: "\"\(Photos.checksum(bytes))\""])
            #expect(cached.status == .notModified)
            let head = try await server.download(url, method: .head)
            #expect(head.status == .ok && head.headers[.contentLength] == "300000" && head.body.readableBytes == 0)

            // Change feeds and queries carry download URLs too.
            guard case .success(let page) = try await server.zoneChanges("Trips"),
                case .asset(let changed)? = page.records.first?.fields?["photo"]?.value
            else { throw TestFailure("no change") }
            #expect(changed.downloadURL != nil)
            let query = QueryRecordsRequest(query: Query(recordType: "Destination"), zoneID: ZoneID(zoneName: "Trips"))
            let found = try await server.call("records/query", query, expecting: QueryRecordsResponse.self)
            guard case .asset(let queried)? = found.records.first?.record?.fields?["photo"]?.value else { throw TestFailure("no query result") }
            #expect(queried.downloadURL != nil)
        }
    }

    @Test func uploadsArePOSTorPUTOnceAndStoredOnce() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let bytes = Photos.bytes(50_000)
            let url = try await server.uploadURL()
            let first = try await server.put(bytes, to: url, method: .put)
            #expect(first.status == .ok)
            let again = try await server.put(bytes, to: url)
            #expect(again.status == .badRequest, "an upload URL serves once")
            #expect(again.errorBody?.reason.contains("used already") == true)
            _ = try await server.upload(bytes)
            #expect(server.blobFiles == [Photos.checksum(bytes)], "the same bytes are stored once")
            let forged = try await server.put(bytes, to: "/stratus/v1/assets/upload/forged.ticket")
            #expect(forged.status == .notFound)
            // A receipt is signed for what it is: it opens no download, and no upload.
            let receipt = try #require(try first.decode(AssetUploadResult.self).singleFile.receipt)
            #expect(try await server.download("/stratus/v1/assets/download/\(receipt)").status == .notFound)
            #expect(try await server.put(bytes, to: "/stratus/v1/assets/upload/\(receipt)").status == .notFound)
        }
    }

    @Test func badReusedExpiredAndForeignReceiptsAreRefusedPerItem() async throws {
        let offset = Mutex<Int64>(0)
        let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) + offset.withLock { $0 } }
        try await TestServer.run(now: now) { server in
            try await server.createZone("Trips")
            try await server.createZone("Trips", as: "bob")
            let uploaded = try await server.upload(Photos.bytes(10_000))
            var forged = uploaded
            forged.receipt = "made-up-receipt"
            var tampered = uploaded
            tampered.fileChecksum = String(repeating: "0", count: 64)
            let refused = try await server.modify(
                [Photos.save("forged", photo: forged), Photos.save("tampered", photo: tampered)], zone: "Trips", atomic: false
            )
            #expect(refused.map { $0.error?.serverErrorCode } == [.badRequest, .badRequest])

            let foreign = try await server.modify([Photos.save("stolen", photo: uploaded)], zone: "Trips", as: "bob")
            #expect(foreign.first?.error?.reason.contains("another account") == true)

            let saved = try await server.modify([Photos.save("lisbon", photo: uploaded)], zone: "Trips")
            #expect(saved.first?.record != nil)
            // A resend of the same save (its answer lost) is the same claim: accepted.
            let resent = try await server.modify([Photos.save("lisbon", photo: uploaded, operation: .forceUpdate)], zone: "Trips")
            #expect(resent.first?.record != nil, "\(resent)")
            let reused = try await server.modify([Photos.save("porto", photo: uploaded)], zone: "Trips")
            #expect(reused.first?.error?.reason.contains("used for another record") == true)

            // Sending back the value a fetch answered (no receipt) keeps the asset; on another record it is refused.
            let fetched = try #require(try await server.photo(of: "lisbon"))
            let kept = try await server.modify([Photos.save("lisbon", photo: fetched, operation: .forceUpdate)], zone: "Trips")
            #expect(kept.first?.record != nil)
            let copied = try await server.modify([Photos.save("faro", photo: fetched)], zone: "Trips")
            #expect(copied.first?.error?.serverErrorCode == .badRequest)
            // A size sent back wrong changes nothing about what is served: downloads use the bytes' own length.
            var resized = fetched
            resized.size = 999_999_999
            _ = try await server.modify([Photos.save("lisbon", photo: resized, operation: .forceUpdate)], zone: "Trips")
            let served = try await server.download(try #require(try await server.photo(of: "lisbon")?.downloadURL))
            #expect(served.headers[.contentLength] == "10000" && served.body.readableBytes == 10_000)

            let late = try await server.upload(Photos.bytes(10_000, seed: 2))
            offset.withLock { $0 = 25 * 3600 * 1000 }
            let expired = try await server.modify([Photos.save("late", photo: late)], zone: "Trips")
            #expect(expired.first?.error?.reason.contains("expired") == true)
            let lapsedURL = try await server.uploadURL()
            offset.withLock { $0 += 16 * 60 * 1000 }
            #expect(try await server.put([1, 2, 3], to: lapsedURL).errorBody?.reason.contains("expired") == true)

            let missing = try await server.lookup(["forged", "tampered", "porto", "faro", "late"], zone: "Trips")
            #expect(missing.allSatisfy { $0.error?.serverErrorCode == .notFound }, "nothing refused was saved")
            let bobs = try await server.lookup(["stolen"], zone: "Trips", as: "bob")
            #expect(bobs.first?.error?.serverErrorCode == .notFound)
        }
    }

    @Test func anAssetOverTheLimitIsRefusedBeforeItIsStoredWhole() async throws {
        var limits = ServiceLimits.strict
        limits.assetBytes = 100_000
        try await TestServer.run(limits: limits, live: true) { server in
            try await server.createZone("Trips")
            // Content-Length over the limit: refused before a byte is read.
            let declared = try await server.put(Photos.bytes(150_000), to: try await server.uploadURL())
            #expect(declared.status == .badRequest)
            #expect(declared.errorBody?.reason.contains("larger than 100000 bytes") == true)
            // Chunked, no length: refused once the limit is passed, nothing kept.
            let port = try #require(server.client.port)
            let chunked = try RawConnection(port: port)
            try chunked.send(
                "POST \(TestServer.path(of: try await server.uploadURL())) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            let chunk = String(repeating: "a", count: 16_384)
            for _ in 0..<10 { try? chunked.send("4000\r\n\(chunk)\r\n") }
            let answer = try await chunked.receive(waiting: 5)
            #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("larger than"), "\(answer)")
            #expect(await eventually { server.blobFiles.isEmpty && server.stagedFiles.isEmpty }, "nothing kept")
            let fits = try await server.upload(Photos.bytes(100_000))
            #expect(fits.size == 100_000)
        }
    }

    @Test func anUploadCutShortLeavesNothing() async throws {
        try await TestServer.run(live: true) { server in
            try await server.createZone("Trips")
            let url = try await server.uploadURL()
            do {
                let connection = try RawConnection(port: try #require(server.client.port))
                try connection.send("POST \(TestServer.path(of: url)) HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n")
                try connection.send(String(repeating: "b", count: 50_000))
                try await Task.sleep(for: .milliseconds(100))
            }
            // The client went away mid-body: no blob, no staged file, and the URL is still unused.
            #expect(await eventually { server.blobFiles.isEmpty && server.stagedFiles.isEmpty }, "nothing kept")
            #expect(try await server.put(Photos.bytes(1_000), to: url).status == .ok)
        }
    }

    @Test func participantsDownloadSharedPhotosAndOthersCannotSeeThem() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readOnly)])
            let bytes = Photos.bytes(20_000)
            let uploaded = try await server.upload(bytes)
            var root = try #require(try await server.lookup(["root"], zone: "Trips").first?.record)
            root.fields?["photo"] = Field(.asset(uploaded), type: .assetID)
            #expect(try await server.modify([RecordOperation(.update, root)], zone: "Trips").first?.record != nil)
            // The invitation's root record carries the photo's URL too (records/resolve, shouldFetchRootRecord).
            let resolved = try await server.resolve(try #require(share.shortGUID), as: "bob")
            guard case .asset(let invited)? = resolved.value?.rootRecord?.fields?["photo"]?.value else { throw TestFailure("\(resolved)") }
            #expect(invited.downloadURL != nil)
            _ = try await server.accept(try #require(share.shortGUID), as: "bob")
            let bobs = try #require(try await server.photo(of: "root", database: "shared", owner: server.userRecordName("alice"), as: "bob"))
            let downloaded = try await server.download(try #require(bobs.downloadURL))
            #expect(Photos.checksum(downloaded.body.readableBytesView) == Photos.checksum(bytes))
            let carols = try await server.photo(of: "root", database: "shared", owner: server.userRecordName("alice"), as: "carol")
            #expect(carols == nil, "carol is in no share: she never gets a download URL")
        }
    }

    @Test func publicPhotosDownloadForEveryone() async throws {
        try await TestServer.run { server in
            let bytes = Photos.bytes(5_000)
            let url = try await server.call(
                "assets/upload",
                AssetUploadRequest(zoneID: ZoneID(zoneName: ZoneID.defaultZoneName), tokens: [.init(recordType: "Destination", fieldName: "photo")]),
                database: "public", as: "alice", expecting: AssetUploadResponse.self
            ).tokens.first?.url
            let uploaded = try await server.put(bytes, to: try #require(url)).decode(AssetUploadResult.self).singleFile
            let save = ModifyRecordsRequest(operations: [Photos.save("harbour", photo: uploaded)], zoneID: ZoneID(zoneName: ZoneID.defaultZoneName))
            _ = try await server.call("records/modify", save, database: "public", as: "alice", expecting: RecordsResponse.self)
            // Read with the API token alone (no signed-in user): the record and its photo.
            let photo = try #require(try await server.photo(of: "harbour", zone: ZoneID.defaultZoneName, database: "public", as: nil))
            let downloaded = try await server.download(try #require(photo.downloadURL))
            #expect(Array(downloaded.body.readableBytesView) == bytes)
            // Uploading needs a signed-in user.
            let anonymous = try await server.post(
                "assets/upload",
                AssetUploadRequest(zoneID: ZoneID(zoneName: ZoneID.defaultZoneName), tokens: [.init(recordType: "Destination", fieldName: "photo")]),
                database: "public", as: nil
            )
            #expect(anonymous.status.code == 421)
        }
    }

    @Test func rereferencePutsTheSameBytesOnAnotherRecord() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let bytes = Photos.bytes(40_000)
            _ = try await server.modify([Photos.save("lisbon", photo: try await server.upload(bytes))], zone: "Trips")
            let request = RereferenceAssetsRequest(
                zoneID: ZoneID(zoneName: "Trips"),
                assets: [.init(recordName: "lisbon", fieldName: "photo"), .init(recordName: "nowhere", fieldName: "photo")]
            )
            let response = try await server.call("assets/rereference", request, expecting: RereferenceAssetsResponse.self)
            #expect(response.assets.last?.error?.serverErrorCode == .notFound)
            guard case .asset(let copy)? = response.assets.first?.value?.field.value else { throw TestFailure("\(response)") }
            #expect(copy.receipt != nil && copy.fileChecksum == Photos.checksum(bytes))
            #expect(try await server.modify([Photos.save("lisbon-copy", photo: copy)], zone: "Trips").first?.record != nil)
            let photo = try #require(try await server.photo(of: "lisbon-copy"))
            let downloaded = try await server.download(try #require(photo.downloadURL))
            #expect(Array(downloaded.body.readableBytesView) == bytes)
            #expect(server.blobFiles.count == 1)
        }
    }

    @Test func aDownloadURLEndsInTheFileNamePlaceholderAndServesWithItFilledIn() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let bytes = Photos.bytes(20_000)
            _ = try await server.modify([Photos.save("lisbon", photo: try await server.upload(bytes))], zone: "Trips")
            let url = try #require(try await server.photo(of: "lisbon")?.downloadURL)
            #expect(url.hasSuffix("/${f}"), "Apple's download URLs end in a ${f} file-name placeholder: \(url)")
            // A client puts any file name there; the placeholder (as a browser sends it) and the
            // URL without it serve too.
            let prefix = String(url.dropLast("${f}".count))
            for served in [prefix + "tram.jpg", prefix + "Tram%2028.jpg", prefix + "$%7Bf%7D", prefix + "%24%7Bf%7D", String(prefix.dropLast())] {
                let response = try await server.download(served)
                #expect(response.status == .ok, "\(served)")
                #expect(Array(response.body.readableBytesView) == bytes, "\(served)")
            }
            let head = try await server.download(prefix + "tram.jpg", method: .head)
            #expect(head.status == .ok && head.headers[.contentLength] == "20000")
        }
    }

    @Test func collectionRemovesUnreferencedBlobsAndKeepsReferencedOnes() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let kept = Photos.bytes(30_000, seed: 1)
            let orphan = Photos.bytes(30_000, seed: 2)
            _ = try await server.modify([Photos.save("lisbon", photo: try await server.upload(kept))], zone: "Trips")
            let unused = try await server.upload(orphan)
            // Within the grace period nothing goes.
            let young = try await server.admin("assets/collect", CollectAssetsRequest(olderThanSeconds: 3600))
            #expect(try young.decode(CollectAssetsResponse.self) == CollectAssetsResponse(removed: 0, kept: 2))
            let collected = try await server.admin("assets/collect", CollectAssetsRequest(olderThanSeconds: 0))
            #expect(try collected.decode(CollectAssetsResponse.self) == CollectAssetsResponse(removed: 1, kept: 1))
            #expect(server.blobFiles == [Photos.checksum(kept)])
            // Its receipt no longer attaches anything.
            let late = try await server.modify([Photos.save("porto", photo: unused)], zone: "Trips")
            #expect(late.first?.error?.reason.contains("no longer stored") == true)
            // Deleting the record frees its photo.
            _ = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "lisbon"))], zone: "Trips")
            let freed = try await server.admin("assets/collect", CollectAssetsRequest(olderThanSeconds: 0))
            #expect(try freed.decode(CollectAssetsResponse.self) == CollectAssetsResponse(removed: 1, kept: 0))
            #expect(server.blobFiles.isEmpty)
            for age in [Int64(-1), .max] {
                let refused = try await server.admin("assets/collect", CollectAssetsRequest(olderThanSeconds: age))
                #expect(refused.status == .badRequest, "olderThanSeconds \(age)")
            }
        }
    }
}
