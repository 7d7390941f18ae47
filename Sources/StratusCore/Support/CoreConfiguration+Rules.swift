import StratusModel

/// The request-level rules every service applies the same way: who must sign in, how many items
/// one request may carry, how large a page is.
extension CoreConfiguration {
    /// `AUTHENTICATION_REQUIRED` (HTTP 421) with the sign-in page for `container` as `redirectURL`.
    func authenticationRequired(_ container: String, apiToken: String?, _ reason: String = "request needs authorization") -> CoreError {
        CoreError(.authenticationRequired, reason, redirectURL: signInURL(for: container, apiToken: apiToken))
    }

    /// `AUTHENTICATION_REQUIRED` for a request that needs a user and has none.
    func authenticationRequired(_ scope: RequestScope) -> CoreError {
        authenticationRequired(scope.database.container, apiToken: scope.apiToken)
    }

    /// The sign-in page for a container and the API token whose settings say where the token may
    /// go (container identifiers and API tokens need no escaping in a query).
    func signInURL(for container: String, apiToken: String?) -> String {
        "\(signInURL)?container=\(container)" + (apiToken.map { "&ckAPIToken=\($0)" } ?? "")
    }

    /// - Throws: `BAD_REQUEST` with `nativeErrorCode` 27 (limit exceeded: split the request) when
    ///   `count` items (operations, records, zones, users) exceed the per-request limit.
    func checkCount(_ count: Int, of items: String, limit: Int? = nil) throws(CoreError) {
        let limit = limit ?? limits.operationsPerRequest
        guard count <= limit else {
            throw CoreError.limitExceeded("too many \(items): \(count) (limit \(limit) per request)")
        }
    }

    /// The page size for a request's `resultsLimit`: the limit's page size when absent, never more.
    /// - Throws: `BAD_REQUEST` for a `resultsLimit` below 1.
    func pageSize(_ resultsLimit: Int?) throws(CoreError) -> Int {
        let maximum = limits.resultsPerPage
        guard let resultsLimit else { return maximum }
        guard resultsLimit > 0 else { throw CoreError.badRequest("resultsLimit must be at least 1") }
        return min(resultsLimit, maximum)
    }
}
