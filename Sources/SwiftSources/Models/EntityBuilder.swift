#if SwiftSources
import Foundation
import ObjectGraph

/// Turns the `@Model` classes of one version into Core Data entities: attributes, composite attributes flattened,
/// relationships with their inverses (declared or inferred), uniqueness constraints and fetch indexes.
struct EntityBuilder {
    let declarations: Declarations
    let classes: [Declarations.ModelClass]
    private(set) var notes: [String] = []
    private(set) var renamingIdentifiers: [String: String] = [:]

    /// A relationship as declared, before inverses are paired.
    private struct Link {
        var entity: String
        var name: String
        var destination: String
        var isToMany: Bool
        var isOptional: Bool
        var deleteRule: DeleteRule
        var minCount: Int
        var maxCount: Int
        /// `inverse: \Destination.trips`: the property named.
        var declaredInverse: String?
        var inverse: String?
        var location: String
    }

    init(declarations: Declarations, classes: [Declarations.ModelClass]) {
        self.declarations = declarations
        self.classes = classes
    }

    private mutating func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }

    /// The entities, sorted by name.
    mutating func entities() -> [Entity] {
        var links: [Link] = []
        var entities: [Entity] = []
        var evaluatedDefaults: [String] = []
        var requiredArrays: [String] = []
        for model in classes.sorted(by: { $0.name < $1.name }) {
            for text in model.notes { note(text) }
            var properties: [Property] = []
            var uniques: [[String]] = []
            for property in model.properties {
                let qualified = "\(model.name).\(property.name)"
                let attributeNames = property.attributes.map(\.name)
                if attributeNames.contains("Transient") {
                    note("\(qualified): @Transient, not stored")
                    continue
                }
                for name in attributeNames where !["Attribute", "Relationship"].contains(name) {
                    note("\(qualified): @\(name) is not a SwiftData attribute; the property is read as stored")
                }
                let attribute = property.attributes.first { $0.name == "Attribute" }?.arguments ?? []
                let relationship = property.attributes.first { $0.name == "Relationship" }?.arguments
                let options = (attribute + (relationship ?? [])).filter { $0.label == nil }.map { Self.optionName($0.value) }
                if let original = (attribute + (relationship ?? [])).first(where: { $0.label == "originalName" })?.value {
                    renamingIdentifiers[qualified] = Self.stringLiteral(original) ?? original
                }
                guard let typeText = property.type ?? property.initializer.flatMap(StoredTypes.type(ofInitializer:)) else {
                    note("\(qualified): no type written and none follows from its initial value; skipped (write the type)")
                    continue
                }
                let (shape, optional) = TypeShape(typeText).unwrapped
                if let destination = destinationModel(shape, from: model) {
                    var link = Link(
                        entity: model.name, name: property.name, destination: destination.model.name, isToMany: destination.toMany,
                        isOptional: optional || destination.toMany, deleteRule: .nullify, minCount: 0, maxCount: 0, declaredInverse: nil,
                        inverse: nil, location: "\(model.location.split(separator: ":").first ?? ""):\(property.line)")
                    for argument in relationship ?? [] {
                        switch argument.label {
                        case "deleteRule":
                            link.deleteRule = Self.deleteRule(argument.value) ?? .nullify
                        case "minimumModelCount":
                            link.minCount = Int(argument.value) ?? 0
                        case "maximumModelCount":
                            link.maxCount = Int(argument.value) ?? 0
                        case "inverse":
                            link.declaredInverse = Self.keyPathProperty(argument.value)
                        default:
                            break
                        }
                    }
                    if !optional && destination.toMany {
                        // The model cache of a real SwiftData store marks `var requiredComponents: [Component] = []`
                        // not optional, yet SwiftData apps save empty arrays: read as optional (inferred), so that
                        // a save with none passes as it does on a device.
                        requiredArrays.append(qualified)
                    }
                    if options.contains("unique") {
                        note("\(qualified): .unique on a relationship is not a uniqueness constraint Core Data keeps; ignored")
                    }
                    links.append(link)
                    continue
                }
                if relationship != nil {
                    note("\(qualified): @Relationship on \(typeText), which is no @Model class of this version; read as an attribute")
                }
                if options.contains("ephemeral") {
                    properties.append(.transient(property.name, attributeType(shape, model: model, qualified: qualified).type))
                    note("\(qualified): .ephemeral, a transient attribute (not stored)")
                    continue
                }
                if options.contains("unique") { uniques.append([property.name]) }
                if options.contains("externalStorage") {
                    note(
                        "\(qualified): .externalStorage: Core Data keeps large values in files beside the store and a reference in the column (a BLOB either way); ObjectGraph keeps every value in the row"
                    )
                }
                if let transformer = (attribute.first { $0.label == nil && Self.optionName($0.value) == "transformable" }) {
                    properties.append(
                        .attribute(
                            property.name, .transformable, optional: optional,
                            valueTransformerName: Self.transformerName(transformer.value)))
                    continue
                }
                if options.contains("codable") {
                    properties.append(.attribute(property.name, .transformable, optional: optional))
                    note("\(qualified): .codable, its Codable encoding in one column (a Transformable BLOB here)")
                    continue
                }
                if case let .named(name) = shape, let value = structType(name, from: model) {
                    let elements = flatten(value, prefix: property.name, optional: optional, model: model, qualified: qualified, depth: 0)
                    properties += elements
                    note(
                        "\(qualified): Codable struct \(value.name) stored as a composite attribute, a column per element (\(elements.map(\.name).joined(separator: ", "))); the column names are inferred"
                    )
                    continue
                }
                let mapped = attributeType(shape, model: model, qualified: qualified)
                var defaultValue = StoredTypes.defaultValue(property.initializer, type: mapped.type)
                if defaultValue == nil, let raw = mapped.enumRaw, let initializer = property.initializer {
                    defaultValue = enumDefault(initializer, enumeration: raw, type: mapped.type)
                }
                if defaultValue == nil, mapped.enumRaw == nil, StoredTypes.isEvaluatedDefault(property.initializer) {
                    evaluatedDefaults.append(qualified)
                    switch mapped.type {
                    case .date: defaultValue = .date(Date(timeIntervalSinceReferenceDate: 0))
                    case .uuid: defaultValue = .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
                    case .binary, .transformable: defaultValue = .binary(Data())
                    case .uri: defaultValue = .url(URL(fileURLWithPath: "/"))
                    default: break
                    }
                }
                properties.append(.attribute(property.name, mapped.type, optional: optional, default: defaultValue))
            }
            var fetchIndexes: [FetchIndex] = []
            for group in model.indexes {
                // How SwiftData names a #Index's fetch index is not known (no store seen): named after its key paths.
                fetchIndexes.append(FetchIndex(group.joined(separator: "_"), group.map { FetchIndex.Element($0) }))
            }
            if !model.indexes.isEmpty {
                note(
                    "\(model.name): #Index gives fetch indexes \(fetchIndexes.map { "Z_\(model.name)_\($0.name)" }.joined(separator: ", ")) (their names are inferred)"
                )
            }
            entities.append(
                Entity(
                    model.name, parent: parent(of: model)?.name, properties, fetchIndexes: fetchIndexes,
                    uniquenessConstraints: uniques + model.uniques))
        }
        if !evaluatedDefaults.isEmpty {
            note(
                "defaults that are expressions (\(evaluatedDefaults.joined(separator: ", "))): SwiftData keeps the value the expression had when it made the schema (a real store's model cache holds a fixed UUID for `let id = UUID()`); here a Date default is 2001-01-01, a UUID all zeros, a URL '/', Data or a Codable value empty bytes"
            )
        }
        if !requiredArrays.isEmpty {
            note(
                "non-optional array relationships read as optional, as SwiftData saves them empty (inferred): \(requiredArrays.joined(separator: ", "))"
            )
        }
        pairInverses(&links)
        for link in links {
            guard let index = entities.firstIndex(where: { $0.name == link.entity }) else { continue }
            entities[index].properties.append(
                link.isToMany
                    ? .toMany(
                        link.name, link.destination, inverse: link.inverse, optional: link.isOptional, deleteRule: link.deleteRule,
                        ordered: false, minCount: link.minCount, maxCount: link.maxCount)
                    : .toOne(link.name, link.destination, inverse: link.inverse, optional: link.isOptional, deleteRule: link.deleteRule))
        }
        if links.contains(where: \.isToMany) {
            note("SwiftData keeps no order for array relationships: every to-many is unordered (no Z_FOK_ column)")
        }
        return entities
    }

    // MARK: Relationships

    /// Pairs each relationship with its inverse: the one `inverse:` names (on either side), else the one relationship
    /// back whose only candidate it is in turn (inferred, as a real store's model cache shows SwiftData does: there
    /// `Item.craftingRecipe` and `CraftingRecipe.producedItem` are paired, neither naming the other). A model related
    /// to itself pairs its two relationships to itself (`mentor` and `mentees`) the same way.
    private mutating func pairInverses(_ links: inout [Link]) {
        for index in links.indices {
            guard let declared = links[index].declaredInverse else { continue }
            guard let other = links.firstIndex(where: { isSide($0, named: declared, of: links[index]) }) else {
                note(
                    "\(links[index].entity).\(links[index].name): its inverse \(links[index].destination).\(declared) is no relationship back to \(links[index].entity); kept without an inverse"
                )
                continue
            }
            if let set = links[other].inverse, set != links[index].name {
                note("\(links[other].entity).\(links[other].name): two relationships name it as inverse; \(set) kept")
                continue
            }
            links[index].inverse = links[other].name
            links[other].inverse = links[index].name
        }
        // Inferred pairs: two unpaired relationships that are each the other's only candidate (a relationship of the
        // other model pointing back, sub-entities counting as their parents).
        func candidates(_ index: Int) -> [Int] {
            links.indices.filter { other in
                other != index && links[other].inverse == nil && links[other].declaredInverse == nil
                    && isKind(links[index].entity, of: links[other].destination)
                    && isKind(links[other].entity, of: links[index].destination)
            }
        }
        for index in links.indices where links[index].inverse == nil && links[index].declaredInverse == nil {
            let link = links[index]
            let mine = candidates(index)
            if mine.count == 1, candidates(mine[0]) == [index] {
                let other = mine[0]
                links[index].inverse = links[other].name
                links[other].inverse = link.name
                note(
                    "\(link.entity).\(link.name) ↔ \(links[other].entity).\(links[other].name): inverse inferred (each is the other's only relationship back)"
                )
            } else if mine.count > 1 {
                note(
                    "\(link.entity).\(link.name): \(mine.map { "\(links[$0].entity).\(links[$0].name)" }.joined(separator: ", ")) could each be its inverse and none is declared; kept without an inverse (give @Relationship(inverse:))"
                )
            }
        }
    }

    /// Whether `candidate` is relationship `name` of `link`'s destination (or of one of its ancestors) pointing back.
    private func isSide(_ candidate: Link, named name: String, of link: Link) -> Bool {
        candidate.name == name && isKind(link.destination, of: candidate.entity) && isKind(link.entity, of: candidate.destination)
    }

    /// Whether entity `name` is `ancestor` or inherits from it.
    private func isKind(_ name: String, of ancestor: String) -> Bool {
        var current = classes.first { $0.name == name }
        var seen = Set<String>()
        while let model = current, seen.insert(model.name).inserted {
            if model.name == ancestor { return true }
            current = parent(of: model)
        }
        return false
    }

    private func parent(of model: Declarations.ModelClass) -> Declarations.ModelClass? {
        guard let superclass = model.superclass else { return nil }
        return find(TypeShape.lastComponent(superclass))
    }

    private func find(_ name: String) -> Declarations.ModelClass? {
        let target = declarations.typeAliases[name].map(TypeShape.lastComponent) ?? name
        return classes.first { $0.name == target }
    }

    /// The model class a relationship property points to: `Trip`, `Trip?`, `[Trip]`, `Set<Trip>`.
    private func destinationModel(
        _ shape: TypeShape, from model: Declarations.ModelClass
    ) -> (model: Declarations.ModelClass, toMany: Bool)? {
        switch shape {
        case let .named(name):
            return find(TypeShape.lastComponent(name)).map { ($0, false) }
        case let .array(element), let .set(element):
            guard case let .named(name) = element.unwrapped.shape else { return nil }
            return find(TypeShape.lastComponent(name)).map { ($0, true) }
        default:
            return nil
        }
    }

    // MARK: Attributes

    /// The attribute type of a value property, and the enum whose raw value it stores, if any.
    private mutating func attributeType(
        _ shape: TypeShape, model: Declarations.ModelClass, qualified: String
    ) -> (type: AttributeType, enumRaw: Declarations.EnumType?) {
        switch shape {
        case let .named(name):
            let last = TypeShape.lastComponent(name)
            if let basic = StoredTypes.basic[last] { return (basic, nil) }
            if let alias = declarations.typeAliases[last], let basic = StoredTypes.basic[TypeShape.lastComponent(alias)] {
                return (basic, nil)
            }
            if let enumeration = enumType(name, from: model) {
                if let raw = enumeration.rawType, let type = StoredTypes.basic[raw], !enumeration.hasAssociatedValues {
                    note("\(qualified): enum \(enumeration.name) stored as its \(raw) raw value (\(type.xcodeName); inferred)")
                    return (type, enumeration)
                }
                note(
                    "\(qualified): enum \(enumeration.name)\(enumeration.hasAssociatedValues ? " with associated values" : " without raw values") stored as its Codable encoding in one column (Transformable; inferred)"
                )
                return (.transformable, nil)
            }
            note(
                "\(qualified): \(name) is not declared in the sources read; taken as a Codable value in one column (Transformable; inferred)"
            )
            return (.transformable, nil)
        case .array, .set, .dictionary:
            note("\(qualified): a collection of values is stored as a binary property list in one column (Transformable BLOB)")
            return (.transformable, nil)
        case .optional(let inner):
            return attributeType(inner, model: model, qualified: qualified)
        }
    }

    /// A Codable struct's stored properties as attributes `<prefix>_<element>`, nested structs flattened further.
    private mutating func flatten(
        _ value: Declarations.ValueType, prefix: String, optional: Bool, model: Declarations.ModelClass, qualified: String, depth: Int
    ) -> [Property] {
        var properties: [Property] = []
        for element in value.properties {
            let name = "\(prefix)_\(element.name)"
            guard let typeText = element.type ?? element.initializer.flatMap(StoredTypes.type(ofInitializer:)) else {
                note("\(qualified).\(element.name): no type written; left out of the composite")
                continue
            }
            let (shape, elementOptional) = TypeShape(typeText).unwrapped
            if depth < 4, case let .named(typeName) = shape, let nested = structType(typeName, from: model) {
                properties += flatten(
                    nested, prefix: name, optional: optional || elementOptional, model: model, qualified: qualified, depth: depth + 1)
                continue
            }
            let mapped = attributeType(shape, model: model, qualified: "\(qualified).\(element.name)")
            properties.append(
                .attribute(
                    name, mapped.type, optional: optional || elementOptional,
                    default: StoredTypes.defaultValue(element.initializer, type: mapped.type)))
        }
        return properties
    }

    /// A struct of the sources named `name`, nearest the model first (nested in it, then in its schema, then anywhere).
    private func structType(_ name: String, from model: Declarations.ModelClass) -> Declarations.ValueType? {
        nearest(name, from: model, in: declarations.structs, qualified: { ($0.owners + [$0.name]).joined(separator: ".") })
    }

    private func enumType(_ name: String, from model: Declarations.ModelClass) -> Declarations.EnumType? {
        nearest(name, from: model, in: declarations.enums, qualified: { ($0.owners + [$0.name]).joined(separator: ".") })
    }

    private func nearest<T>(_ name: String, from model: Declarations.ModelClass, in list: [T], qualified: (T) -> String) -> T? {
        let scopes = model.owners + [model.name]
        for depth in stride(from: scopes.count, through: 0, by: -1) {
            let candidate = (scopes.prefix(depth) + [name]).joined(separator: ".")
            if let found = list.first(where: { qualified($0) == candidate }) { return found }
        }
        let last = TypeShape.lastComponent(name)
        return list.first { qualified($0).split(separator: ".").last.map(String.init) == last }
    }

    /// The raw value of `.case` (or `Status.case`) of an enum with raw values: the value written, else the case name
    /// (String) or the previous integer plus one (integers), as Swift gives them.
    private func enumDefault(_ initializer: String, enumeration: Declarations.EnumType, type: AttributeType) -> Value? {
        let caseName = initializer.split(separator: ".").last.map(String.init) ?? initializer
        var next: Int64 = 0
        for (name, raw) in enumeration.cases {
            let value: Value?
            switch type {
            case .string: value = raw.flatMap { StoredTypes.defaultValue($0, type: .string) } ?? .string(name)
            case .int16, .int32, .int64:
                if let raw, let number = Int64(raw) { next = number }
                value = .int(next)
                next += 1
            default: value = nil
            }
            if name == caseName { return value }
        }
        return nil
    }

    // MARK: Argument text

    /// `unique` for `.unique`, `Schema.Attribute.Option.unique`; `transformable` for `.transformable(by: X.self)`.
    static func optionName(_ text: String) -> String {
        let head = text.split(separator: "(").first.map(String.init) ?? text
        return head.split(separator: ".").last.map(String.init) ?? head
    }

    static func deleteRule(_ text: String) -> DeleteRule? {
        switch optionName(text) {
        case "cascade": return .cascade
        case "nullify": return .nullify
        case "deny": return .deny
        case "noAction": return .noAction
        default: return nil
        }
    }

    /// `trips` for `\Destination.trips` or `\.trips`.
    static func keyPathProperty(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("\\") else { return nil }
        return trimmed.split(separator: ".").last.map { String($0).replacingOccurrences(of: "?", with: "") }
    }

    static func stringLiteral(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return String(text.dropFirst().dropLast())
    }

    /// The transformer `.transformable(by: ColorTransformer.self)` or `.transformable(by: "Name")` names.
    static func transformerName(_ text: String) -> String? {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        var inner = String(text[text.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
        if inner.hasPrefix("by:") { inner = String(inner.dropFirst(3)).trimmingCharacters(in: .whitespaces) }
        if let literal = stringLiteral(inner) { return literal }
        return inner.hasSuffix(".self") ? String(inner.dropLast(5)) : inner
    }
}
#endif
