/// An object's context reference and its flags in one word: the reference in the low 56 bits, the flags in the
/// top byte, which no user-space address uses on the 64-bit systems Swift runs on (x86-64 gives a process at most
/// 57 bits of address space, and only when it asks; arm64 at most 52).
///
/// One word instead of seven `Bool`s and a reference kept each object at 72 bytes, an 80-byte malloc chunk
/// instead of 96 (with `ManagedObject.row` standing for both the snapshot and the object's own row).
struct ObjectWord {
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let fault = Flags(rawValue: 1 << 0)
        static let inserted = Flags(rawValue: 1 << 1)
        static let updated = Flags(rawValue: 1 << 2)
        static let deleted = Flags(rawValue: 1 << 3)
        static let pendingJoinRows = Flags(rawValue: 1 << 4)
        static let pendingHiddenOwners = Flags(rawValue: 1 << 5)
        static let pendingOrder = Flags(rawValue: 1 << 6)
        /// `ManagedObject.row` is the object's own row, not its snapshot.
        static let localRow = Flags(rawValue: 1 << 7)
    }

    private static var flagShift: UInt { 56 }
    private static var addressMask: UInt { (1 << 56) - 1 }

    private var bits: UInt

    init(owner: Unmanaged<ObjectContext>?, flags: Flags) {
        bits = UInt(flags.rawValue) << Self.flagShift
        self.owner = owner
    }

    var owner: Unmanaged<ObjectContext>? {
        @inline(__always) get {
            let address = bits & Self.addressMask
            return address == 0 ? nil : Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
        }
        set {
            let address = newValue.map { UInt(bitPattern: $0.toOpaque()) } ?? 0
            precondition(address & ~Self.addressMask == 0, "a context's address uses the top byte of the word that keeps an object's flags")
            bits = (bits & ~Self.addressMask) | address
        }
    }

    subscript(flag: Flags) -> Bool {
        @inline(__always) get { bits & (UInt(flag.rawValue) << Self.flagShift) != 0 }
        @inline(__always) set {
            let mask = UInt(flag.rawValue) << Self.flagShift
            bits = newValue ? bits | mask : bits & ~mask
        }
    }
}
