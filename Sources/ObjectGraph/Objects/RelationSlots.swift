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

/// An object's relationship slots, indexed by `RelationshipDescription.index`.
///
/// The first three live inline in the object and the rest in an array, so that an object of an entity with up to
/// three relationships makes no allocation for them. (Profiled at 100,000 inserted students: the slot array was
/// an 80-byte allocation per object, copied on the first relationship set, a quarter of ObjectGraph's memory.)
struct RelationSlots {
    private var first = RelationSlot.unresolved
    private var second = RelationSlot.unresolved
    private var third = RelationSlot.unresolved
    /// Slots from the fourth on; empty (the shared empty buffer, no allocation) for up to three relationships.
    private var rest: ContiguousArray<RelationSlot>

    /// `count` unresolved slots.
    init(unresolved count: Int) {
        rest = count > 3 ? ContiguousArray(repeating: .unresolved, count: count - 3) : []
    }

    subscript(index: Int) -> RelationSlot {
        @inline(__always) get {
            switch index {
            case 0: return first
            case 1: return second
            case 2: return third
            default: return rest[index - 3]
            }
        }
        @inline(__always) set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            case 2: third = newValue
            default: rest[index - 3] = newValue
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
