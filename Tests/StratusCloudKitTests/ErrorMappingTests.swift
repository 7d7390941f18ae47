import Foundation
import StratusCloudKit
import StratusModel
import Testing

/// How CloudKit Web Services' error codes become `CKError` codes, the one mapping every client
/// of the house reads (the sync engine, operations, simulated devices).
@Suite struct ErrorMappingTests {
    @Test("CKWS error codes become CKError codes, transient or not", arguments: [
        (ServerErrorCode.conflict, nil, CKError.Code.serverRecordChanged, false),
        (.accessDenied, nil, .permissionFailure, false),
        (.zoneNotFound, nil, .zoneNotFound, false),
        (.zoneNotFound, 28, .userDeletedZone, false),
        (.throttled, nil, .requestRateLimited, true),
        (.tryAgainLater, nil, .serviceUnavailable, true),
        (.badRequest, 21, .changeTokenExpired, false),
        (.badRequest, nil, .invalidArguments, false),
        (.atomicError, nil, .batchRequestFailed, false),
    ] as [(ServerErrorCode, Int?, CKError.Code, Bool)])
    func serverErrorCodes(code: ServerErrorCode, nativeErrorCode: Int?, expected: CKError.Code, transient: Bool) {
        let mapped = CKError.Code(serverErrorCode: code, nativeErrorCode: nativeErrorCode)
        #expect(mapped == expected)
        #expect(mapped.isTransient == transient)
    }

    @Test("a ZONE_NOT_FOUND marked userDidResetEncryptedData is a zoneNotFound carrying Apple's key, with its retry time")
    func encryptedDataResetMarker() throws {
        let json = #"{"recordName":"r1","serverErrorCode":"ZONE_NOT_FOUND","reason":"gone","retryAfter":3,"userDidResetEncryptedData":true}"#
        let error = CKError(try JSONDecoder().decode(RecordError.self, from: Data(json.utf8)), client: nil, zoneID: .default)
        #expect(error.code == .zoneNotFound)
        #expect(error.userInfo[CKErrorUserDidResetEncryptedDataKey] as? Bool == true)
        #expect(error.retryAfterSeconds == 3)
        let unmarked = #"{"recordName":"r1","serverErrorCode":"ZONE_NOT_FOUND","reason":"gone"}"#
        let plain = CKError(try JSONDecoder().decode(RecordError.self, from: Data(unmarked.utf8)), client: nil, zoneID: .default)
        #expect(plain.userInfo[CKErrorUserDidResetEncryptedDataKey] == nil)
    }
}
