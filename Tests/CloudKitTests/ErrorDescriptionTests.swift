import CloudKit
import Foundation
import Testing

/// A `CKError` made without a description reads as Apple's Foundation words it. (Held as
/// `any Error`, Linux's Foundation words it itself — "could not" — through `NSError`.)
@Suite struct ErrorDescriptionTests {
    @Test func anErrorWithoutADescriptionReadsAsApplesFrameworkWritesIt() {
        let error = CKError(.accountTemporarilyUnavailable)
        #expect(error.localizedDescription == "The operation couldn\u{2019}t be completed. (CKErrorDomain error 36.)")
        #expect(CKError(.zoneBusy).localizedDescription == "The operation couldn\u{2019}t be completed. (CKErrorDomain error 23.)")
    }

    @Test func anErrorWithADescriptionReadsItsDescription() {
        let error = CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: "bad query"])
        #expect(error.localizedDescription == "bad query")
        #expect((error as any Error).localizedDescription == "bad query")
    }
}
