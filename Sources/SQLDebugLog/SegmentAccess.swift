/// What a screen does with what it fetches, when something besides the log says so: a scenario's declared steps
/// (`bench advise`, `bench log --model-of`), or the fetches read from an app's sources. The log alone cannot tell
/// whether a prefetched relationship is read, whether only a to-many's count is shown, or how many rows the screen
/// reads; these rules run only where an access is given for the segment.
public struct SegmentAccess: Sendable, Equatable, Codable {
    /// One fetch of objects and what is read from its results.
    public struct Fetch: Sendable, Equatable, Codable {
        public var entity: String
        /// relationshipKeyPathsForPrefetching.
        public var prefetch: [String]
        /// fetchBatchSize (0: none).
        public var batchSize: Int
        /// Key paths read on its results (`name`, `students.name`, `members.@count`).
        public var reads: [String]
        /// How many of its results are read (nil: all).
        public var first: Int?

        public init(entity: String, prefetch: [String] = [], batchSize: Int = 0, reads: [String] = [], first: Int? = nil) {
            self.entity = entity
            self.prefetch = prefetch
            self.batchSize = batchSize
            self.reads = reads
            self.first = first
        }
    }

    public var fetches: [Fetch]

    public init(fetches: [Fetch]) { self.fetches = fetches }

    /// Key paths (`Chat.members`) read only through `@count`: none of their members' values is read.
    var countedOnly: Set<String> {
        Set(
            fetches.flatMap { fetch -> [String] in
                let counted = fetch.reads.filter { $0.hasSuffix(".@count") }.map { String($0.dropLast(".@count".count)) }
                return counted.filter { path in !fetch.reads.contains { $0.hasPrefix(path + ".") && !$0.hasSuffix(".@count") } }
                    .map { "\(fetch.entity).\($0)" }
            })
    }

    /// Whether the screen reads every result of a fetch of `entity` (then a batch size saves nothing).
    func readsEveryRow(of entity: String) -> Bool {
        fetches.contains { $0.entity == entity && $0.first == nil && $0.batchSize == 0 }
    }
}
