import StratusModel
import StratusStore
import Testing

@testable import StratusCore

/// records/modify operations turned into store writes, with no server or store: names and types
/// checked, change-tag preconditions chosen by operation type, field types resolved against the
/// schema (learned in development, fixed in production), and share records checked — each refusal
/// a per-item `BAD_REQUEST` made before the store is touched.
@Suite struct OperationPlannerTests {
    /// A `Note` type with a string `title`, a double `ratio` and a timestamp `when`.
    static let schema: SchemaCache.Schema = ["Note": ["title": .string, "ratio": .double, "when": .timestamp]]

    private func planner(mayLearn: Bool = true, existingTypes: [String: String] = [:], shares: ShareContext = ShareContext()) -> OperationPlanner {
        OperationPlanner(schema: Self.schema, existingTypes: existingTypes, mayLearn: mayLearn, shares: shares, recordBytes: 1_000)
    }

    private func operation(
        _ type: RecordOperationType, _ name: String = "n1", recordType: String? = "Note", tag: String? = nil, fields: [String: Field]? = nil
    ) -> RecordOperation {
        RecordOperation(type, Record(recordName: name, recordType: recordType, recordChangeTag: tag, fields: fields))
    }

    /// The write planned (the test fails on anything else).
    private func write(_ plan: OperationPlanner.Plan, sourceLocation: SourceLocation = #_sourceLocation) throws -> RecordWrite {
        try #require(plan.planned?.write, "planned \(plan), not a write", sourceLocation: sourceLocation)
    }

    /// The refusal planned (the test fails on anything else).
    private func refusal(_ plan: OperationPlanner.Plan, sourceLocation: SourceLocation = #_sourceLocation) throws -> RecordError {
        try #require(plan.refusal, "planned \(plan), not a refusal", sourceLocation: sourceLocation)
    }

    private func plan(_ operation: RecordOperation, with planner: inout OperationPlanner, desiredKeys: [String]? = nil) -> OperationPlanner.Plan {
        planner.plan(operation, name: operation.record.recordName ?? "generated", requestDesiredKeys: desiredKeys)
    }

    private func plan(_ operation: RecordOperation) -> OperationPlanner.Plan {
        var planner = planner()
        return plan(operation, with: &planner)
    }

    @Test func eachOperationTypeChoosesItsActionAndPrecondition() throws {
        #expect(try write(plan(operation(.create))).action == .create)
        #expect(try write(plan(operation(.create))).precondition == .none)
        let update = try write(plan(operation(.update, tag: "t1")))
        #expect(update.action == .save(replace: false) && update.precondition == .changeTag("t1"))
        let replace = try write(plan(operation(.replace, tag: "t1")))
        #expect(replace.action == .save(replace: true) && replace.precondition == .changeTag("t1"))
        let forced = try write(plan(operation(.forceUpdate)))
        #expect(forced.action == .save(replace: false) && forced.precondition == .none)
        #expect(try write(plan(operation(.forceReplace))).action == .save(replace: true))
        let delete = try write(plan(operation(.delete, recordType: nil, tag: "t2")))
        #expect(delete.action == .delete && delete.precondition == .changeTag("t2"))
        #expect(try write(plan(operation(.forceDelete, recordType: nil))).precondition == .none)
    }

    @Test func aTagCheckedOperationWithoutATagIsRefused() throws {
        for type in [RecordOperationType.update, .replace, .delete] {
            let error = try refusal(plan(operation(type)))
            #expect(error.serverErrorCode == .badRequest && error.recordName == "n1")
            #expect(error.reason.contains("requires the record's recordChangeTag"))
            #expect(error.uuid?.isEmpty == false)
        }
    }

    @Test func namesAndTypesFollowCloudKitsRules() throws {
        #expect(try refusal(plan(operation(.create, "   "))).reason == "invalid recordName '   '")
        #expect(try refusal(plan(operation(.create, "tab\there"))).serverErrorCode == .badRequest)
        #expect(try refusal(plan(operation(.create, recordType: "9Lives"))).reason == "invalid recordType '9Lives'")
        #expect(try refusal(plan(operation(.create, recordType: "cloudkit.mine"))).reason.contains("reserved"))
        #expect(try refusal(plan(operation(.create, ShareNames.zoneWideShare, recordType: "Note"))).reason.contains("zone-wide share"))
        #expect(try refusal(plan(operation(.create, recordType: nil))).reason == "create requires a recordType")
        #expect(try refusal(plan(operation(.create, fields: ["has space": .string("x")]))).reason == "invalid field name 'has space'")
        var own = operation(.create)
        own.record.parent = RecordPointer(recordName: "n1")
        #expect(try refusal(plan(own)).reason == "record 'n1' cannot be its own parent")
    }

    @Test func anUpdateWithoutATypeTakesTheStoredOne() throws {
        var planner = planner(existingTypes: ["n1": "Note"])
        let update = try write(plan(operation(.forceUpdate, recordType: nil, fields: ["title": .string("x")]), with: &planner))
        #expect(update.recordType == "Note")
        #expect(update.fields["title"]?.type == .string)
    }

    @Test func aRecordOverItsByteLimitIsLimitExceeded() throws {
        let error = try refusal(plan(operation(.create, fields: ["title": .string(String(repeating: "a", count: 1_001))])))
        #expect(error.serverErrorCode == .badRequest && error.nativeErrorCode == CKErrorCodeNumber.limitExceeded)
        #expect(error.reason.contains("limit exceeded"))
    }

