import PostgresNIO
import StratusStore

/// Reading result rows as Swift values, errors translated into ``StoreError``.
extension PostgresStore {
    /// Every row of `rows`, decoded by `decode`.
    func all<T>(_ rows: PostgresRowSequence, _ decode: (PostgresRow) throws -> T) async throws(StoreError) -> [T] {
        do {
            var values: [T] = []
            for try await row in rows { values.append(try decode(row)) }
            return values
        } catch {
            throw Self.translate(error)
        }
    }

    /// The first row of `rows` decoded by `decode`, or `nil` when there is none.
    func first<T>(_ rows: PostgresRowSequence, _ decode: (PostgresRow) throws -> T) async throws(StoreError) -> T? {
        do {
            for try await row in rows { return try decode(row) }
            return nil
        } catch {
            throw Self.translate(error)
        }
    }
}
