import Foundation
import Testing

@testable import ObjectGraph

/// Rows keep each value in a slot sized by its column's type: every value reads back as it was put, in a slot of
/// either width, through copies and replacements, and what a slot holds is released exactly once.
@Suite struct RowSnapshotTests {
    /// Ten columns (two tag words), narrow and wide mixed.
    private let types: [AttributeType] = [.int64, .string, .bool, .uuid, .date, .binary, .double, .uri, .decimal, .undefined]

    private let shape: RowShape.Owner

    init() {
        shape = RowShape.Owner(tableNumber: 1, types: types, defaults: ContiguousArray(repeating: .null, count: types.count))
    }

    private var everyValue: [Value] {
        [
            .null, .int(-7), .double(2.5), .bool(true), .string("a string longer than fifteen bytes"), .string("short"),
            .date(Date(timeIntervalSinceReferenceDate: 12.25)), .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            .binary(Data([1, 2, 3])), .decimal(Decimal(string: "12.345")!), .url(URL(string: "https://example.com/a")!),
        ]
    }

    private func row(_ values: [Value]) -> RowSnapshot {
        RowSnapshot.make(shape.shape, primaryKey: 5, version: 2, values: ContiguousArray(values))
    }

    @Test func everyValueReadsBackFromEverySlot() {
        for value in everyValue {
            let row = row(Array(repeating: value, count: types.count))
            #expect(Array(row.values) == Array(repeating: value, count: types.count), "\(value)")
            let copy = row.copy()
            #expect(Array(copy.values) == Array(row.values))
            for slot in 0..<types.count { copy.set(slot, everyValue[(slot + 3) % everyValue.count]) }
            #expect(Array(row.values) == Array(repeating: value, count: types.count), "a copy's change shows in its source")
            #expect((0..<types.count).allSatisfy { copy[$0] == everyValue[($0 + 3) % everyValue.count] })
            #expect(row.primaryKey == 5 && row.version == 2 && row.count == types.count && copy.primaryKey == 5)
        }
    }

    @Test func aSlotReadAtItsShapesWordIsTheSlotsValue() {
        // The payload word the shape gives each column is where the tags' widths put it, for every value a slot
        // can hold (the attribute read's direct path, `RowSlots.value(_:atWord:)`).
        for value in everyValue {
            let row = row((0..<types.count).map { _ in value })
            let slots = row.slots
            for slot in 0..<types.count {
                #expect(slots.value(slot, atWord: shape.shape.columns[slot].word) == slots.value(slot), "\(value) in slot \(slot)")
                #expect(slots.payload(atWord: shape.shape.columns[slot].word) == slots.payload(slot))
            }
        }
    }

    @Test func anAttributesPayloadWordIsWhereItsEntitysRowsKeepIt() throws {
        // The word an attribute read goes to directly (the declaring entity's objects only), in a model with a
        // hierarchy whose sub-entities add columns of every width, and in the school model.
        // Rows are laid out when the first store opens on a model (prepareStatements), as a read needs them.
        for model in [try InheritanceTests.chatModel(), try seedModel()] {
            model.prepareStatements()
            for entity in model.entities {
                for attribute in entity.storedAttributes where attribute.entity === entity && !attribute.isTransient {
                    #expect(attribute.payloadWord == entity.rowShape.columns[attribute.slot].word, "\(attribute.qualifiedName)")
                    #expect(attribute.payloadWord >= RowShape.tagWords(count: entity.rowShape.count))
                }
            }
        }
    }

