import CPrefetch

/// A map from primary key to element, stored as pages of 1,024 slots.
///
/// Core Data's primary keys count from 1 per entity, so they are dense: a paged array answers in a few
/// instructions where a hash table would hash, and a far-away key costs one page, not a huge array. Pages are
/// raw memory owned by the table, so that a lookup touches no reference count.
final class PKTable<Element> {
    private static var pageShift: Int64 { 10 }
    private static var pageSize: Int { 1 << 10 }
    @exclusivity(unchecked) private var pages: UnsafeMutablePointer<UnsafeMutablePointer<Element?>?>?
    @exclusivity(unchecked) private var pageCount = 0
    @exclusivity(unchecked) private(set) var count = 0

    init() {}

    deinit { removeAll() }

    subscript(key: Int64) -> Element? {
        @inline(__always) get { existingSlot(key)?.pointee ?? nil }
        set {
            guard key > 0 else { return }
            let page = Int(truncatingIfNeeded: key >> Self.pageShift)
            let slot = Int(truncatingIfNeeded: key) & (Self.pageSize - 1)
            if page >= pageCount {
                guard newValue != nil else { return }
                grow(toInclude: page)
            }
            // `pages` exists once a page does (page < pageCount): the identity map's hot path, one check.
            // swift-format-ignore: NeverForceUnwrap
            if pages![page] == nil {
                guard newValue != nil else { return }
                let slots = UnsafeMutablePointer<Element?>.allocate(capacity: Self.pageSize)
                slots.initialize(repeating: nil, count: Self.pageSize)
                // `pages` exists once a page does (page < pageCount): the identity map's hot path, one check.
                // swift-format-ignore: NeverForceUnwrap
                pages![page] = slots
            }
            // `pages` exists once a page does (page < pageCount): the identity map's hot path, one check.
            // swift-format-ignore: NeverForceUnwrap
            let slots = pages![page]!
            let wasSet = slots[slot] != nil
            slots[slot] = newValue
            count += (newValue != nil ? 1 : 0) - (wasSet ? 1 : 0)
        }
    }

    /// Asks the cache line of `key`'s slot in, if its page exists: a hint, changing nothing.
    @inline(__always)
    func prefetch(_ key: Int64) {
        if let slot = existingSlot(key) { relbench_prefetch_for_read(slot) }
    }

    /// The slot of `key` (positive), its page made if missing: one page walk for a lookup followed by a store
    /// (profiled, fetch-all at 10,000: looking a row up and then setting it walked the pages twice, in the registry
    /// and in the row cache). A store through it must go through `fill` or `replace`, which keep the count.
    @inline(__always)
    func slot(_ key: Int64) -> UnsafeMutablePointer<Element?> {
        let page = Int(truncatingIfNeeded: key >> Self.pageShift)
        let slot = Int(truncatingIfNeeded: key) & (Self.pageSize - 1)
        if page < pageCount, let slots = pages.unsafelyUnwrapped[page] { return slots + slot }
        return makeSlot(page: page, slot: slot)
    }

    /// The slot of `key`, if its page exists (no page is made): the lookup behind reads and hints, the identity map's
    /// hot path, so one check of the page (`pages` exists once a page does, page < pageCount).
    @inline(__always)
    func existingSlot(_ key: Int64) -> UnsafeMutablePointer<Element?>? {
        let page = Int(truncatingIfNeeded: key >> Self.pageShift)
        guard key > 0, page < pageCount, let slots = pages.unsafelyUnwrapped[page] else { return nil }
        return slots + (Int(truncatingIfNeeded: key) & (Self.pageSize - 1))
    }

    @inline(never)
    private func makeSlot(page: Int, slot: Int) -> UnsafeMutablePointer<Element?> {
        if page >= pageCount { grow(toInclude: page) }
        // `grow` made the pages just above (the cold path of `slot`).
        // swift-format-ignore: NeverForceUnwrap
        if pages![page] == nil {
            let slots = UnsafeMutablePointer<Element?>.allocate(capacity: Self.pageSize)
            slots.initialize(repeating: nil, count: Self.pageSize)
            // `grow` made the pages just above (the cold path of `slot`).
            // swift-format-ignore: NeverForceUnwrap
            pages![page] = slots
        }
        // The page and its slots exist by now.
        // swift-format-ignore: NeverForceUnwrap
        return pages![page]! + slot
    }

    /// Stores `element` in an empty slot from `slot(_:)`.
    @inline(__always)
    func fill(_ slot: UnsafeMutablePointer<Element?>, with element: Element) {
        slot.pointee = element
        count += 1
    }

    private func grow(toInclude page: Int) {
        let newCount = Swift.max(page + 1, pageCount * 2, 4)
        let grown = UnsafeMutablePointer<UnsafeMutablePointer<Element?>?>.allocate(capacity: newCount)
        grown.initialize(repeating: nil, count: newCount)
        if let pages {
            grown.update(from: pages, count: pageCount)
            pages.deallocate()
        }
        pages = grown
        pageCount = newCount
    }

