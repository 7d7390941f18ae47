import Foundation
import StratusModel

/// Fetches a web auth token for the signed-in account, for CloudKit Web Services requests made
/// with ``apiToken`` (a web page or a server acting for the user): append both to an endpoint's
/// URL (`ckAPIToken`, `ckWebAuthToken`) and the request acts as the user.
///
/// Stratus hands back the container's own web auth token for the account, once the server has
/// answered a request made with ``apiToken`` and that token as the signed-in user — so a token
/// revoked or expired fails `notAuthenticated`, and an API token the container does not know
/// fails as the server refuses it. Without a signed-in account it fails `notAuthenticated`.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchWebAuthTokenOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The API token the web auth token is to be used with (the container's, from its dashboard).
    open var apiToken: String?

    /// Called once, when the operation is done: the web auth token, or why there is none.
    open var fetchWebAuthTokenResultBlock: ((Result<String, any Error>) -> Void)?
    /// Called once, when the operation is done, with the token or the error.
    @available(*, deprecated, message: "Use fetchWebAuthTokenResultBlock")
    open var fetchWebAuthTokenCompletionBlock: ((String?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: ((String?, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation fetching a web auth token to use with `apiToken`.
    public convenience init(apiToken: String) {
        self.init()
        self.apiToken = apiToken
    }

    override func execute() async {
        do {
            try checkCancelled()
            let transport = try requireDatabase().container.requireTransport()
            guard let apiToken, !apiToken.isEmpty else {
                throw CKError(.invalidArguments, "CKFetchWebAuthTokenOperation needs an apiToken (init(apiToken:))")
            }
            guard let webAuthToken = transport.webAuthToken else {
                throw CKError(.notAuthenticated, "no account is signed in to the container: there is no web auth token to fetch")
            }
            // The server answers as the user only while the token is good, with this API token.
            var asked = CKWSTransport(
                baseURL: transport.baseURL, apiToken: apiToken, webAuthToken: webAuthToken, deviceID: transport.deviceID, client: transport.client
            )
            asked.timeout = transport.timeout
            let identity: UserIdentity
            do { identity = try await asked.get("public/users/caller", as: UserIdentity.self) } catch { throw CKError(error) }
            guard identity.userRecordName != nil else {
                throw CKError(.notAuthenticated, "the server answered for no signed-in user")
            }
            complete(.success(webAuthToken))
        } catch {
            complete(.failure(Self.ckError(error)))
        }
    }

    override func finish(with error: CKError) {
        complete(.failure(error))
    }

    private func complete(_ result: Result<String, CKError>) {
        fetchWebAuthTokenResultBlock?(result.mapError { $0 as any Error })
        switch result {
        case .success(let token): legacyCompletion?(token, nil)
        case .failure(let error): legacyCompletion?(nil, error)
        }
    }
}
