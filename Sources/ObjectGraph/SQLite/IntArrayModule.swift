import CSQLite

/// A list of integers that SQL reads as a table, the way Core Data passes ID lists to SQLite.
///
/// Core Data's batch and prefetch statements read `WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)`, with the IDs
/// handed to a virtual table rather than bound as `?` parameters. Set `values` before running such a statement.
/// Package-wide: the harness's peers bind their ID lists the same way, so that no floor pays for another encoding.
package final class IntArray {
    package let name: String
    @exclusivity(unchecked) package var values: ContiguousArray<Int64> = []
    init(name: String) { self.name = name }
}

/// The `intarray` virtual-table module and the temp tables `_Z_intarray0`, `_Z_intarray1`, ... on one connection.
///
/// SQLite keeps the module's context (this object) retained until the connection closes, through the destructor
/// given to `sqlite3_create_module_v2`, so the C structures never outlive what they point to.
package final class IntArrayModule {
    package let arrays: [IntArray]
    private let module: UnsafeMutablePointer<sqlite3_module>

    /// Registers the module on the connection `handle` and creates `tableCount` temp tables; on failure, the
    /// SQLite result code and message.
    package init(handle: OpaquePointer, tableCount: Int) throws(IntArrayError) {
        arrays = (0..<tableCount).map { IntArray(name: "_Z_intarray\($0)") }
        module = .allocate(capacity: 1)
        module.initialize(to: IntArrayModule.makeModule())
        let context = Unmanaged.passRetained(self).toOpaque()
        let code = sqlite3_create_module_v2(handle, "intarray", module, context) { context in
            guard let context else { return }
            Unmanaged<IntArrayModule>.fromOpaque(context).release()
        }
        guard code == SQLITE_OK else { throw IntArrayError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: nil) }
        for array in arrays {
            let sql = "CREATE VIRTUAL TABLE temp.\(array.name) USING intarray"
            let created = sqlite3_exec(handle, sql, nil, nil, nil)
            guard created == SQLITE_OK else {
                throw IntArrayError(code: created, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
            }
        }
    }

    deinit { module.deallocate() }

    /// Why the module could not be installed.
    package struct IntArrayError: Error {
        package let code: Int32
        package let message: String
        package let sql: String?
    }

    fileprivate func array(named name: String) -> IntArray? {
        arrays.first { $0.name == name }
    }

    private static func makeModule() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 0
        let connect:
            @convention(c) (
                OpaquePointer?, UnsafeMutableRawPointer?, Int32,
                UnsafePointer<UnsafePointer<CChar>?>?,
                UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?,
                UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            ) -> Int32 = {
                db, aux, argc, argv, vtabOut, _ in
                guard let aux, let argv, argc >= 3, let tableName = argv[2] else { return SQLITE_ERROR }
                let owner = Unmanaged<IntArrayModule>.fromOpaque(aux).takeUnretainedValue()
                guard let array = owner.array(named: String(cString: tableName)) else { return SQLITE_ERROR }
                let code = sqlite3_declare_vtab(db, "CREATE TABLE x(value INTEGER PRIMARY KEY)")
                guard code == SQLITE_OK else { return code }
                guard let raw = sqlite3_malloc(Int32(vtabSize)) else { return SQLITE_NOMEM }
                raw.initializeMemory(as: UInt8.self, repeating: 0, count: vtabSize)
                arrayPointer(ofTable: raw).storeBytes(of: Unmanaged.passUnretained(array).toOpaque(), as: UnsafeMutableRawPointer.self)
                vtabOut?.pointee = raw.assumingMemoryBound(to: sqlite3_vtab.self)
                return SQLITE_OK
            }
        module.xCreate = connect
        module.xConnect = connect
        module.xBestIndex = { _, info in
            info?.pointee.estimatedCost = 1
            info?.pointee.estimatedRows = 100
            return SQLITE_OK
        }
        let disconnect: @convention(c) (UnsafeMutablePointer<sqlite3_vtab>?) -> Int32 = { vtab in
            sqlite3_free(vtab)
            return SQLITE_OK
        }
        module.xDisconnect = disconnect
        module.xDestroy = disconnect
        module.xOpen = { vtab, cursorOut in
            guard let vtab, let raw = sqlite3_malloc(Int32(cursorSize)) else { return SQLITE_NOMEM }
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: cursorSize)
            let array = arrayPointer(ofTable: UnsafeMutableRawPointer(vtab)).load(as: UnsafeMutableRawPointer.self)
            let fields = cursorFields(raw)
            fields[0] = Int(bitPattern: array)
            fields[1] = 0
            cursorOut?.pointee = raw.assumingMemoryBound(to: sqlite3_vtab_cursor.self)
            return SQLITE_OK
        }
        module.xClose = { cursor in
            sqlite3_free(cursor)
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, _, _, _ in
            guard let cursor else { return SQLITE_ERROR }
            cursorFields(UnsafeMutableRawPointer(cursor))[1] = 0
            return SQLITE_OK
        }
        module.xNext = { cursor in
            guard let cursor else { return SQLITE_ERROR }
            cursorFields(UnsafeMutableRawPointer(cursor))[1] += 1
            return SQLITE_OK
        }
        module.xEof = { cursor in
            guard let cursor else { return 1 }
            let raw = UnsafeMutableRawPointer(cursor)
            return cursorFields(raw)[1] >= values(ofCursor: raw).values.count ? 1 : 0
        }
        module.xColumn = { cursor, context, _ in
            guard let cursor else { return SQLITE_ERROR }
            let raw = UnsafeMutableRawPointer(cursor)
            let index = cursorFields(raw)[1]
            sqlite3_result_int64(context, values(ofCursor: raw).values[index])
            return SQLITE_OK
        }
        module.xRowid = { cursor, rowid in
            guard let cursor else { return SQLITE_ERROR }
            rowid?.pointee = Int64(cursorFields(UnsafeMutableRawPointer(cursor))[1])
            return SQLITE_OK
        }
        return module
    }
}

// Memory layout of the C objects: SQLite's base struct first, then an unretained IntArray pointer,
// then (cursors only) the current index.
private let vtabSize = MemoryLayout<sqlite3_vtab>.stride + MemoryLayout<UnsafeRawPointer>.stride
private let cursorSize = MemoryLayout<sqlite3_vtab_cursor>.stride + 2 * MemoryLayout<Int>.stride

private func arrayPointer(ofTable vtab: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
    vtab.advanced(by: MemoryLayout<sqlite3_vtab>.stride)
}

private func cursorFields(_ cursor: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Int> {
    cursor.advanced(by: MemoryLayout<sqlite3_vtab_cursor>.stride).assumingMemoryBound(to: Int.self)
}

private func values(ofCursor cursor: UnsafeMutableRawPointer) -> IntArray {
    let fields = cursorFields(cursor)
    // SQLite hands back the pointer this module gave it (C interop).
    // swift-format-ignore: NeverForceUnwrap
    return Unmanaged<IntArray>.fromOpaque(UnsafeRawPointer(bitPattern: fields[0])!).takeUnretainedValue()
}
