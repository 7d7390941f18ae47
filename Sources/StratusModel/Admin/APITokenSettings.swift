/// Where an API token's web auth tokens may go, as CloudKit's dashboard registers it for each API
/// token: the origins a web page using the token may have (`postMessage` from the sign-in page
/// goes to the opener only when its origin is one of them, and browser requests from other
/// origins are refused once any is listed) and the callback URL sign-in may redirect to with
/// `?ckWebAuthToken=…`. Origins are `scheme://host[:port]`, stored normalised (lowercase, no
/// default port).
public struct APITokenSettings: Sendable, Hashable, Codable {
    public var allowedOrigins: [String]
    public var signInCallbackURL: String?

    public init(allowedOrigins: [String] = [], signInCallbackURL: String? = nil) {
        self.allowedOrigins = allowedOrigins
        self.signInCallbackURL = signInCallbackURL
    }
}

/// `POST /stratus/v1/admin/api-tokens/update`: replaces an API token's allowed origins and sign-in
/// callback URL (a field left out keeps its value; an empty callback URL removes it).
public struct UpdateAPITokenRequest: Sendable, Hashable, Codable {
    public var apiToken: String
    public var allowedOrigins: [String]?
    public var signInCallbackURL: String?

    public init(apiToken: String, allowedOrigins: [String]? = nil, signInCallbackURL: String? = nil) {
        self.apiToken = apiToken
        self.allowedOrigins = allowedOrigins
        self.signInCallbackURL = signInCallbackURL
    }
}

/// An API token's grant and settings (the answer to ``UpdateAPITokenRequest``; never the token).
public struct APITokenInfo: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var allowedOrigins: [String]
    public var signInCallbackURL: String?

    public init(container: String, environment: ContainerEnvironment, settings: APITokenSettings) {
        self.container = container
        self.environment = environment
        self.allowedOrigins = settings.allowedOrigins
        self.signInCallbackURL = settings.signInCallbackURL
    }
}
