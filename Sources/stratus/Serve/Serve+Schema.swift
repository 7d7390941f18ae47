import ArgumentParser
import Foundation
import StratusCore

/// `stratus serve --dev --schema app.ckdb`: a container's real schema from the first request.
extension Serve {
    /// The schema file at `path`, parsed.
    /// - Throws: `ExitCode(1)`, having said why on standard error, when it cannot be read or has
    ///   an error (its line and column, and what was expected there).
    static func readSchema(_ path: String) throws -> SchemaDocument {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            sayError("stratus: cannot read the schema file \(path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        do {
            return try SchemaParser.parse(text)
        } catch {
            sayError("stratus: \(path): \(error)")
            throw ExitCode(1)
        }
    }

    /// Gives the dev container `document` in development (as `stratus schema import` does), then
    /// deploys it to production; exits when the store refuses it (production already has a type
    /// or field the file leaves out, say). Runs before the dev credentials are written, so a
    /// client that finds them finds the schema in place.
    static func start(with document: SchemaDocument, from path: String, services: StratusServices) async {
        do {
            _ = try await services.schema.importDocument(document, container: DevSeeder.container)
            _ = try await services.schema.deploy(container: DevSeeder.container)
            say("Schema: \(path) (\(document.recordTypes.count) record types) in \(DevSeeder.container), development and production")
        } catch {
            sayError("stratus: cannot start with the schema \(path): \(error)")
            Foundation.exit(1)
        }
    }
}
