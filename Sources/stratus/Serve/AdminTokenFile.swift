import Foundation
import StratusCore

/// `<data>/admin-token`: the admin token of a non-dev server, minted and printed on first start.
struct AdminTokenFile {
    let url: URL

    init(directory: URL) {
        self.url = directory.appendingPathComponent("admin-token")
    }

    func ensure(with services: StratusServices) async throws {
        if FileManager.default.fileExists(atPath: url.path) { return }
        let token = services.identity.newAdminToken()
        try await services.identity.addAdminToken(token)
        try Data(token.utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        FileHandle.standardOutput.write(Data("admin token (also in \(url.path)): \(token)\n".utf8))
    }
}
