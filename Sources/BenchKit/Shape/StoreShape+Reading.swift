import Foundation
import ObjectGraph

extension StoreShape {
    /// Z_PRIMARYKEY numbers entities from 1; persistent history's tables are numbered from 16001 (CHANGE,
    /// TRANSACTION, TRANSACTIONSTRING), and are no entities of the model.
    static let firstSystemEntity = 16000

    /// Reads the shape of the store at `path` as a store of `model` (`modelName` names it in messages): only counts,
    /// never a value. A store of another model (its entities, tables or columns differ) is refused naming what
    /// differs; `warnings` says what may be missing (a WAL store without its `-wal`).
    package static func read(path: String, model: ObjectModel, modelName: String) throws -> (shape: StoreShape, warnings: [String]) {
        let store = try ReadOnlyStore(path: path)
        do {
            return (try read(store, path: path, model: model, modelName: modelName), store.warnings)
        } catch let error as BenchError where error.kind == .invalidInput && !store.warnings.isEmpty {
            // A WAL store copied without its -wal explains a refusal: its tables and rows are still in that file.
            throw BenchError.invalidInput(error.description + " (\(store.warnings[0]))")
        }
    }

    private static func read(_ store: ReadOnlyStore, path: String, model: ObjectModel, modelName: String) throws -> StoreShape {
        guard try store.hasTable("Z_PRIMARYKEY") else {
            throw BenchError.invalidInput(
                "--shape-from: \(path) has no Z_PRIMARYKEY table, so it is no Core Data or SwiftData store; give the app's store file")
        }
        var numbers: [String: Int] = [:]
        var parents: [String: Int] = [:]
        for row in try store.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < \(firstSystemEntity)") {
            guard let number = row[0].flatMap({ Int($0) }), let name = row[1] else { continue }
            numbers[name] = number
            parents[name] = row[2].flatMap { Int($0) } ?? 0
        }
        try checkEntities(numbers: numbers, parents: parents, model: model, path: path, modelName: modelName)
        try checkTables(store, model: model, path: path, modelName: modelName)
        var shape = StoreShape(path: path)
        func subtree(_ entity: EntityDescription) -> String {
            entity.subtree.compactMap { numbers[$0.name] }.map(String.init).joined(separator: ", ")
        }
        for root in model.entities where root.superentity == nil {
            for row in try store.rows("SELECT Z_ENT, count(*) FROM \(root.tableName) GROUP BY Z_ENT") {
                guard let number = row[0].flatMap({ Int($0) }), let count = row[1].flatMap({ Int($0) }),
                    let name = numbers.first(where: { $0.value == number })?.key, model.entity(name)?.isAbstract == false
                else { continue }
                shape.rows[name] = count
            }
        }
        for entity in model.entities where !entity.isAbstract { shape.rows[entity.name] = shape.rows[entity.name] ?? 0 }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.entity === entity {
                let owners = "\(entity.tableName) o"
                let which = "o.Z_ENT IN (\(subtree(entity)))"
                if relationship.isToMany {
                    let members: String
                    if let join = relationship.joinTable {
                        members =
                            "count(m.\(join.destinationColumn)) AS n FROM \(owners) LEFT JOIN \(join.tableName) m ON m.\(join.sourceColumn) = o.Z_PK WHERE \(which)"
                    } else {
                        members =
                            "count(m.Z_PK) AS n FROM \(owners) LEFT JOIN \(relationship.destination.tableName) m ON m.\(relationship.columnName) = o.Z_PK WHERE \(which)"
                    }
                    var histogram: [Int: Int] = [:]
                    for row in try store.rows("SELECT n, count(*) FROM (SELECT \(members) GROUP BY o.Z_PK) GROUP BY n") {
                        if let fanout = row[0].flatMap({ Int($0) }), let count = row[1].flatMap({ Int($0) }) { histogram[fanout] = count }
                    }
                    shape.fanouts[relationship.qualifiedName] = Histogram(histogram)
                } else {
                    let row = try store.rows("SELECT count(o.\(relationship.columnName)), count(*) FROM \(owners) WHERE \(which)").first
                    let set = row?[0].flatMap { Int($0) } ?? 0
                    let all = row?[1].flatMap { Int($0) } ?? 0
                    if all > 0 { shape.filled[relationship.qualifiedName] = Double(set) / Double(all) }
                }
            }
        }
        return shape
    }

    /// Refuses a store whose entities (Z_PRIMARYKEY's names below 16000) or their parents are not the model's.
    static func checkEntities(
        numbers: [String: Int], parents: [String: Int], model: ObjectModel, path: String, modelName: String,
        option: String = "--shape-from"
    ) throws {
        let names = Set(model.entities.map(\.name))
        var differences: [String] = []
        let lacking = names.subtracting(numbers.keys).sorted()
        let extra = Set(numbers.keys).subtracting(names).sorted()
        if !lacking.isEmpty { differences.append("the store has no entity \(list(lacking))") }
        if !extra.isEmpty { differences.append("the model has no entity \(list(extra))") }
        for entity in model.entities where numbers[entity.name] != nil {
            let stored = parents[entity.name].flatMap { number in numbers.first { $0.value == number }?.key }
            if stored != entity.superentity?.name {
                differences.append(
                    "\(entity.name)'s parent is \(entity.superentity?.name ?? "none") in the model, \(stored ?? "none") in the store")
            }
        }
        guard differences.isEmpty else {
            throw BenchError.invalidInput(
                "\(option): \(path) is not a store of \(modelName): \(differences.joined(separator: "; ")); give a store this model version made"
            )
        }
    }

    /// Refuses a store whose entity and join tables lack a column the model's schema has, or have one it lacks.
    static func checkTables(_ store: ReadOnlyStore, model: ObjectModel, path: String, modelName: String) throws {
        var differences: [String] = []
        for statement in model.schemaSQL where statement.hasPrefix("CREATE TABLE ") {
            let table = String(statement.dropFirst("CREATE TABLE ".count).prefix { $0 != " " && $0 != "(" })
            guard !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table),
                let open = statement.firstIndex(of: "("), let close = statement.lastIndex(of: ")")
            else { continue }
            var body = String(statement[statement.index(after: open)..<close])
            if let key = body.range(of: ", PRIMARY KEY") { body = String(body[..<key.lowerBound]) }
            let expected = body.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }) }
            let found = try store.columns(of: table)
            if found.isEmpty {
                differences.append("the store has no table \(table)")
                continue
            }
            let missing = expected.filter { !found.contains($0) }
            let unknown = found.filter { !expected.contains($0) }
            if !missing.isEmpty { differences.append("\(table) has no column \(list(missing))") }
            if !unknown.isEmpty { differences.append("\(table)'s column \(list(unknown)) is not the model's") }
        }
        guard differences.isEmpty else {
            let shown = differences.prefix(6).joined(separator: "; ") + (differences.count > 6 ? "; and \(differences.count - 6) more" : "")
            throw BenchError.invalidInput(
                "\(store.option): \(path) is not a store of \(modelName): \(shown); give a store this model version made (bench schema prints the model's tables)"
            )
        }
    }

    private static func list(_ names: [String]) -> String {
        listed(names, "or")
    }
}
