/// A map from primary key to element, stored as pages of 1,024 slots.
///
/// Core Data's primary keys count from 1 per entity, so they are dense: a paged array answers in a few
/// instructions where a hash table would hash, and a far-away key costs one page, not a huge array.
struct PKTable<Element> {
    private static var pageShift: Int64 { 10 }
    private static var pageSize: Int { 1 << 10 }
    private var pages: ContiguousArray<ContiguousArray<Element?>> = []
    private(set) var count = 0

    subscript(key: Int64) -> Element? {
        @inline(__always) get {
            guard key > 0 else { return nil }
            let page = Int(truncatingIfNeeded: key >> Self.pageShift)
            guard page < pages.count else { return nil }
            let slots = pages[page]
            guard !slots.isEmpty else { return nil }
            return slots[Int(truncatingIfNeeded: key) & (Self.pageSize - 1)]
        }
        set {
            guard key > 0 else { return }
            let page = Int(truncatingIfNeeded: key >> Self.pageShift)
            let slot = Int(truncatingIfNeeded: key) & (Self.pageSize - 1)
            if page >= pages.count {
                guard newValue != nil else { return }
                pages.append(contentsOf: repeatElement([], count: page - pages.count + 1))
            }
            if pages[page].isEmpty {
                guard newValue != nil else { return }
                pages[page] = ContiguousArray(repeating: nil, count: Self.pageSize)
            }
            let wasSet = pages[page][slot] != nil
            pages[page][slot] = newValue
            count += (newValue != nil ? 1 : 0) - (wasSet ? 1 : 0)
        }
    }

    /// Every stored element, in key order.
    func forEach(_ body: (Element) -> Void) {
        for page in pages where !page.isEmpty {
            for case let element? in page { body(element) }
        }
    }

    mutating func removeAll() {
        pages = []
        count = 0
    }
}