    @Test func bareValuesTakeTheSchemasTypeAndTypedOnesMustMatchIt() throws {
        var bare = Field.int64(3)
        bare.isTypeInferred = true
        let resolved = try write(plan(operation(.create, fields: ["ratio": bare])))
        #expect(resolved.fields["ratio"] == Field(.double(3), type: .double))
        let mismatch = try refusal(plan(operation(.create, fields: ["title": .int64(3)])))
        #expect(mismatch.reason == "field 'title' of 'Note' has type STRING, not INT64")
        var number = Field.int64(1_700_000_000_000)
        number.isTypeInferred = true
        // CloudKit refuses a bare number for a timestamp.
        #expect(try refusal(plan(operation(.create, fields: ["when": number]))).reason == "Invalid value, expected type TIMESTAMP for field 'when'")
    }

    @Test func developmentLearnsNewFieldsOnceAndHoldsTheBatchToThem() throws {
        var planner = planner()
        _ = try write(plan(operation(.create, "a", fields: ["rank": .int64(1)]), with: &planner))
        _ = try write(plan(operation(.create, "b", fields: ["rank": .int64(2)]), with: &planner))
        #expect(planner.newFields == [SchemaField(recordType: "Note", fieldName: "rank", type: .int64)])
        let clash = try refusal(plan(operation(.create, "c", fields: ["rank": .string("high")]), with: &planner))
        #expect(clash.reason == "field 'rank' of 'Note' has type INT64, not STRING")
    }

    @Test func productionRefusesWhatItsSchemaLacks() throws {
        var planner = planner(mayLearn: false)
        #expect(try refusal(plan(operation(.create, recordType: "Photo"), with: &planner)).reason == "Cannot create new type Photo in production schema")
        let field = try refusal(plan(operation(.create, fields: ["rank": .int64(1)]), with: &planner))
        #expect(field.reason == "field 'rank' is not in the production schema of 'Note'")
        #expect(planner.newFields.isEmpty)
        _ = try write(plan(operation(.create, fields: ["title": .string("known")]), with: &planner))
    }

    @Test func referencesThatMustExistAreTheWritesRequiredTargets() throws {
        let fields: [String: Field] = [
            "owner": Field(.reference(Reference(recordName: "p", action: .deleteSelf))),
            "check": Field(.reference(Reference(recordName: "q", action: .validate))),
            "loose": Field(.reference(Reference(recordName: "r", action: Reference.Action.none))),
        ]
        #expect(try write(plan(operation(.create, fields: fields))).requiredTargets == ["p", "q"])
    }

    @Test func theOperationsDesiredKeysWinOverTheRequests() throws {
        var planner = planner()
        var own = operation(.create)
        own.desiredKeys = ["title"]
        #expect(plan(own, with: &planner, desiredKeys: ["when"]).planned?.desiredKeys == ["title"])
        #expect(plan(operation(.create), with: &planner, desiredKeys: ["when"]).planned?.desiredKeys == ["when"])
    }

    // MARK: - Shares

    private func share(_ type: RecordOperationType, _ name: String = "s1", root: String? = "n1", tag: String? = nil, participants: [ShareParticipant]? = nil) -> RecordOperation {
        var record = Record(recordName: name, recordType: ShareNames.recordType, recordChangeTag: tag)
        record.forRecord = root.map { RecordPointer(recordName: $0) }
        record.participants = participants
        return RecordOperation(type, record)
    }

    @Test func aNewShareNamesItsRootOrIsTheZoneWideShare() throws {
        #expect(try write(plan(share(.create))).share?.rootName == "n1")
        let zoneWide = try write(plan(share(.create, ShareNames.zoneWideShare, root: nil)))
        #expect(zoneWide.share != nil && zoneWide.share?.rootName == nil)
        #expect(try refusal(plan(share(.create, root: nil))).reason.contains("needs forRecord"))
        #expect(try refusal(plan(share(.create, ShareNames.zoneWideShare))).reason == "a zone-wide share has no forRecord")
    }

    @Test func aShareIsSavedWithATagAndOnlyInACustomZone() throws {
        #expect(try refusal(plan(share(.forceUpdate))).reason.contains("saved with a change tag"))
        #expect(try write(plan(share(.update, root: nil, tag: "t"))).precondition == .changeTag("t"))
        var planner = planner(shares: ShareContext(zoneMayHoldShares: false))
        #expect(try refusal(plan(share(.create), with: &planner)).reason == "shares live in custom zones, not in the default zone")
    }

    @Test func participantsAreCountedAgainstTheLimitAndResolved() throws {
        let bob = StoredAccount(userRecordName: "_bob", email: "bob@example.com", givenName: "Bob", familyName: nil)
        var planner = planner(shares: ShareContext(accountsByEmail: ["bob@example.com": bob], participantLimit: 2))
        let invited = try write(plan(share(.create, participants: [.invite(email: "Bob@Example.com", permission: .readWrite)]), with: &planner))
        let spec = try #require(invited.share?.participants?.first)
        #expect(spec.userRecordName == "_bob" && spec.email == "bob@example.com" && spec.permission == .readWrite)
        let crowd = (1...2).map { ShareParticipant.invite(email: "p\($0)@example.com", permission: .readOnly) }
        #expect(try refusal(plan(share(.create, participants: crowd), with: &planner)).reason == "a share may have at most 2 participants, this one would have 3")
        let stranger = ShareParticipant(userIdentity: UserIdentity(userRecordName: "_nobody"))
        #expect(try refusal(plan(share(.create, participants: [stranger]), with: &planner)).reason == "no user has userRecordName '_nobody'")
    }
}

extension OperationPlanner.Plan {
    /// The write and its desired keys, when one was planned.
    var planned: (write: RecordWrite, desiredKeys: [String]?)? {
        if case .write(let write, let desiredKeys) = self { (write, desiredKeys) } else { nil }
    }

    var refusal: RecordError? {
        if case .failure(let error) = self { error } else { nil }
    }
}
