/// Everything a server needs of its store, in one name: what `SQLiteStore` and the PostgreSQL
/// store both are, and what `StratusServices` runs on.
public typealias CompleteStore = RecordStore & IdentityStore & SchemaStore & SchemaDocumentStore & ShareStore & PushStore & QuotaStore
    & AssetStore & ActivityStore & ClientChangeTokenStore
