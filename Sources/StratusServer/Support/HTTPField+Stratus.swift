import HTTPTypes
import Hummingbird
import StratusModel

extension HTTPField.Name {
    /// `X-Request-ID`: the request id, also the `uuid` of every error body.
    // A literal valid header name: the initializer cannot fail here.
    static let requestID = HTTPField.Name("X-Request-ID")!
    /// `X-Stratus-Device-ID`: the simulated device a client names, stamped on records it writes.
    static let deviceID = HTTPField.Name("X-Stratus-Device-ID")!
    /// `X-Stratus-Extensions`: what a client asks for beyond CKWS's JSON (`WireExtensions`).
    static let stratusExtensions = HTTPField.Name(WireExtensions.headerName)!
    /// `Last-Event-ID`: where a reconnecting event stream resumes.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// Server-to-server signing: the key ID, the ISO-8601 date and the signature.
    static let cloudKitKeyID = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    static let cloudKitDate = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    static let cloudKitSignature = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!
}

extension WireExtensions {
    /// The extensions a request's `X-Stratus-Extensions` header asks for (none without it).
    init(_ request: Request) {
        self.init(header: request.headers[.stratusExtensions])
    }
}
