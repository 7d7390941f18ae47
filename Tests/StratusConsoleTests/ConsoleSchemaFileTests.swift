import Foundation
import HTTPTypes
import HummingbirdTesting
import StratusCore
import StratusServerTesting
import Testing

/// The schema page's `.ckdb` file: pasted into development (a refusal shown, naming its line,
/// with nothing changed) and downloaded as the export.
@Suite("console: the schema file")
struct ConsoleSchemaFileTests {
    @Test("paste a schema file into development, see a broken one refused by its line, download the schema")
    func uploadAndDownload() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            let page = try await browser.get("\(base)/schema")
            #expect(page.text.contains("\(base)/schema/export") && page.text.contains("\(base)/schema/import"))

            let file = "DEFINE SCHEMA\n    RECORD TYPE Note (\n        text STRING QUERYABLE,\n        GRANT READ TO \"_world\"\n    );\n"
            let imported = try await browser.post("\(base)/schema/import", [("schema", file), ("back", "\(base)/schema")])
            #expect(imported.text.contains("Schema imported into development: 1 record types."), "\(imported.text)")

            let broken = try await browser.post(
                "\(base)/schema/import", [("schema", file.replacingOccurrences(of: "STRING", with: "TEXT")), ("back", "\(base)/schema")]
            )
            #expect(broken.text.contains("BAD_REQUEST: line 3, column 14"), "\(broken.text)")

            let download = try await browser.get("\(base)/schema/export")
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition]?.contains("attachment") == true)
            #expect(download.text.hasPrefix("DEFINE SCHEMA\n") && download.text.contains("RECORD TYPE Note (") && download.text.contains(" STRING QUERYABLE"), "\(download.text)")
            #expect(download.text.contains("GRANT READ TO \"_world\""))
        }
    }
}
