import ArgumentParser
import Foundation
import StratusModel

/// `stratus schema export` and `import`: the CloudKit Schema Language in and out through the
/// admin API, as `xcrun cktool export-schema` and `import-schema` move it for Apple's CloudKit.
extension SchemaCommand {
    /// Writes the schema file to `--file`, or as it is to standard output.
    func export(_ client: AdminClient, container: String) async throws {
        let path = "schema/export?container=\(Self.queryValue(container))&environment=\(environment.rawValue)"
        let text = try await client.text(path)
        guard let file else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw ValidationError("cannot write \(file): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("the \(environment.rawValue) schema of \(container) is in \(file)\n".utf8))
    }

    /// Imports `--file` into the container's development schema; a refusal (the file's error
    /// with its line, or what it would drop from production) fails the command.
    func importFile(_ client: AdminClient, container: String) async throws {
        guard let file else { throw ValidationError("import needs --file: the schema file (.ckdb) to import") }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        let request = SchemaImportRequest(container: container, schema: text)
        if connection.json {
            try await client.post("schema/import", request)
            return
        }
        let schema: SchemaDescription
        switch try await client.attempt("schema/import", request, as: SchemaDescription.self) {
        case .success(let answer): schema = answer
        case .failure(let refusal):
            // As a compiler words it: the file, where, and what was expected; then the verdict.
            FileHandle.standardError.write(Data("\(file): \(refusal.error?.reason ?? refusal.text)\nimport refused (1 error): the schema of \(container) is as it was\n".utf8))
            throw ExitCode.failure
        }
        let names = schema.recordTypes.map(\.name)
        print("\(file) imported into the development schema of \(container): \(names.count) record types (\(names.joined(separator: ", ")))")
        print("deploy it to production with: stratus schema deploy --container \(container)")
    }

    /// `text` as one query value (a container identifier is plain, but never trusted to be).
    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
