#if !canImport(Darwin)
import Foundation

/// Degrees of latitude or longitude (CoreLocation's unit names, for platforms without it).
public typealias CLLocationDegrees = Double
/// Metres.
public typealias CLLocationDistance = Double
/// Metres of accuracy (negative: invalid).
public typealias CLLocationAccuracy = Double
/// Metres per second (negative: invalid).
public typealias CLLocationSpeed = Double
/// Degrees from due north (negative: invalid).
public typealias CLLocationDirection = Double

/// A geographic coordinate (CoreLocation's names, for platforms without CoreLocation). Like
/// CoreLocation's C struct it is not `Equatable`: apps that compare coordinates add that
/// conformance themselves, and theirs must compile.
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() {
        self.init(latitude: 0, longitude: 0)
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A location a record field holds: CoreLocation's `CLLocation`, for platforms without it.
/// Immutable, as Apple's; archived with secure coding under CoreLocation's keys (an archive
/// CoreLocation wrote decodes: `CLLocation` is one of the archived class names registered here).
public final class CLLocation: NSObject, NSSecureCoding, NSCopying, CKRecordValue, Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let course: CLLocationDirection
    public let courseAccuracy: CLLocationDirection
    public let speed: CLLocationSpeed
    public let speedAccuracy: CLLocationSpeed
    public let timestamp: Date

    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0, horizontalAccuracy: 0,
            verticalAccuracy: -1, timestamp: Date()
        )
    }

    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: timestamp
        )
    }

    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
            course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1, timestamp: timestamp
        )
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
        verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirection,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeed, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// Metres to another location (haversine on a sphere of the Earth's mean radius).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let dLat = (location.coordinate.latitude - coordinate.latitude) * radians
        let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(coordinate.latitude * radians) * cos(location.coordinate.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        return coordinate.latitude == other.coordinate.latitude && coordinate.longitude == other.coordinate.longitude
            && altitude == other.altitude && horizontalAccuracy == other.horizontalAccuracy
            && verticalAccuracy == other.verticalAccuracy && course == other.course && speed == other.speed && timestamp == other.timestamp
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinate.latitude)
        hasher.combine(coordinate.longitude)
        return hasher.finalize()
    }

    public override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m (speed \(speed) mps / course \(course)) @ \(timestamp)"
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: - Coding (CoreLocation's keys)

    public static var supportsSecureCoding: Bool { true }

    private enum Key {
        static let latitude = "kCLLocationCodingKeyCoordinateLatitude"
        static let longitude = "kCLLocationCodingKeyCoordinateLongitude"
        static let altitude = "kCLLocationCodingKeyAltitude"
        static let horizontalAccuracy = "kCLLocationCodingKeyHorizontalAccuracy"
        static let verticalAccuracy = "kCLLocationCodingKeyVerticalAccuracy"
        static let course = "kCLLocationCodingKeyCourse"
        static let courseAccuracy = "kCLLocationCodingKeyCourseAccuracy"
        static let speed = "kCLLocationCodingKeySpeed"
        static let speedAccuracy = "kCLLocationCodingKeySpeedAccuracy"
        static let timestamp = "kCLLocationCodingKeyTimestamp"
    }

    public func encode(with coder: NSCoder) {
        coder.encode(coordinate.latitude, forKey: Key.latitude)
        coder.encode(coordinate.longitude, forKey: Key.longitude)
        coder.encode(altitude, forKey: Key.altitude)
        coder.encode(horizontalAccuracy, forKey: Key.horizontalAccuracy)
        coder.encode(verticalAccuracy, forKey: Key.verticalAccuracy)
        coder.encode(course, forKey: Key.course)
        coder.encode(courseAccuracy, forKey: Key.courseAccuracy)
        coder.encode(speed, forKey: Key.speed)
        coder.encode(speedAccuracy, forKey: Key.speedAccuracy)
        // Seconds since 2001, as CoreLocation archives a timestamp.
        coder.encode(timestamp.timeIntervalSinceReferenceDate, forKey: Key.timestamp)
    }

    public convenience init?(coder: NSCoder) {
        guard coder.containsValue(forKey: Key.latitude), coder.containsValue(forKey: Key.longitude) else { return nil }
        func value(_ key: String, else fallback: Double) -> Double { coder.containsValue(forKey: key) ? coder.decodeDouble(forKey: key) : fallback }
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: coder.decodeDouble(forKey: Key.latitude), longitude: coder.decodeDouble(forKey: Key.longitude)),
            altitude: value(Key.altitude, else: 0), horizontalAccuracy: value(Key.horizontalAccuracy, else: 0),
            verticalAccuracy: value(Key.verticalAccuracy, else: -1), course: value(Key.course, else: -1),
            courseAccuracy: value(Key.courseAccuracy, else: -1), speed: value(Key.speed, else: -1), speedAccuracy: value(Key.speedAccuracy, else: -1),
            timestamp: Date(timeIntervalSinceReferenceDate: value(Key.timestamp, else: 0))
        )
    }
}
#else
import CoreLocation

extension CLLocation: CKRecordValue {}
#endif
