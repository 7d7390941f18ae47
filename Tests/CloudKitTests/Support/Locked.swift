import Synchronization

/// A value the blocks of an operation write and the test reads afterwards.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func update(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}
