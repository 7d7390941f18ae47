import Foundation
import Testing

/// The batch engine's promise to its drivers (``BatchRows``): it never catches what a read
/// throws, so a read-ahead back end's `BatchRowsMissing` always reaches the driver that reruns it.
/// Held by reading the sources: no `catch` and no `try?` under `Sources/StratusStore/Engine/`.
@Suite struct EngineCatchesNothingTests {
    @Test func noEngineSourceCatchesOrSilencesAnError() throws {
        let engine = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StratusStore/Engine")
        let files = try FileManager.default.contentsOfDirectory(at: engine, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        #expect(files.count >= 5, "the engine's sources are where this test looks: \(engine.path)")
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let catches = code.range(of: #"\bcatch\b"#, options: .regularExpression) != nil || code.contains("try?")
                #expect(!catches, "\(file.lastPathComponent):\(number + 1) catches an error: \(line)")
            }
        }
    }
}
