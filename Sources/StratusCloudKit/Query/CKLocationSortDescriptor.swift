import Foundation
#if canImport(Darwin)
import CoreLocation
#endif
import StratusModel

/// Sorts a query's records by the distance of a location field from a point, nearest first:
/// `query.sortDescriptors = [CKLocationSortDescriptor(key: "spot", relativeLocation: here)]`. The
/// server measures along the earth's surface, ignoring altitude, as CloudKit does. The key must
/// name a field of the records (a LOCATION field), not a system field.
///
/// On Linux, where Foundation's `NSSortDescriptor` keeps no key and does not archive, the key
/// rides in the descriptor's key path as it does for `NSSortDescriptor(key:ascending:)` here, and
/// this class archives the key and location itself.
// Not `Sendable`: Foundation makes `NSSortDescriptor`'s conformance unavailable on Linux.
open class CKLocationSortDescriptor: NSSortDescriptor {
    /// The point distances are measured from.
    public let relativeLocation: CLLocation

    /// A descriptor sorting by the distance of the location field `key` from `relativeLocation`,
    /// ascending.
    public init(key: String, relativeLocation: CLLocation) {
        self.relativeLocation = relativeLocation
        #if canImport(Darwin)
        super.init(key: key, ascending: true)
        #else
        super.init(keyPath: \SortKeyPathRoot.[key], ascending: true)
        #endif
    }

    // MARK: - Coding

    #if canImport(Darwin)
    public override class var supportsSecureCoding: Bool { true }

    /// Archives what `NSSortDescriptor` does, and the location.
    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(relativeLocation, forKey: CKLocationSortDescriptor.locationKey)
    }

    /// A descriptor from an archive of ``encode(with:)``.
    public required init?(coder: NSCoder) {
        let locationKey = CKLocationSortDescriptor.locationKey
        guard coder.containsValue(forKey: locationKey), let location = coder.decodeObject(of: CLLocation.self, forKey: locationKey)
        else { return nil }
        relativeLocation = location
        super.init(coder: coder)
    }
    #else
    public class var supportsSecureCoding: Bool { true }

    /// Archives the key and the location (Linux's `NSSortDescriptor` archives nothing).
    public func encode(with coder: NSCoder) {
        coder.encode((key ?? "") as NSString, forKey: CKLocationSortDescriptor.keyKey)
        coder.encode(relativeLocation, forKey: CKLocationSortDescriptor.locationKey)
    }

    /// A descriptor from an archive of ``encode(with:)``; `nil` without a key or a location.
    public required init?(coder: NSCoder) {
        guard let key = coder.string(CKLocationSortDescriptor.keyKey), !key.isEmpty,
            let location = coder.object(CLLocation.self, CKLocationSortDescriptor.locationKey)
        else { return nil }
        relativeLocation = location
        super.init(keyPath: \SortKeyPathRoot.[key], ascending: true)
    }
    #endif

    /// The archive key of the location.
    private static let locationKey = "RelativeLocation"
    /// The archive key of the field's key (Linux only: Apple's superclass archives its own).
    private static let keyKey = "Key"

    public override var description: String {
        "<CKLocationSortDescriptor: \(key ?? "-") from \(relativeLocation.coordinate.latitude), \(relativeLocation.coordinate.longitude)>"
    }
}

#if !canImport(Darwin)
// Linux's `NSSortDescriptor` does not archive; this one does, as Apple's.
extension CKLocationSortDescriptor: NSSecureCoding {}
#endif

extension CKLocationSortDescriptor {
    /// The wire sort key: the field's distance from ``relativeLocation``, nearest first.
    /// - Throws: `invalidArguments` when the key is not a record field.
    func wireSort() throws(CKError) -> QuerySort {
        let named = key ?? ""
        guard case .field(let field)? = try? SystemKeys.target(for: named) else {
            throw CKError(.invalidArguments, "a CKLocationSortDescriptor sorts by a record's LOCATION field, not '\(named)'")
        }
        var sort = QuerySort(field: field, ascending: true)
        sort.relativeLocation = Field(.location(RecordValues.wire(relativeLocation)), type: .location)
        return sort
    }
}