    /// Every stored element, in key order.
    func forEach(_ body: (Element) -> Void) {
        for page in 0..<pageCount {
            // `pages` exists once a page does (page < pageCount): the identity map's hot path, one check.
            // swift-format-ignore: NeverForceUnwrap
            guard let slots = pages![page] else { continue }
            for slot in 0..<Self.pageSize {
                if let element = slots[slot] { body(element) }
            }
        }
    }

    func removeAll() {
        if let pages {
            for page in 0..<pageCount {
                guard let slots = pages[page] else { continue }
                slots.deinitialize(count: Self.pageSize)
                slots.deallocate()
            }
            pages.deallocate()
        }
        pages = nil
        pageCount = 0
        count = 0
    }
}

/// One `PKTable` per root entity number, reached without retaining the table.
///
/// Profiled (perf, insert and save of 100,000 objects): indexing an array of tables retained and released the
/// table on every registration and every row cached.
///
/// A table is made on its first write; until then its entry is a shared empty table that is only read. Profiled
/// (perf, `bench explain --model` of 1,000 entities): making a table for every entity in every context and store,
/// counting and emptying them all, was 20% of the run, growing with the square of the entities (one context per
/// phase, a few phases per entity).
struct PKTables<Element> {
    private let storage: Storage

    private final class Storage {
        let references: UnsafeMutablePointer<Unmanaged<PKTable<Element>>>
        let capacity: Int
        /// Read by the tables no one wrote to.
        let empty = PKTable<Element>()
        let emptyReference: UnsafeMutableRawPointer
        /// The tables made, by table number (owning them).
        var made: [(number: Int, table: PKTable<Element>)] = []

        init(count: Int) {
            capacity = count
            emptyReference = Unmanaged.passUnretained(empty).toOpaque()
            references = .allocate(capacity: Swift.max(count, 1))
            references.initialize(repeating: Unmanaged.passUnretained(empty), count: count)
        }

        deinit {
            references.deinitialize(count: capacity)
            references.deallocate()
        }

        @inline(never)
        func make(_ number: Int) -> Unmanaged<PKTable<Element>> {
            let table = PKTable<Element>()
            let at = made.firstIndex { $0.number > number } ?? made.count
            made.insert((number, table), at: at)
            let reference = Unmanaged.passUnretained(table)
            references[number] = reference
            return reference
        }
    }

    init(count: Int) {
        storage = Storage(count: count)
    }

    /// The tables written to, by table number.
    var all: [PKTable<Element>] { storage.made.map(\.table) }

    /// Table `number`, made if it is still the shared empty one.
    @inline(__always)
    private func writable(_ number: Int) -> Unmanaged<PKTable<Element>> {
        let reference = storage.references[number]
        if reference.toOpaque() != storage.emptyReference { return reference }
        return storage.make(number)
    }

    subscript(table: Int, key: Int64) -> Element? {
        @inline(__always) get { storage.references[table]._withUnsafeGuaranteedRef { $0[key] } }
        @inline(__always) nonmutating set {
            if newValue == nil {
                storage.references[table]._withUnsafeGuaranteedRef { $0[key] = nil }
            } else {
                writable(table)._withUnsafeGuaranteedRef { $0[key] = newValue }
            }
        }
    }

    /// Asks the cache line of `key`'s slot in `table` in (`PKTable.prefetch(_:)`).
    @inline(__always)
    func prefetch(_ table: Int, _ key: Int64) {
        storage.references[table]._withUnsafeGuaranteedRef { $0.prefetch(key) }
    }

    /// The slot of `key` (positive) in `table`, made if missing (`PKTable.slot(_:)`).
    @inline(__always)
    func slot(_ table: Int, _ key: Int64) -> UnsafeMutablePointer<Element?> {
        writable(table)._withUnsafeGuaranteedRef { $0.slot(key) }
    }

    /// The slot of `key` in `table`, if its page exists (`PKTable.existingSlot(_:)`).
    @inline(__always)
    func existingSlot(_ table: Int, _ key: Int64) -> UnsafeMutablePointer<Element?>? {
        storage.references[table]._withUnsafeGuaranteedRef { $0.existingSlot(key) }
    }

    /// Stores `element` in an empty slot of `table` (`PKTable.fill(_:with:)`).
    @inline(__always)
    func fill(_ table: Int, _ slot: UnsafeMutablePointer<Element?>, with element: Element) {
        writable(table)._withUnsafeGuaranteedRef { $0.fill(slot, with: element) }
    }

    var count: Int { storage.made.reduce(0) { $0 + $1.table.count } }

    func removeAll() { for (_, table) in storage.made { table.removeAll() } }
}
