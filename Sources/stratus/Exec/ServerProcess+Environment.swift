import Foundation
import StratusModel
import StratusServerRun

extension ServerProcess {
    /// What `stratus exec`'s command finds in its environment: the server, its credentials, the
    /// account alice, the admin token, and the container (`firstContainer`, else the default one).
    func environment(firstContainer: String?) -> [String: String] {
        [
            "STRATUS_URL": url,
            "STRATUS_CREDENTIALS": credentialsFile.path,
            "STRATUS_ACCOUNT": "alice",
            "STRATUS_ADMIN_TOKEN": credentials?.adminToken ?? "",
            "STRATUS_CONTAINER": firstContainer ?? credentials?.container ?? "",
        ]
    }
}
