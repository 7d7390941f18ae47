import Foundation
import Logging
import ServiceLifecycle
import StratusModel
import StratusStore

/// Keeps the console's timeline across restarts: at start it puts the saved timeline back into
/// the ``ActivityLog``; then, at most every ``interval``, it saves what was recorded since (one
/// store write for everything recorded meanwhile, off every request's path), and once more when
/// the server stops. The store keeps the newest ring's worth, and so does the log's unsaved list:
/// under load a save encodes at most a ring's worth, however many commits the interval saw (a
/// crash loses at most an interval's entries).
struct ActivityJournal: Service {
    let log: ActivityLog
    let store: any ActivityStore
    let logger: Logger
    var interval: Duration = .seconds(2)

    func run() async {
        await restore()
        for await _ in log.recorded.cancelOnGracefulShutdown() {
            await save()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
        await save()
    }

    private func restore() async {
        do {
            let decoder = JSONDecoder()
            let saved = try await store.recentActivity(limit: log.capacity).compactMap { try? decoder.decode(ActivityEntry.self, from: Data($0.utf8)) }
            log.restore(saved)
        } catch {
            logger.error("activity timeline not restored", metadata: ["error": "\(error)"])
        }
    }

    private func save() async {
        let entries = log.takeUnsaved()
        guard !entries.isEmpty else { return }
        let encoder = JSONEncoder()
        let bodies = entries.compactMap { try? String(decoding: encoder.encode($0), as: UTF8.self) }
        do {
            try await store.appendActivity(bodies, keep: log.capacity)
        } catch {
            // Kept for the next save (a ring's worth at most, as ever).
            log.putBack(entries)
            logger.error("activity timeline not saved yet", metadata: ["entries": "\(entries.count)", "error": "\(error)"])
        }
    }
}
