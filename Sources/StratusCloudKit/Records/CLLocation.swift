#if !canImport(CoreLocation)
import Foundation

/// A geographic coordinate (CoreLocation's names, for platforms without CoreLocation).
public struct CLLocationCoordinate2D: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A location a record field holds: CoreLocation's `CLLocation`, for platforms without it.
public final class CLLocation: NSObject, CKRecordValue, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: Double
    public let horizontalAccuracy: Double
    public let verticalAccuracy: Double
    public let course: Double
    public let speed: Double
    public let timestamp: Date

    public init(latitude: Double, longitude: Double) {
        self.coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        self.altitude = 0
        self.horizontalAccuracy = 0
        self.verticalAccuracy = -1
        self.course = -1
        self.speed = -1
        self.timestamp = Date()
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: Double, horizontalAccuracy: Double, verticalAccuracy: Double,
        course: Double, speed: Double, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// Metres to another location (haversine on a sphere of the Earth's mean radius).
    public func distance(from location: CLLocation) -> Double {
        let radians = Double.pi / 180
        let dLat = (location.coordinate.latitude - coordinate.latitude) * radians
        let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(coordinate.latitude * radians) * cos(location.coordinate.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        return coordinate == other.coordinate && altitude == other.altitude
    }

    public override var hash: Int { coordinate.latitude.hashValue ^ coordinate.longitude.hashValue }
}
#else
import CoreLocation

extension CLLocation: CKRecordValue {}
#endif
