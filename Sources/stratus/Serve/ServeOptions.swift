import ArgumentParser
import StratusModel

/// The limits preset chosen with `--limits`.
enum LimitsPreset: String, ExpressibleByArgument, CaseIterable {
    case strict, lenient

    var limits: ServiceLimits { self == .strict ? .strict : .lenient }
}
