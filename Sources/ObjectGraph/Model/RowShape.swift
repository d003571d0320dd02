import Foundation

/// How an entity's rows lay out their values: a tag byte per column, then each column's payload in a slot of
/// eight bytes (numbers, booleans, dates, keys), sixteen (strings, UUIDs, data, URIs) or twenty-four (decimals).
///
/// A `Value` takes 24 bytes in an array (17 and padding: its payloads leave no spare bits for the case). Kept in
/// slots sized by column type, a student's row of a name and two keys takes 40 bytes of values instead of 72,
/// a 96-byte malloc chunk instead of 128 (massif, 1,000,000 students inserted: rows were the heap's largest
/// part). A value whose payload does not fit its slot (a string in an integer column) is boxed.
struct RowShape {
    /// The number of the root entity whose table holds the rows.
    let tableNumber: Int
    let count: Int
    /// The words of a row: tag words, then payload words.
    let wordCount: Int
    /// A new row's words: tags (the defaults when `startsComplete`, else nulls), then the payloads of those defaults.
    /// The `Owner` that made the shape keeps them (a plain pointer, so that reading an entity's shape for each
    /// insert retains nothing: profiled, an array here cost two retains an insert).
    let initialWords: UnsafePointer<UInt64>
    /// Whether `initialWords` holds every default: true unless a default, as kept, holds a reference (a string
    /// default, or one boxed for its slot); the defaults are then set slot by slot.
    let startsComplete: Bool

    /// Each column's type and the word its payload starts at, in slot order (kept by the `Owner` too): what a
    /// fetch reads each column as and where it puts it, without summing tag words per column.
    let columns: UnsafePointer<Column>

    struct Column {
        let type: AttributeType
        let word: Int
    }

    static func tagWords(count: Int) -> Int { (count + 7) >> 3 }

    /// Keeps a shape's initial words; an entity holds the owner of its rows' shape. Immutable once made.
    final class Owner: @unchecked Sendable {
        let shape: RowShape

        /// A shape for rows of table `tableNumber` with columns of `types`; `defaults` (one per column) are what a
        /// new row holds.
        init(tableNumber: Int, types: [AttributeType], defaults: ContiguousArray<Value>) {
            let count = types.count
            let tagWords = RowShape.tagWords(count: count)
            precondition(RowSlots.payloadsFit, "String, Data, URL, UUID or Decimal is larger than its slot on this platform")
            precondition(defaults.count == count, "a row shape needs one default per column")
            // A snapshot's header keeps both in 16 bits (`RowSnapshot.Header`), unchecked for each row made.
            precondition(
                count <= Int(Int16.max) && (0...Int(Int16.max)).contains(tableNumber),
                "a row shape of \(count) columns, table \(tableNumber), does not fit 16 bits")
            let wordCount = tagWords + types.reduce(0) { $0 + $1.slotWords }
            let words = UnsafeMutablePointer<UInt64>.allocate(capacity: wordCount)
            words.initialize(repeating: 0, count: wordCount)
            for (slot, type) in types.enumerated() {
                UnsafeMutableRawPointer(words).storeBytes(of: SlotTag.widthBits(words: type.slotWords), toByteOffset: slot, as: UInt8.self)
            }
            // The defaults are copied as bytes into every new row unless one of them, as kept, holds a reference.
            let slots = RowSlots(words, count: count)
            for (slot, value) in defaults.enumerated() { slots.initialize(slot, value) }
            let complete = !slots.holdsReferences
            if !complete {
                for slot in 0..<count {
                    slots.deinitialize(slot)
                    slots.initializeNull(slot)
                }
            }
            let columns = UnsafeMutablePointer<Column>.allocate(capacity: count)
            var word = tagWords
            for (slot, type) in types.enumerated() {
                (columns + slot).initialize(to: Column(type: type, word: word))
                word += type.slotWords
            }
            shape = RowShape(
                tableNumber: tableNumber, count: count, wordCount: wordCount, initialWords: UnsafePointer(words), startsComplete: complete,
                columns: UnsafePointer(columns))
        }

        /// The shape of a row of no columns, until an entity's columns are laid out.
        static let empty = Owner(tableNumber: 0, types: [], defaults: [])

        deinit {
            shape.initialWords.deallocate()
            shape.columns.deallocate()
        }
    }
}

extension AttributeType {
    /// The words of the column's slot: two for a string, a UUID, data or a transformed value, a URI (an undefined
    /// attribute is transient and has no column); three for a decimal; one for the rest.
    var slotWords: Int {
        switch self {
        case .string, .uuid, .binary, .transformable, .uri, .undefined: return 2
        case .decimal: return 3
        case .int16, .int32, .int64, .double, .float, .bool, .date: return 1
        }
    }
}
