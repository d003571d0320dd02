/// What an object knows of one relationship.
///
/// Eight bytes: a resolved to-one with no destination is a case of its own rather than `Optional`, which would
/// take the spare bits the enum keeps its case in (a `toOne(ManagedObject?)` case made every slot 16 bytes).
enum RelationSlot {
    /// To-one: read the key in the object's row. To-many: a fault, unchanged since the last save.
    case unresolved
    /// A to-one known to have no destination.
    case toOneNil
    case toOneObject(ManagedObject)
    case toMany(ToManyState)

    /// A resolved to-one slot holding `destination` (or none).
    @inline(__always)
    static func toOne(_ destination: ManagedObject?) -> RelationSlot {
        if let destination { return .toOneObject(destination) }
        return .toOneNil
    }

    /// Whether the slot is a resolved to-one (with or without a destination).
    var isResolvedToOne: Bool {
        switch self {
        case .toOneNil, .toOneObject: return true
        case .unresolved, .toMany: return false
        }
    }

    /// The destination of a resolved to-one; nil for every other slot.
    var destination: ManagedObject? {
        if case let .toOneObject(destination) = self { return destination }
        return nil
    }
}

/// A to-one slot as a save reads it: not resolved (the row's key stands), no destination, or one held elsewhere.
enum ToOneSlot {
    case unresolved
    case noDestination
    case object(Unmanaged<ManagedObject>)

    @inline(__always)
    init(_ slot: borrowing RelationSlot) {
        switch slot {
        case .unresolved, .toMany: self = .unresolved
        case .toOneNil: self = .noDestination
        case let .toOneObject(destination): self = .object(.passUnretained(destination))
        }
    }
}

/// An object's relationship slots, indexed by `RelationshipDescription.index`.
///
/// Three slots live inline in the object, so that an object of an entity with up to three relationships makes no
/// allocation for them. An entity with more keeps the first two inline and the rest in one shared, copy-on-write
/// buffer in the third's place, 24 bytes in all either way. (Profiled at 100,000 inserted students: a slot
/// array was an 80-byte allocation per object, a quarter of ObjectGraph's memory; at 1,000,000 students the
/// array's reference alone made each object a 112-byte malloc chunk instead of 96.)
struct RelationSlots {
    private var first = RelationSlot.unresolved
    private var second = RelationSlot.unresolved
    private var tail = Tail.slot(.unresolved)

    /// The third slot itself, or the buffer of every slot from the third on.
    private enum Tail {
        case slot(RelationSlot)
        case overflow(OverflowSlots)
    }

    /// How many relationships' slots an object keeps without an overflow buffer.
    static var inlineCount: Int { 3 }

    /// `count` unresolved slots.
    init(unresolved count: Int) {
        if count > Self.inlineCount { tail = .overflow(OverflowSlots.make(count: count - 2)) }
    }

    /// Unresolved slots for an entity that keeps them all inline.
    @inline(__always)
    init() {}

    /// The unresolved slots of a new object of `entity`: made in place, or the entity's copied when they overflow.
    @inline(__always)
    static func unresolved(for entity: EntityDescription) -> RelationSlots {
        entity.relationsOverflow ? entity.unresolvedRelations : RelationSlots()
    }

    subscript(index: Int) -> RelationSlot {
        @inline(__always) get {
            switch index {
            case 0: return first
            case 1: return second
            default:
                switch tail {
                case let .slot(slot): return slot
                case let .overflow(buffer): return buffer[index - 2]
                }
            }
        }
        @inline(__always) set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            default:
                switch tail {
                case .slot:
                    tail = .slot(newValue)
                case var .overflow(buffer):
                    // Let go of the buffer first, so that a buffer only these slots hold is changed in place.
                    tail = .slot(.unresolved)
                    if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
                    buffer[index - 2] = newValue
                    tail = .overflow(buffer)
                }
            }
        }
    }

    /// What to-one slot `index` holds, its destination unretained: for a save's pass over every new row, where
    /// copying the slot retained and released each destination (profiled, perf at 100,000 many-to-one students:
    /// that retain was a tenth of ObjectGraph's own samples in the insert phase, an atomic on a cold object).
    @inline(__always)
    func toOne(at index: Int) -> ToOneSlot {
        reading(index) { ToOneSlot($0) }
    }

    /// The to-many state slot `index` holds, unretained; nil if the slot holds none. For inverse maintenance, which
    /// reaches a destination's state once per link (profiled, perf at 100,000 many-to-one students: retaining the
    /// state of a random class was 166 of ObjectGraph's 2,436 samples in the insert phase, an atomic on a cold line).
    @inline(__always)
    func toManyState(at index: Int) -> Unmanaged<ToManyState>? {
        reading(index) { slot in
            switch slot {
            case let .toMany(state): return .passUnretained(state)
            case .unresolved, .toOneNil, .toOneObject: return nil
            }
        }
    }

    /// Hands `read` slot `index` borrowed, without copying it (a copy retains what the slot holds).
    @inline(__always)
    private func reading<Result>(_ index: Int, _ read: (borrowing RelationSlot) -> Result) -> Result {
        switch index {
        case 0: return read(first)
        case 1: return read(second)
        default:
            switch tail {
            case let .slot(slot): return read(slot)
            case let .overflow(buffer): return buffer.withUnsafeMutablePointerToElements { read($0[index - 2]) }
            }
        }
    }

    /// The same slots, with every to-many state copied (for a save's undo log).
    func copyingToManyStates(count: Int) -> RelationSlots {
        var copy = self
        for index in 0..<count {
            if case let .toMany(state) = self[index] { copy[index] = .toMany(state.copy()) }
        }
        return copy
    }
}

/// Relationship slots from the third on, for an entity with more than three relationships: one allocation,
/// the count in the header and the slots after it.
final class OverflowSlots: ManagedBuffer<Int, RelationSlot> {
    static func make(count: Int) -> OverflowSlots {
        let buffer = create(minimumCapacity: count) { _ in count }
        buffer.withUnsafeMutablePointerToElements { $0.initialize(repeating: .unresolved, count: count) }
        return unsafeDowncast(buffer, to: OverflowSlots.self)
    }

    deinit {
        withUnsafeMutablePointers { count, slots in _ = slots.deinitialize(count: count.pointee) }
    }

    /// A buffer of its own with the same slots.
    func copy() -> OverflowSlots {
        let count = withUnsafeMutablePointerToHeader { $0.pointee }
        let buffer = OverflowSlots.create(minimumCapacity: count) { _ in count }
        buffer.withUnsafeMutablePointerToElements { target in
            withUnsafeMutablePointerToElements { target.initialize(from: $0, count: count) }
        }
        return unsafeDowncast(buffer, to: OverflowSlots.self)
    }

    subscript(index: Int) -> RelationSlot {
        @inline(__always) get { withUnsafeMutablePointerToElements { $0[index] } }
        @inline(__always) set { withUnsafeMutablePointerToElements { $0[index] = newValue } }
    }
}
