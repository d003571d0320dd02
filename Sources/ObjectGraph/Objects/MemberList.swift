/// The members of one object's to-many relationship: in insertion order, each object once.
///
/// Profiled: keeping them in an OrderedSet hashed every member as it arrived, and rebuilt the hash table as the
/// set grew, which was the largest cost of firing to-many faults and prefetching. Members come from SQL rows
/// (distinct by construction) or from inverse maintenance (which keeps both sides in step), so appending
/// needs no lookup; a position index is built only when a lookup in a long list asks for one.
struct MemberList: RandomAccessCollection {
    private(set) var elements: ContiguousArray<ManagedObject> = []
    private var positions: [ObjectIdentifier: Int]?

    /// Lists at most this long are searched linearly (comparing identities is cheaper than hashing).
    private static var indexThreshold: Int { 32 }

    init() {}

    /// A list of objects known to be distinct (rows of one query, or members of another list).
    init<S: Sequence>(distinct objects: S) where S.Element == ManagedObject {
        elements = ContiguousArray(objects)
    }

    /// A list of `count` objects known to be distinct, `member(index)` in order, made at its size.
    init(count: Int, _ member: (Int) -> ManagedObject) {
        elements = ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                (buffer.baseAddress.unsafelyUnwrapped + index).initialize(to: member(index))
                initialized = index + 1
            }
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { elements.count }
    subscript(position: Int) -> ManagedObject { elements[position] }

    /// Appends `member`, which the caller knows is not in the list.
    mutating func append(_ member: ManagedObject) {
        assert(scan(for: member) == nil, "a member was added twice")
        positions?[ObjectIdentifier(member)] = elements.count
        elements.append(member)
    }

    /// The position of `member`, building the index first if the list is long.
    mutating func position(of member: ManagedObject) -> Int? {
        if elements.count <= Self.indexThreshold { return scan(for: member) }
        if positions == nil {
            var index: [ObjectIdentifier: Int] = [:]
            index.reserveCapacity(elements.count)
            withUnretainedElements { references in
                for (position, reference) in references.enumerated() {
                    index[reference._withUnsafeGuaranteedRef(ObjectIdentifier.init)] = position
                }
            }
            positions = index
        }
        return positions?[ObjectIdentifier(member)]
    }

    mutating func contains(_ member: ManagedObject) -> Bool { position(of: member) != nil }

    /// Whether `member` is in the list, without building an index (for read-only callers).
    func containsScanning(_ member: ManagedObject) -> Bool {
        if let positions { return positions[ObjectIdentifier(member)] != nil }
        return scan(for: member) != nil
    }

    /// The position of `member` found by comparing references alone.
    private func scan(for member: ManagedObject) -> Int? {
        let target = Unmanaged.passUnretained(member).toOpaque()
        return withUnretainedElements { references in references.firstIndex { $0.toOpaque() == target } }
    }

    /// The members as references that neither retain nor touch them. (Profiled, perf at 100,000 many-to-nil
    /// members: comparing element by element retained and released each member, an atomic on a cold object per
    /// comparison, a twelfth of ObjectGraph's own samples in the insert phase.)
    private func withUnretainedElements<R>(_ body: (UnsafeBufferPointer<Unmanaged<ManagedObject>>) -> R) -> R {
        elements.withUnsafeBufferPointer { $0.withUnretainedReferences(body) }
    }

    /// Inserts `member`, which the caller knows is not in the list, at `index`.
    mutating func insert(_ member: ManagedObject, at index: Int) {
        elements.insert(member, at: index)
        if positions != nil { reindex(from: index) }
    }

    /// Moves the member at `source` to `destination` (positions after the move).
    mutating func move(from source: Int, to destination: Int) {
        let member = elements.remove(at: source)
        elements.insert(member, at: destination)
        if positions != nil { reindex(from: Swift.min(source, destination)) }
    }

    private mutating func reindex(from start: Int) {
        for position in start..<elements.count { positions?[ObjectIdentifier(elements[position])] = position }
    }

    /// Removes `member` if present; true if it was.
    @discardableResult
    mutating func remove(_ member: ManagedObject) -> Bool {
        guard let position = position(of: member) else { return false }
        elements.remove(at: position)
        if positions != nil {
            positions?[ObjectIdentifier(member)] = nil
            reindex(from: position)
        }
        return true
    }
}
