import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore
import StratusModel

/// The schema page's file in the CloudKit Schema Language (`.ckdb`, as `xcrun cktool` moves
/// it): download a container environment's schema, or paste one to replace development's (a
/// refusal, naming the file's line, is shown on the page and changes nothing).
struct SchemaFileRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/schema/export", use: console.page(download))
        group.post("c/:container/:environment/schema/import", use: console.action(upload))
    }

    /// The schema, as a file to save.
    private func download(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let text = try await services.schema.export(container: place.container, environment: place.environment)
        let file = "\(place.container)-\(place.environment.rawValue).ckdb".filter { $0.isLetter || $0.isNumber || ".-_".contains($0) }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/plain; charset=utf-8", .contentDisposition: "attachment; filename=\"\(file)\"", .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// The pasted file replaces the development schema.
    private func upload(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        // As typed: the lines a refusal names are the text area's lines.
        guard let text = request.form.raw("schema"), text.contains(where: { !$0.isWhitespace }) else {
            throw ConsoleFailure("Paste the schema file's text (DEFINE SCHEMA …).")
        }
        let schema = try await services.schema.importSchema(text, container: place.container)
        let development = Place(container: place.container, environment: .development)
        return (
            "Schema imported into development: \(schema.recordTypes.count) record types. Deploy it to production from this page.",
            "\(development.base)/schema"
        )
    }
}
