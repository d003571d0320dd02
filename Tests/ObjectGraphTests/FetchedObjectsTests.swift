import Foundation
import Testing

@testable import ObjectGraph

/// A fetch's objects as `FetchedObjects` collects them (a buffer that grows past its first 64, then moves into the
/// array), and a fetched row's snapshot as `RowSnapshot.makeRead` makes it (tag words from the shape, every slot read).
@Suite struct FetchedObjectsTests {
    private final class Weak {
        weak var object: ManagedObject?
        init(_ object: ManagedObject) { self.object = object }
    }

    private static func items(_ count: Int) throws -> TemporaryStore {
        let model = try ObjectModel([Entity("Item", [.attribute("name", .string), .attribute("rank", .int64)])])
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        for rank in 0..<count {
            let item = try context.insert("Item")
            // Short names are Swift's small strings, long ones live on the heap: both kinds go through the buffer.
            try item.setValue(.string(rank % 2 == 0 ? "item \(rank)" : "a longer name for item number \(rank)"), for: "name")
            try item.setValue(.int(Int64(rank)), for: "rank")
        }
        try context.save()
        try temporary.reopen()
        return temporary
    }

    /// 1,000 rows: the buffer grows four times; every row comes back once, in order, registered once, and a second
    /// fetch returns the same objects without materializing any.
    @Test func aFetchPastTheBufferReturnsEveryRowOnceInOrder() throws {
        let temporary = try Self.items(1_000)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Item")
        request.sortDescriptors = [FetchSort("rank")]
        let first = try context.fetch(request).array
        #expect(first.count == 1_000)
        #expect(try first.map { try $0.value("rank") } == (0..<1_000).map { Value.int(Int64($0)) })
        #expect(try first[999].value("name") == .string("a longer name for item number 999"))
        #expect(context.counters.rowsRead == 1_000)
        #expect(context.counters.objectsMaterialized == 1_000)
        #expect(context.counters.statements == 1)
        #expect(context.registeredObjectCount == 1_000)
        let second = try context.fetch(request).array
        #expect(second.count == 1_000)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(context.counters.rowsRead == 2_000)
        #expect(context.counters.objectsMaterialized == 1_000)
        #expect(context.registeredObjectCount == 1_000)
    }

    /// A fetch of no rows: an empty array, nothing registered.
    @Test func aFetchOfNoRowsIsEmpty() throws {
        let temporary = try Self.items(0)
        let context = temporary.store.makeContext()
        #expect(try context.fetch(FetchRequest("Item")).array.isEmpty)
        #expect(context.counters.rowsRead == 0)
        #expect(context.registeredObjectCount == 0)
    }

    /// The buffer owns what it holds: moved into the array, the objects live as long as the array; released (a
    /// fetch that failed), they go at once.
    @Test func theBufferOwnsItsObjectsUntilMovedOrReleased() throws {
        let temporary = try Self.items(0)
        let context = temporary.store.makeContext()
        let entity = try context.model.requireEntity("Item")
        var moved: [Weak] = []
        var array: [ManagedObject]? = {
            var buffer = FetchedObjects()
            defer { buffer.release() }
            for key in 1...200 {
                let object = ManagedObject(faultOf: entity, primaryKey: Int64(key), snapshot: nil, owner: context)
                moved.append(Weak(object))
                buffer.append(object)
            }
            return buffer.array()
        }()
        #expect(array?.map(\.primaryKey) == (1...200).map { Int64($0) })
        #expect(moved.allSatisfy { $0.object != nil })
        array = nil
        #expect(moved.allSatisfy { $0.object == nil })

        var released: [Weak] = []
        do {
            var buffer = FetchedObjects()
            for key in 1...130 {
                let object = ManagedObject(faultOf: entity, primaryKey: Int64(key), snapshot: nil, owner: context)
                released.append(Weak(object))
                buffer.append(object)
            }
            buffer.release()
        }
        #expect(released.count == 130)
        #expect(released.allSatisfy { $0.object == nil })
    }

    /// A row read into a snapshot of ten columns (two tag words, a two-word UUID slot): what it read, NULL as null
    /// (never a default), the same in a copy.
    @Test func aReadRowHoldsWhatItReadAcrossTwoTagWords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchedobjects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("read.sqlite").path)
        try connection.execute("CREATE TABLE T(A, B, C, D, E, F, G, H, I, J)")
        let token = UUID(uuidString: "00000000-0000-0000-0000-000000000042")!
        try connection.execute(
            """
            INSERT INTO T VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), \
            (1, 'one', 2.5, 1, x'00000000000000000000000000000042', 'a name longer than fifteen bytes', 9, 0, 'j', -3), \
            (NULL, 'b', NULL, 0, NULL, NULL, 10, NULL, NULL, 4)
            """)
        let types: [AttributeType] = [.int64, .string, .double, .bool, .uuid, .string, .int64, .bool, .string, .int64]
        for defaults: ContiguousArray<Value> in [
            [.int(5), .null, .double(1.5), .bool(true), .null, .null, .int(6), .bool(true), .null, .int(7)],
            [.int(5), .string("default"), .double(1.5), .bool(true), .null, .string("x"), .int(6), .bool(true), .string("y"), .int(7)],
        ] {
            let owner = RowShape.Owner(tableNumber: 1, types: types, defaults: defaults)
            let statement = try SQLiteStatement(connection: connection, sql: "SELECT A, B, C, D, E, F, G, H, I, J FROM T")
            var read: [[Value]] = []
            while try statement.step() {
                let row = RowSnapshot.makeRead(owner.shape, primaryKey: 1, version: 1) { row in
                    for slot in 0..<types.count { statement.read(Int32(slot), as: owner.shape.columns[slot], into: row.slots, slot: slot) }
                }
                read.append(Array(row.values))
                #expect(Array(row.copy().values) == Array(row.values))
            }
            let expected: [[Value]] = [
                Array(repeating: .null, count: 10),
                [
                    .int(1), .string("one"), .double(2.5), .bool(true), .uuid(token), .string("a name longer than fifteen bytes"), .int(9),
                    .bool(false), .string("j"), .int(-3),
                ],
                [.null, .string("b"), .null, .bool(false), .null, .null, .int(10), .null, .null, .int(4)],
            ]
            #expect(read == expected)
        }
    }
}
