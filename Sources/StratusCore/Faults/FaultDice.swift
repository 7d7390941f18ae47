/// Seeded, stateless randomness for faults: the `k`-th draw of a seed is the same on every run,
/// whatever else happened (SplitMix64 over the seed and the draw's position).
enum FaultDice {
    /// A number in `0..<1` for draw `k` of `seed` (`salt` separates independent draws).
    static func unit(seed: UInt64, draw k: Int, salt: UInt64 = 0) -> Double {
        var z = seed &+ (UInt64(truncatingIfNeeded: k) &+ 1) &* 0x9E37_79B9_7F4A_7C15 &+ salt &* 0xD1B5_4A32_D192_ED03
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
