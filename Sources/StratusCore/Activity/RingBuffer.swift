/// The newest `capacity` elements, each numbered in order of arrival: the one rule behind the
/// in-memory feeds (the activity timeline, the recent requests). Not synchronized: its owner
/// keeps it behind a lock.
struct RingBuffer<Element> {
    let capacity: Int
    private var elements: [Element] = []
    /// Where the next element goes once the ring is full.
    private var oldest = 0
    /// The number of the newest element (0: none yet).
    private(set) var latest: Int64 = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Adds `element`, numbered by `number` (given the next number), and returns that number.
    mutating func append(_ make: (Int64) -> Element) -> Int64 {
        latest += 1
        let element = make(latest)
        if elements.count < capacity {
            elements.append(element)
        } else {
            elements[oldest] = element
            oldest = (oldest + 1) % capacity
        }
        return latest
    }

    /// Newest first, while `include` says to go on (`nil`: stop), at most `limit` kept.
    func newestFirst(limit: Int, _ include: (Element) -> Bool?) -> [Element] {
        var found: [Element] = []
        let count = elements.count
        for step in 0..<count where found.count < limit {
            let element = elements[(oldest - 1 - step + 2 * count) % count]
            guard let keep = include(element) else { break }
            if keep { found.append(element) }
        }
        return found
    }
}
