import Synchronization
import StratusModel
import StratusStore

/// The learned field types of each container environment, cached in memory so resolving a
/// save's field types costs no query. The store stays the authority: it re-checks every type
/// inside the batch transaction, so a race between two first saves cannot store two types.
///
/// It caches the imported schema document and the role memberships the public database's
/// security roles are decided from too (`SchemaCache+Security`); ``forget(container:)`` drops
/// them all.
final class SchemaCache: Sendable {
    typealias Schema = [String: [String: FieldType]]

    struct Key: Hashable {
        var container: String
        var environment: ContainerEnvironment
    }

    /// Record type → field (or system index name) → its index kinds.
    typealias Indexes = [String: [String: Set<IndexKind>]]

    /// A container environment's imported document (`nil` when it has none) and the security
    /// roles it grants, decided once.
    struct Declared: Sendable {
        var document: SchemaDocument?
        var roles: SecurityRoles
    }

    private let schemas = Mutex<[Key: Schema]>([:])
    private let indexes = Mutex<[Key: Indexes]>([:])
    /// The imported documents (`SchemaCache+Security`).
    let documentCache = Mutex<[Key: Declared]>([:])
    /// Container → user → the roles made with CREATE ROLE they hold (`SchemaCache+Security`).
    let memberCache = Mutex<[String: [String: Set<String>]]>([:])
    /// Moves on with every ``forgetLocally(container:)``: a value read from the store before a
    /// forget is not cached after it (it may be what the forget was for).
    let generation = Mutex<UInt64>(0)
    let store: any RecordStore & SchemaStore & SchemaDocumentStore
    private let relay: InstanceRelay

    init(store: any RecordStore & SchemaStore & SchemaDocumentStore, relay: InstanceRelay = InstanceRelay(signals: nil)) {
        self.store = store
        self.relay = relay
    }

    /// The indexes of a container environment (loaded from the store on first use).
    func indexes(container: String, environment: ContainerEnvironment) async throws(StoreError) -> Indexes {
        let key = Key(container: container, environment: environment)
        if let cached = indexes.withLock({ $0[key] }) { return cached }
        let loaded = SchemaCache.grouped(try await store.indexes(container: container, environment: environment))
        indexes.withLock { $0[key] = loaded }
        return loaded
    }

    /// Index definitions grouped by record type and field.
    static func grouped(_ definitions: [IndexDefinition]) -> Indexes {
        var grouped: Indexes = [:]
        for index in definitions {
            grouped[index.recordType, default: [:]][index.fieldName, default: []].insert(index.kind)
        }
        return grouped
    }

    /// Drops what is cached for a container (after an index change or a deployment).
    /// Other instances sharing the store forget it too.
    func forget(container: String) {
        forgetLocally(container: Substring(container))
        relay.announce(.schema, container)
    }

    /// Drops what is cached for a container (`*`: every container) here only.
    func forgetLocally(container: Substring) {
        let all = container == "*"
        generation.withLock { $0 &+= 1 }
        schemas.withLock { cache in cache = cache.filter { !all && $0.key.container != container } }
        indexes.withLock { cache in cache = cache.filter { !all && $0.key.container != container } }
        documentCache.withLock { cache in cache = cache.filter { !all && $0.key.container != container } }
        memberCache.withLock { cache in cache = cache.filter { !all && $0.key != container } }
    }

    /// The schema of a container environment (loaded from the store on first use): the learned
    /// field types, and each record type the imported document defines without a field the
    /// learned schema can hold (only system fields, say) with none, so it is a known type.
    func schema(container: String, environment: ContainerEnvironment) async throws(StoreError) -> Schema {
        let key = Key(container: container, environment: environment)
        if let cached = schemas.withLock({ $0[key] }) { return cached }
        var loaded = try await store.schema(container: container, environment: environment)
        // A document that does not parse refuses the public database's access (securityRoles);
        // it does not stop writes: its types only add to what the store learned.
        let declaredTypes = (try? await declared(container: container, environment: environment))??.recordTypes ?? []
        for recordType in declaredTypes where loaded[recordType.name] == nil {
            loaded[recordType.name] = [:]
        }
        return schemas.withLock { cache in
            let merged = cache[key, default: [:]].merging(loaded) { current, stored in current.merging(stored) { _, new in new } }
            cache[key] = merged
            return merged
        }
    }

    /// Records field types a committed batch taught the store.
    func learn(_ fields: [SchemaField], container: String, environment: ContainerEnvironment) {
        guard !fields.isEmpty else { return }
        let key = Key(container: container, environment: environment)
        let learned = schemas.withLock { cache -> Bool in
            var learned = false
            for field in fields where cache[key]?[field.recordType]?[field.fieldName] == nil {
                cache[key, default: [:]][field.recordType, default: [:]][field.fieldName] = field.type
                learned = true
            }
            return learned
        }
        // Other instances may have cached this schema without the new fields.
        if learned && relay.isShared { relay.announce(.schema, container) }
    }
}
