import ArgumentParser
import Foundation
import StratusCore
import StratusServerRun

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
    /// deploys it to production.
    /// - Throws: `ExitCode(1)`, having said why and cut the run off, when the store refuses it
    ///   (production already has a type or field the file leaves out, say).
    static func start(with document: SchemaDocument, from path: String, run: ServerRun) async throws {
        do {
            _ = try await run.services.schema.importDocument(document, container: DevSeeder.container)
            _ = try await run.services.schema.deploy(container: DevSeeder.container)
            say("Schema: \(path) (\(document.recordTypes.count) record types) in \(DevSeeder.container), development and production")
        } catch {
            sayError("stratus: cannot start with the schema \(path): \(error)")
            await run.cut()
            throw ExitCode(1)
        }
    }
}
