import Foundation

extension PersistentStore {
    /// What Z_METADATA.Z_PLIST holds, as a binary property list: Core Data's keys (the store type, the version
    /// hash of each entity, the hashes' format version, the auto-vacuum level; the store UUID, which Core Data
    /// keeps in Z_UUID and adds when it reads the metadata) and ObjectGraph's canonical model text, which the
    /// model-mismatch check compares. The entity hashes are FNV-1a of ObjectGraph's text of each entity: like
    /// Core Data's 32-byte digests they tell entities apart, but they are not Core Data's values.
    enum MetadataKey {
        static let storeType = "NSStoreType"
        static let storeUUID = "NSStoreUUID"
        static let versionHashes = "NSStoreModelVersionHashes"
        static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        static let autoVacuumLevel = "_NSAutoVacuumLevel"
        static let model = "ObjectGraphModel"
    }

    func openOrCreateSchema() throws {
        let hasMetadata =
            try connection.scalarInt(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'") ?? 0
        if hasMetadata > 0 {
            try verifyMetadata()
            return
        }
        let tableCount = try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        guard tableCount == 0 else {
            throw ObjectGraphError.modelMismatch(
                path: location.description,
                reason: "the database has tables but no Z_METADATA; it is not a Core Data or ObjectGraph store")
        }
        try createSchema()
    }

    private func createSchema() throws {
        identifier = UUID().uuidString
        try connection.execute("BEGIN EXCLUSIVE")
        do {
            for statement in model.schemaSQL { try connection.execute(statement) }
            let insert = try connection.cachedStatement("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(?, ?, ?, 0)")
            for entity in model.entities {
                insert.bind(Int64(entity.number), at: 1)
                insert.bind(entity.name, at: 2)
                insert.bind(Int64(entity.parent?.number ?? 0), at: 3)
                _ = try insert.step()
                insert.reset()
            }
            let insertMetadata = try connection.cachedStatement("INSERT INTO Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST) VALUES(1, ?, ?)")
            insertMetadata.bind(identifier, at: 1)
            try metadataPropertyList().withUnsafeBytes { insertMetadata.bind(bytes: $0, at: 2) }
            _ = try insertMetadata.step()
            insertMetadata.reset()
            let insertCache = try connection.cachedStatement("INSERT INTO Z_MODELCACHE(Z_CONTENT) VALUES(?)")
            Data(model.canonicalDescription.utf8).withUnsafeBytes { insertCache.bind(bytes: $0, at: 1) }
            _ = try insertCache.step()
            insertCache.reset()
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func metadataPropertyList() throws -> Data {
        let hashes = model.entityVersionHashes.mapValues { hex -> Data in
            Data(
                stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                })
        }
        let plist: [String: Any] = [
            MetadataKey.storeType: "SQLite",
            MetadataKey.storeUUID: identifier,
            MetadataKey.versionHashes: hashes,
            MetadataKey.versionHashesVersion: 3,
            MetadataKey.versionIdentifiers: [""],
            MetadataKey.autoVacuumLevel: "2",
            MetadataKey.model: model.canonicalDescription,
        ]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Checks the store was made for this model: from ObjectGraph's model text when the store is ObjectGraph's,
    /// else (a store Core Data made) by comparing every table and column the model needs with the store's.
    private func verifyMetadata() throws {
        let select = try connection.cachedStatement("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA")
        defer { select.reset() }
        guard try select.step() else {
            throw ObjectGraphError.modelMismatch(path: location.description, reason: "Z_METADATA has no row")
        }
        identifier = select.string(1)
        let plist = select.bytes(2)
        // Profiled (`bench explain --model` of 600 entities, perf): parsing the same plist of every entity's hash on
        // each of the 5,000 opens of one template's copies was 7% of the run and grew with the square of the
        // entities; the model text of plists already parsed is kept by their bytes.
        if let storedModel = MetadataCache.shared.model(of: plist), storedModel == model.canonicalDescription { return }
        var format = PropertyListSerialization.PropertyListFormat.binary
        guard let metadata = (try? PropertyListSerialization.propertyList(from: plist, options: [], format: &format)) as? [String: Any]
        else {
            throw ObjectGraphError.modelMismatch(path: location.description, reason: "Z_METADATA.Z_PLIST is not a property list")
        }
        guard let storedModel = metadata[MetadataKey.model] as? String else {
            try verifyForeignSchema()
            return
        }
        guard storedModel != model.canonicalDescription else {
            MetadataCache.shared.remember(storedModel, of: plist)
            return
        }
        let stored = (metadata[MetadataKey.versionHashes] as? [String: Data] ?? [:]).mapValues {
            $0.map { String(format: "%02x", $0) }.joined()
        }
        throw ObjectGraphError.modelMismatch(
            path: location.description, reason: Self.differences(stored: stored, current: model.entityVersionHashes))
    }

    /// A store Core Data made: every entity table and join table of the model must exist with the model's columns.
    private func verifyForeignSchema() throws {
        var problems: [String] = []
        var expected: [(String, Set<String>)] = model.entities.filter { $0.parent == nil }.map { root in
            (root.tableName, Set(["Z_PK", "Z_ENT", "Z_OPT"] + root.tableColumns.map(\.name)))
        }
        expected += model.joinTables.map {
            ($0.tableName, Set([$0.sourceColumn, $0.destinationColumn] + [$0.orderColumn, $0.inverseOrderColumn].compactMap { $0 }))
        }
        for (table, columns) in expected {
            let info = try connection.cachedStatement("SELECT name FROM pragma_table_info(?)")
            info.bind(table, at: 1)
            var found = Set<String>()
            while try info.step() { found.insert(info.string(0)) }
            info.reset()
            if found.isEmpty {
                problems.append("table \(table) is missing")
            } else if !columns.isSubset(of: found) {
                problems.append("table \(table) lacks \(columns.subtracting(found).sorted().joined(separator: ", "))")
            }
        }
        guard problems.isEmpty else {
            throw ObjectGraphError.modelMismatch(path: location.description, reason: problems.prefix(3).joined(separator: "; "))
        }
    }

    /// Names the entities that differ between the stored model and the current one.
    static func differences(stored: [String: String], current: [String: String]) -> String {
        var parts: [String] = []
        for name in Set(stored.keys).union(current.keys).sorted() {
            switch (stored[name], current[name]) {
            case (nil, _?): parts.append("entity \(name) is not in the store")
            case (_?, nil): parts.append("entity \(name) is in the store but not in the model")
            case let (a?, b?) where a != b: parts.append("entity \(name) differs")
            default: break
            }
        }
        return parts.isEmpty ? "the model's text differs" : parts.joined(separator: "; ")
    }
}

/// The model text of Z_METADATA plists already parsed, by their bytes (a few; emptied when full).
private final class MetadataCache: @unchecked Sendable {
    static let shared = MetadataCache()
    private let lock = NSLock()
    private var models: [Data: String] = [:]

    func model(of plist: Data) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return models[plist]
    }

    func remember(_ model: String, of plist: Data) {
        lock.lock()
        defer { lock.unlock() }
        if models.count >= 8 { models.removeAll() }
        models[plist] = model
    }
}
