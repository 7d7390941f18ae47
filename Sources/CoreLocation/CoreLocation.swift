// `import CoreLocation` on Linux, for a file that imports it for the locations it keeps in
// records: the same `CLLocation` and `CLLocationCoordinate2D` that `import CloudKit` gives (one
// type, not a copy). Only on Linux: on Apple platforms the system's CoreLocation is the real one,
// and the CloudKit target depends on this one only where that is missing.
#if !canImport(Darwin)
@_exported import Foundation
@_exported import class StratusCloudKit.CLLocation
@_exported import struct StratusCloudKit.CLLocationCoordinate2D
@_exported import typealias StratusCloudKit.CLLocationDegrees
@_exported import typealias StratusCloudKit.CLLocationDistance
@_exported import typealias StratusCloudKit.CLLocationAccuracy
@_exported import typealias StratusCloudKit.CLLocationSpeed
@_exported import typealias StratusCloudKit.CLLocationDirection
#endif
