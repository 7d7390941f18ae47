@testable import StratusCore
import StratusModel
import Testing

/// An import writes what a record points at before it: its parent and its required references,
/// whoever created them.
@Suite struct ImportOrderTests {
    @Test func parentsAndRequiredReferencesComeFirstWhateverTheInputOrder() {
        var child = Record(recordName: "child", recordType: "T")
        child.parent = RecordPointer(recordName: "parent")
        let source = Record(recordName: "source", recordType: "T", fields: [
            "up": Field(.reference(Reference(recordName: "target", action: .deleteSelf)), type: .reference),
            "loose": Field(.reference(Reference(recordName: "elsewhere", action: Reference.Action.none)), type: .reference),
        ])
        let parent = Record(recordName: "parent", recordType: "T")
        let target = Record(recordName: "target", recordType: "T")
        let ordered = DataFixtures.dependenciesFirst([child, source, parent, target]).compactMap(\.recordName)
        #expect(ordered == ["parent", "child", "target", "source"])
    }
}
