import Foundation

extension PersistentStore {
    /// What Z_METADATA.Z_PLIST holds: Core Data's metadata keys, plus the model's canonical text.
    struct Metadata: Codable {
        var NSStoreType = "SQLite"
        var NSStoreUUID: String
        var NSStoreModelVersionHashes: [String: String]
        var ObjectGraphModel: String
    }

    func openOrCreateSchema() throws {
        let hasMetadata = try connection.scalarInt(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'") ?? 0
        if hasMetadata > 0 {
            try verifyMetadata()
            return
        }
        let tableCount = try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        guard tableCount == 0 else {
            throw ObjectGraphError.modelMismatch(path: location.description,
                                                 reason: "the database has tables but no Z_METADATA; it is not an ObjectGraph store")
        }
        try createSchema()
    }

    private func createSchema() throws {
        identifier = UUID().uuidString
        try connection.execute("BEGIN EXCLUSIVE")
        do {
            for statement in model.schemaSQL { try connection.execute(statement) }
            for entity in model.entities {
                let insert = try connection.cachedStatement(
                    "INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(?, ?, 0, 0)")
                insert.bind(Int64(entity.number), at: 1)
                insert.bind(entity.name, at: 2)
                _ = try insert.step()
                insert.reset()
            }
            let metadata = Metadata(NSStoreUUID: identifier, NSStoreModelVersionHashes: model.entityVersionHashes,
                                    ObjectGraphModel: model.canonicalDescription)
            let plist = try JSONEncoder.sorted.encode(metadata)
            let insertMetadata = try connection.cachedStatement("INSERT INTO Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST) VALUES(1, ?, ?)")
            insertMetadata.bind(identifier, at: 1)
            plist.withUnsafeBytes { insertMetadata.bind(bytes: $0, at: 2) }
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

    private func verifyMetadata() throws {
        let select = try connection.cachedStatement("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        defer { select.reset() }
        guard try select.step() else {
            throw ObjectGraphError.modelMismatch(path: location.description, reason: "Z_METADATA has no row")
        }
        identifier = select.string(0)
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: select.bytes(1)) else {
            throw ObjectGraphError.modelMismatch(path: location.description, reason: "Z_METADATA.Z_PLIST is not ObjectGraph metadata")
        }
        guard metadata.ObjectGraphModel != model.canonicalDescription else { return }
        throw ObjectGraphError.modelMismatch(path: location.description,
                                             reason: Self.differences(stored: metadata.NSStoreModelVersionHashes, current: model.entityVersionHashes))
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

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
