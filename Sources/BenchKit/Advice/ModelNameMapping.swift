import Foundation
import ObjectGraph
import SQLDebugLog

/// The names a device's log uses for an Xcode model's entities and relationships, from ObjectGraph's compiled model:
/// each entity's table and columns, join tables by direction, to-manys stored as a key on the member table, and
/// the indexed columns of the store's schema. `bench log --model` reads a log with it.
package enum ModelNameMapping {
    /// The mapping of the model at `path` (.xcdatamodeld, .xcdatamodel or contents), or one line saying what is wrong.
    package static func load(path: String) throws -> NameMapping {
        let model: ObjectModel
        do {
            model = try ModelSource.load(path: path).makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("--model \(path): \(error)")
        }
        return mapping(model)
    }

    /// The mapping of a compiled model.
    package static func mapping(_ model: ObjectModel) -> NameMapping {
        var mapping = NameMapping(indexedColumns: indexedColumns(model.schemaSQL))
        for entity in model.entities {
            let table = entity.tableName
            if let parent = entity.superentity { mapping.parents[entity.name] = parent.name } else { mapping.entities[table] = entity.name }
            mapping.entityNumbers[entity.number] = entity.name
            for attribute in entity.attributes where attribute.entity === entity && !attribute.isTransient {
                mapping.properties[table, default: [:]][attribute.columnName] = attribute.name
            }
            for derived in entity.derivedAttributes where derived.entity === entity {
                mapping.properties[table, default: [:]][derived.columnName] = derived.name
            }
            for relationship in entity.relationships where relationship.entity === entity {
                add(relationship, to: &mapping)
            }
        }
        // Derived counts, on the relationship they count (declared on this entity or a parent).
        for entity in model.entities {
            for derived in entity.ownDerivedAttributes {
                guard case let .count(reference) = derived.kind, let counted = entity.relationship(reference.name) else { continue }
                let counters = mapping.relationships[counted.qualifiedName]?.countedBy ?? []
                mapping.relationships[counted.qualifiedName]?.countedBy = counters + ["\(entity.name).\(derived.name)"]
            }
        }
        return mapping
    }

    private static func add(_ relationship: RelationshipDescription, to mapping: inout NameMapping) {
        let name = relationship.qualifiedName
        mapping.relationships[name] = ModelRelationship(
            entity: relationship.entity.name, name: relationship.name, destination: relationship.destination.name,
            isToMany: relationship.isToMany, inverse: relationship.inverse?.name)
        switch relationship.kind {
        case .manyToOne, .oneToOne, .oneToNil:
            mapping.properties[relationship.entity.tableName, default: [:]][relationship.columnName] = relationship.name
        case .oneToMany, .manyToNil:
            let member = TableColumn(table: relationship.destination.tableName, column: relationship.columnName)
            mapping.toManyByForeignKey[member] = name
        case .manyToMany:
            guard let join = relationship.joinTable else { return }
            mapping.joinTableDirections[TableColumn(table: join.tableName, column: join.sourceColumn)] = name
            if join.isPrimarySide || mapping.joinTables[join.tableName] == nil { mapping.joinTables[join.tableName] = name }
        }
    }

    /// The first column of every index the schema creates, and of every table's primary key, per table.
    static func indexedColumns(_ schema: [String]) -> [String: Set<String>] {
        var indexed: [String: Set<String>] = [:]
        for statement in schema {
            let words = statement.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "," }).map(String.init)
            if let on = words.firstIndex(of: "ON"), words.contains("INDEX"), on + 2 < words.count {
                indexed[words[on + 1], default: []].insert(words[on + 2])
            } else if words.first == "CREATE", words.count > 2, words[1] == "TABLE",
                let key = words.firstIndex(of: "KEY"), key + 1 < words.count, words[key - 1] == "PRIMARY", key >= 2,
                words[key - 2] != "INTEGER"
            {
                indexed[words[2], default: []].insert(words[key + 1])
            }
        }
        return indexed
    }
}