    @Test func extraWordsAreCountedTagByTag() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let tags = UInt64.random(in: .min ... .max, using: &generator)
            let bytes = withUnsafeBytes(of: tags.littleEndian) { Array($0) }
            for slots in 0...8 {
                let expected = bytes[0..<slots].reduce(0) { $0 + Int($1 >> 7) + Int($1 >> 6 & 1) }
                #expect(RowSlots.extraWords(in: tags, before: slots) == expected)
            }
        }
    }

    @Test func aRowIsAsLargeAsItsColumnsNeed() {
        // Ten tags take two words; four narrow slots one word each, five wide slots two each, the decimal three.
        #expect(RowSnapshot.instanceBytes(shape.shape) == 16 + 24 + 8 * (2 + 4 + 2 * 5 + 3))
        // The school's student under many-to-one: a name and two keys.
        let student = RowShape.Owner(tableNumber: 1, types: [.string, .int64, .int64], defaults: [.null, .null, .null])
        #expect(RowSnapshot.instanceBytes(student.shape) == 16 + 24 + 8 + 16 + 8 + 8)
    }

    /// Where a fetch puts each column (`RowShape.Column.word`) is where every other access finds it.
    @Test func aFetchPutsEachColumnWhereItIsRead() {
        let types: [AttributeType] = [.string, .int64, .int64, .uuid, .double, .string, .bool, .date, .binary, .int16, .uri, .string]
        let owner = RowShape.Owner(tableNumber: 1, types: types, defaults: ContiguousArray(repeating: .null, count: types.count))
        let row = RowSnapshot.make(owner.shape, primaryKey: 1, version: 1)
        let slots = row.slots
        for slot in 0..<types.count {
            #expect(slots.payload(atWord: owner.shape.columns[slot].word) == slots.payload(slot), "slot \(slot)")
        }
        #expect(slots.wordCount == owner.shape.wordCount)
    }

    /// A decimal column keeps its values inline; only a value too wide for its slot is boxed.
    @Test func onlyAValueTooWideForItsSlotIsBoxed() {
        let row = row(Array(repeating: .decimal(Decimal(string: "12.345")!), count: types.count))
        let tags = (0..<types.count).map { row.slots.tag($0) }
        #expect(tags == [.boxed, .boxed, .boxed, .boxed, .boxed, .boxed, .boxed, .boxed, .decimal, .boxed])
        row.set(1, .string("a string"))
        row.set(0, .string("a string"))
        #expect(row.slots.tag(1) == .string && row.slots.tag(0) == .boxed)
    }

    /// A default kept boxed (a UUID in an eight-byte column) holds a reference, so new rows do not copy it as bytes.
    @Test func aDefaultHoldingAReferenceIsNotCopiedAsBytes() {
        let owner = RowShape.Owner(tableNumber: 1, types: [.int64, .uuid], defaults: [.uuid(UUID()), .uuid(UUID())])
        #expect(!owner.shape.startsComplete)
        for _ in 0..<3 { #expect(Array(RowSnapshot.make(owner.shape, primaryKey: 0, version: 0).values) == [.null, .null]) }
    }

    /// A fetch reads a column into its slot exactly as `value(_:as:)` reads it, whatever SQLite holds there.
    @Test func aFetchReadsEachColumnAsValueDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowsnapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("read.sqlite").path)
        try connection.execute("CREATE TABLE T(A)")
        let stored = [
            "NULL", "42", "-7", "2.5", "'text'", "'12'", "'https://example.com/a'", "X'E621E1F8C36C495A93FC0C247A3E6E5F'",
            "X'0102'", "''", "'12.345'",
        ]
        for literal in stored { try connection.execute("INSERT INTO T(A) VALUES (\(literal))") }
        let types: [AttributeType] = [
            .int16, .int32, .int64, .decimal, .double, .float, .string, .bool, .date, .binary, .uuid, .uri,
            .transformable,
        ]
        let owner = RowShape.Owner(tableNumber: 1, types: types, defaults: ContiguousArray(repeating: .null, count: types.count))
        let statement = try SQLiteStatement(connection: connection, sql: "SELECT A FROM T")
        while try statement.step() {
            let row = RowSnapshot.make(owner.shape, primaryKey: 1, version: 1)
            for slot in 0..<types.count { statement.read(0, as: owner.shape.columns[slot], into: row.slots, slot: slot) }
            for (slot, type) in types.enumerated() { #expect(row[slot] == statement.value(0, as: type), "\(type)") }
        }
    }

    /// A fetched row holds what it read, never its entity's defaults: NULL reads as null where a new row would hold
    /// the default, and a fetch's row starts as a new row does (`RowSnapshot.make`), then reads every slot.
    @Test func aFetchedRowHoldsWhatItReadNotTheDefaults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowsnapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("defaults.sqlite").path)
        try connection.execute("CREATE TABLE T(A, B, C, D)")
        try connection.execute("INSERT INTO T VALUES (NULL, NULL, NULL, NULL), (7, 'name', 0, 2.5), (NULL, 'x', NULL, NULL)")
        let types: [AttributeType] = [.int64, .string, .bool, .double]
        let owner = RowShape.Owner(tableNumber: 1, types: types, defaults: [.int(5), .null, .bool(true), .double(1.5)])
        #expect(owner.shape.startsComplete)
        let statement = try SQLiteStatement(connection: connection, sql: "SELECT A, B, C, D FROM T")
        var read: [[Value]] = []
        while try statement.step() {
            let row = RowSnapshot.make(owner.shape, primaryKey: 1, version: 1)
            for slot in 0..<types.count { statement.read(Int32(slot), as: owner.shape.columns[slot], into: row.slots, slot: slot) }
            read.append(Array(row.values))
            // A copy (an object about to change the row) holds the same values, references counted again.
            #expect(Array(row.copy().values) == Array(row.values))
        }
        let expected: [[Value]] = [
            [.null, .null, .null, .null], [.int(7), .string("name"), .bool(false), .double(2.5)], [.null, .string("x"), .null, .null],
        ]
        #expect(read == expected)
    }

    /// A text column reads as `String(decoding:as:)` reads its bytes (`SQLiteStatement.text`): empty, short, past a
    /// small string's 15 bytes, non-ASCII, invalid UTF-8 repaired, a number in a text column; and the column types
    /// read out of line (`readRarely`) read as `value(_:as:)` reads them.
    @Test func aTextColumnReadsAsItsBytesDecode() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowsnapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("text.sqlite").path)
        try connection.execute("CREATE TABLE T(N INTEGER, A TEXT, U BLOB, B BLOB)")
        try connection.execute(
            """
            INSERT INTO T VALUES (1, '', NULL, NULL), (2, 'Student 12345', X'000102030405060708090A0B0C0D0E0F', X'CAFE'),
            (3, 'a name longer than fifteen bytes', X'01', NULL), (4, 'héllo wörld', NULL, X''),
            (5, CAST(X'41FF42E282' AS TEXT), NULL, NULL), (6, 7, NULL, NULL)
            """)
        let types: [AttributeType] = [.string, .uuid, .binary]
        let owner = RowShape.Owner(tableNumber: 1, types: types, defaults: [.null, .null, .null])
        let statement = try SQLiteStatement(connection: connection, sql: "SELECT A, U, B FROM T ORDER BY N")
        var read: [[Value]] = []
        var expected: [[Value]] = []
        while try statement.step() {
            let row = RowSnapshot.make(owner.shape, primaryKey: 1, version: 1)
            for slot in 0..<types.count { statement.read(Int32(slot), as: owner.shape.columns[slot], into: row.slots, slot: slot) }
            read.append(Array(row.values))
            expected.append((0..<types.count).map { statement.value(Int32($0), as: types[$0]) })
        }
        #expect(read == expected)
        let texts = ["", "Student 12345", "a name longer than fifteen bytes", "héllo wörld", "A\u{FFFD}B\u{FFFD}", "7"]
        #expect(read.map { $0[0] } == texts.map(Value.string))
        #expect(read[1][1] == .uuid(UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))))
        #expect(read[2][1] == .null)
        #expect(read[1][2] == .binary(Data([0xCA, 0xFE])))
    }

    @Test func aNewRowStartsWithItsDefaults() {
        let defaults: ContiguousArray<Value> = [.int(3), .string("default"), .null, .date(Date(timeIntervalSinceReferenceDate: 1))]
        let shape = RowShape.Owner(tableNumber: 1, types: [.int64, .string, .double, .date], defaults: defaults)
        #expect(!shape.shape.startsComplete)
        let trivial = RowShape.Owner(tableNumber: 1, types: [.int64, .double], defaults: [.int(3), .double(1.5)])
        #expect(trivial.shape.startsComplete)
        #expect(Array(RowSnapshot.make(trivial.shape, primaryKey: 0, version: 0).values) == [.int(3), .double(1.5)])
    }

    /// A `Data` whose bytes' deallocator counts, to see when the last reference to it goes.
    private final class Releases: @unchecked Sendable { var count = 0 }

    private func counted(_ releases: Releases) -> Value {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        return .binary(
            Data(
                bytesNoCopy: bytes, count: 64,
                deallocator: .custom { pointer, _ in
                    pointer.deallocate()
                    releases.count += 1
                }))
    }

    @Test func whatASlotHoldsIsReleasedOnceItsLastHolderGoes() {
        let releases = Releases()
        // Slot 0 is narrow (the data is boxed there), slot 5 wide (the data is inline).
        for slot in [0, 5] {
            var original: RowSnapshot? = row(Array(repeating: .null, count: types.count))
            original!.set(slot, counted(releases))
            var copy: RowSnapshot? = original!.copy()
            original = nil
            #expect(releases.count == 0, "the copy still holds the data")
            copy!.set(slot, .int(1))
            #expect(releases.count == 1)
            copy!.set(slot, counted(releases))
            copy = nil
            #expect(releases.count == 2)
            releases.count = 0
        }
    }
}
