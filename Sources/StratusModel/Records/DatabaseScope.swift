/// The database segment of a CloudKit Web Services path.
public enum DatabaseScope: String, Sendable, Hashable, Codable, CaseIterable {
    case `public`
    case `private`
    case shared
}

/// The environment segment of a CloudKit Web Services path.
public enum ContainerEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case development
    case production
}
