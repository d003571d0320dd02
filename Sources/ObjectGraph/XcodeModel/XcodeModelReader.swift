import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses a model's `contents` XML with Foundation's XMLParser into entity declarations.
///
/// Xcode's conventions (read from files of every Xcode era, 2011 to 2025): booleans are `YES`, an absent key means
/// NO (so an absent `optional` means required); an absent `deletionRule` means Nullify; an attribute without
/// `attributeType` is Xcode's "Undefined" (legal only when transient); defaults may not fit their type (`NO` for an
/// Integer 32) and are read leniently; parents and destinations may be named before they are declared.
final class XcodeModelReader: NSObject, XMLParserDelegate {
    struct Parsed {
        var entities: [Entity]
        var notes: [String]
        var problems: [XcodeModel.Problem]
        var cloudKitEntities: [String]
        var renamingIdentifiers: [String: String]
        var fetchRequests: [FetchRequestTemplate]
        var configurations: [String: [String]] = [:]
    }

    private struct RawEntity {
        var name: String
        var parent: String?
        var isAbstract: Bool
        var renamingIdentifier: String?
        var attributes: [[String: String]] = []
        var relationships: [[String: String]] = []
        var fetchIndexes: [(name: String, elements: [[String: String]])] = []
        var compoundIndexes: [[String]] = []
        var uniquenessConstraints: [[String]] = []
    }

    private let path: String
    private var entities: [RawEntity] = []
    private var notes: [String] = []
    /// `notes` as a set: a model with a note on every entity checked each against all the others.
    private var noted: Set<String> = []
    private var problems: [XcodeModel.Problem] = []
    /// `usedWithCloudKit="YES"` on `<model>` (Xcode's Default configuration, every entity), and the members of the
    /// named configurations marked so.
    private var modelUsesCloudKit = false
    private var sawConfiguration = false
    private var cloudKitMembers: [String] = []
    private var inCloudKitConfiguration = false
    /// The members of each named configuration (`<configuration name="Local">`), in the order read.
    private var configurations: [String: [String]] = [:]
    private var configuration = ""
    private var stack: [String] = []
    private var skipDepth = 0
    private var sawModel = false
    private var failure: ObjectGraphError?
    private var current: [String] = []
    private var fetchRequests: [FetchRequestTemplate] = []
    /// The fetched property being read (`Entity.name`), whose `<fetchRequest>` is its request.
    private var fetchedProperty: String?
    private weak var parser: XMLParser?

    /// Elements whose content does not shape the store: read past without a note.
    private static let ignored: Set<String> = [
        "elements", "element", "userInfo", "entry", "fetchedProperty", "fetchRequest",
        "configuration", "memberEntity",
    ]

    init(path: String) { self.path = path }

    func read(_ data: Data) throws -> Parsed {
        let parser = XMLParser(data: Self.withoutComments(data))
        parser.delegate = self
        self.parser = parser
        let ok = parser.parse()
        if let failure { throw failure }
        guard ok else {
            let error = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "malformed XML"
            throw ObjectGraphError.xcodeModel(
                path: path,
                reason:
                    "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber) (\(error)); is this an Xcode model's contents file?"
            )
        }
        if let open = stack.last {
            throw ObjectGraphError.xcodeModel(path: path, reason: "the file ends inside <\(open)>; it is cut off or not well-formed XML")
        }
        guard sawModel else {
            throw ObjectGraphError.xcodeModel(
                path: path,
                reason:
                    "no <model> element; an Xcode model's contents file starts with <model type=\"com.apple.IDECoreDataModeler.DataModel\" ...>"
            )
        }
        // An app with named configurations loads its stores by them (a Cloud store and a Local one): the Default
        // configuration's flag then holds for no store.
        let names = Set(entities.map(\.name))
        let synced = sawConfiguration ? cloudKitMembers.filter(names.contains) : modelUsesCloudKit ? entities.map(\.name) : []
        var renaming: [String: String] = [:]
        for raw in entities {
            if let identifier = raw.renamingIdentifier { renaming[raw.name] = identifier }
            for property in raw.attributes + raw.relationships {
                if let name = property["name"], let identifier = property["elementID"], !identifier.isEmpty {
                    renaming["\(raw.name).\(name)"] = identifier
                }
            }
        }
        return Parsed(
            entities: try declarations(), notes: notes, problems: problems, cloudKitEntities: Array(Set(synced)).sorted(),
            renamingIdentifiers: renaming,
            fetchRequests: fetchRequests, configurations: configurations)
    }

    /// `data` with each comment's text removed but its line breaks (so that lines keep their numbers): libxml2 refuses a
    /// comment over 10 MB as malformed XML ("Comment too big"), though the model is valid, and a comment holds nothing of
    /// the model. CDATA sections are copied as they are; an unterminated comment is left for the parser to report.
    static func withoutComments(_ data: Data) -> Data {
        let open = Array("<!--".utf8)
        guard data.range(of: Data(open)) != nil else { return data }
        let close = Array("-->".utf8)
        let cdata = (open: Array("<![CDATA[".utf8), close: Array("]]>".utf8))
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            let bytes = raw.bindMemory(to: UInt8.self)
            func starts(_ pattern: [UInt8], at index: Int) -> Bool {
                index + pattern.count <= bytes.count && pattern.indices.allSatisfy { bytes[index + $0] == pattern[$0] }
            }
            func end(of pattern: [UInt8], from start: Int) -> Int? {
                var index = start
                while index + pattern.count <= bytes.count {
                    if bytes[index] == pattern[0] && starts(pattern, at: index) { return index }
                    index += 1
                }
                return nil
            }
            var result = Data()
            result.reserveCapacity(bytes.count)
            var copied = 0
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if starts(cdata.open, at: index), let stop = end(of: cdata.close, from: index + cdata.open.count) {
                    index = stop + cdata.close.count
                } else if starts(open, at: index), let stop = end(of: close, from: index + open.count) {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
                    let lines = bytes[index..<stop].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                    result.append(contentsOf: Array("<!--".utf8) + Array(repeating: UInt8(ascii: "\n"), count: lines) + close)
                    index = stop + close.count
                    copied = index
                } else {
                    index += 1
                }
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
            return result
        }
    }

    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = .xcodeModel(path: path, reason: "line \(parser?.lineNumber ?? 0): \(reason)")
        parser?.abortParsing()
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        defer { stack.append(name) }
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        let parent = stack.last
        switch (parent, name) {
        case (nil, "model"):
            sawModel = true
            modelUsesCloudKit = attributes["usedWithCloudKit"].isYes
        case ("configuration", "memberEntity"):
            if inCloudKitConfiguration, let member = attributes["name"] { cloudKitMembers.append(member) }
            if let member = attributes["name"] { configurations[configuration, default: []].append(member) }
            skipDepth = 1
        case (nil, _):
            fail("the root element is <\(name)>, not <model>; is this an Xcode model's contents file?")
        case ("model", "entity"):
            guard let entityName = attributes["name"], !entityName.isEmpty else {
                return fail("an <entity> has no name")
            }
            entities.append(
                RawEntity(
                    name: entityName, parent: attributes["parentEntity"], isAbstract: attributes["isAbstract"].isYes,
                    renamingIdentifier: attributes["elementID"].flatMap { $0.isEmpty ? nil : $0 }))
            noteUnknownAttributes(of: name, attributes, owner: entityName)
        case ("model", "fetchRequest"), ("fetchedProperty", "fetchRequest"):
            if let entity = attributes["entity"], let predicate = attributes["predicateString"], !predicate.isEmpty {
                fetchRequests.append(
                    FetchRequestTemplate(
                        name: parent == "model" ? attributes["name"] ?? "" : fetchedProperty ?? "", entity: entity, predicate: predicate,
                        fetchedProperty: parent == "model" ? nil : fetchedProperty))
            }
            skipDepth = 1
        case ("entity", "fetchedProperty"):
            fetchedProperty = attributes["name"].map { "\(entities[entities.count - 1].name).\($0)" }
        case ("entity", "attribute"):
            entities[entities.count - 1].attributes.append(attributes)
            noteUnknownAttributes(of: name, attributes, owner: "\(entities[entities.count - 1].name).\(attributes["name"] ?? "?")")
        case ("entity", "relationship"):
            entities[entities.count - 1].relationships.append(attributes)
            noteUnknownAttributes(of: name, attributes, owner: "\(entities[entities.count - 1].name).\(attributes["name"] ?? "?")")
        case ("entity", "fetchIndex"):
            entities[entities.count - 1].fetchIndexes.append(
                (attributes["name"] ?? "index\(entities[entities.count - 1].fetchIndexes.count)", []))
        case ("fetchIndex", "fetchIndexElement"):
            let last = entities.count - 1
            entities[last].fetchIndexes[entities[last].fetchIndexes.count - 1].elements.append(attributes)
        case ("model", "configuration"):
            sawConfiguration = true
            inCloudKitConfiguration = attributes["usedWithCloudKit"].isYes
            configuration = attributes["name"] ?? ""
            configurations[configuration, default: []] += []
        case ("entity", "compoundIndexes"), ("entity", "uniquenessConstraints"):
            break
        case ("compoundIndexes", "compoundIndex"):
            entities[entities.count - 1].compoundIndexes.append([])
        case ("compoundIndex", "index"):
            let last = entities.count - 1
            if let value = attributes["value"] { entities[last].compoundIndexes[entities[last].compoundIndexes.count - 1].append(value) }
        case ("uniquenessConstraints", "uniquenessConstraint"):
            entities[entities.count - 1].uniquenessConstraints.append([])
        case ("uniquenessConstraint", "constraint"):
            let last = entities.count - 1
            if let value = attributes["value"] {
                entities[last].uniquenessConstraints[entities[last].uniquenessConstraints.count - 1].append(value)
            }
        default:
            if !Self.ignored.contains(name) {
                let place = parent.map { " inside <\($0)>" } ?? ""
                let owner = entities.last.map { " (entity \($0.name))" } ?? ""
                note("ignored the unknown element <\(name)>\(place)\(owner) and everything in it")
            }
            skipDepth = 1
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        // FoundationXML on Linux recovers from a mismatched end tag instead of failing; refuse it here.
        guard stack.last == name else {
            return fail(
                "</\(name)> closes <\(stack.last ?? "nothing")>; the file is not well-formed XML (a merge conflict or a cut-off copy?)")
        }
        stack.removeLast()
        if skipDepth > 0 { skipDepth -= 1 }
        if name == "fetchedProperty" && skipDepth == 0 { fetchedProperty = nil }
    }

    /// The XML attributes Xcode writes on `<entity>`, `<attribute>` and `<relationship>` (its model editor's, with
    /// those of older and newer Xcode versions); any other is a typo or a hand edit the reader ignores.
    static let knownAttributes: [String: Set<String>] = [
        "entity": [
            "name", "representedClassName", "parentEntity", "isAbstract", "syncable", "codeGenerationType", "elementID",
            "versionHashModifier", "renamingIdentifier", "userInfo",
        ],
        "attribute": [
            "name", "optional", "attributeType", "defaultValueString", "usesScalarValueType", "indexed", "transient", "syncable",
            "customClassName", "valueTransformerName", "allowsExternalBinaryDataStorage", "allowsCloudEncryption",
            "preserveAfterDeletion", "spotlightIndexingEnabled", "storedInTruthFile", "minValueString", "maxValueString",
            "regularExpressionString", "derived", "derivationExpression", "elementID", "versionHashModifier", "composite",
            "defaultDateTimeInterval", "renamingIdentifier", "userInfo",
        ],
        "relationship": [
            "name", "optional", "toMany", "ordered", "deletionRule", "destinationEntity", "inverseName", "inverseEntity",
            "minCount", "maxCount", "transient", "syncable", "indexed", "elementID", "versionHashModifier",
            "spotlightIndexingEnabled", "storedInTruthFile", "preserveAfterDeletion", "renamingIdentifier", "userInfo",
        ],
    ]

    /// A note for each XML attribute of `element` that Xcode does not write (`optinal="YES"`): the reader ignores it.
    private func noteUnknownAttributes(of element: String, _ attributes: [String: String], owner: String) {
        guard let known = Self.knownAttributes[element] else { return }
        for key in attributes.keys.sorted() where !known.contains(key) {
            note(
                "\(owner): ignored the XML attribute \(key)=\"\(attributes[key] ?? "")\" on <\(element)>, which Xcode does not write; check its spelling"
            )
        }
    }

    private func note(_ text: String) {
        if noted.insert(text).inserted { notes.append(text) }
    }

    /// A note for what is wrong in the file itself, kept also as a problem of `kind` about `subject`.
    private func note(_ text: String, problem kind: XcodeModel.Problem.Kind, subject: String) {
        guard noted.insert(text).inserted else { return }
        notes.append(text)
        problems.append(XcodeModel.Problem(kind: kind, subject: subject, note: text))
    }

    // MARK: Declarations

    private func declarations() throws -> [Entity] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return entities.map { raw in
            var properties: [Property] = []
            for attributes in raw.attributes {
                if let property = attribute(attributes, entity: raw.name) { properties.append(property) }
            }
            for attributes in raw.relationships {
                if let property = relationship(attributes, entity: raw, entities: byName) { properties.append(property) }
            }
            let names = Set(properties.map(\.name))
            var indexes: [FetchIndex] = []
            for (index, declared) in raw.fetchIndexes.enumerated() {
                var elements: [FetchIndex.Element] = []
                for element in declared.elements {
                    guard let property = element["property"] else {
                        note(
                            "\(raw.name): fetch index '\(declared.name)' has an expression element; ObjectGraph indexes properties only, so the element is skipped"
                        )
                        continue
                    }
                    if element["type"] == "RTree" {
                        note(
                            "\(raw.name): fetch index '\(declared.name)' on \(property) is an R-tree index; ObjectGraph makes binary indexes only, so it is skipped"
                        )
                        elements = []
                        break
                    }
                    elements.append(FetchIndex.Element(property, ascending: element["order"] != "descending"))
                }
                if !elements.isEmpty { indexes.append(FetchIndex(declared.name.isEmpty ? "index\(index)" : declared.name, elements)) }
            }
            for (index, properties) in raw.compoundIndexes.enumerated() where !properties.isEmpty {
                // Core Data names an old compound index `compoundIndex<N>` (Photos' Z_Asset_compoundIndex2; N inferred 0-based).
                indexes.append(FetchIndex("compoundIndex\(index)", properties.map { FetchIndex.Element($0) }))
            }
            // Only the names an index gives are looked up the hierarchy (each walk as deep as the entity): every entity's
            // inherited names made into a set were O(d²) over a chain of depth d, 27% of `bench schema` at depth 2,000.
            let toManyOwn = Set(raw.relationships.filter { $0["toMany"].isYes }.compactMap { $0["name"] })
            indexes = indexes.filter { index in
                for element in index.elements {
                    let property = element.property
                    let found =
                        names.contains(property)
                        ? (declared: true, toMany: toManyOwn.contains(property)) : Self.inherited(property, raw, byName)
                    if !found.declared {
                        note(
                            "\(raw.name): an index names '\(property)', which is not a stored property; the index is skipped",
                            problem: .indexOnMissingProperty, subject: raw.name)
                        return false
                    }
                    // Xcode 9 turned the old Indexed box of to-many relationships into fetch indexes (WordPress's
                    // Account.byBlogsIndex): a to-many has no column in this table to index.
                    if found.toMany {
                        note(
                            "\(raw.name): fetch index '\(index.name)' names to-many relationship '\(property)', which has no column of its own to index (its keys are kept on the other side or in a join table); the index is skipped"
                        )
                        return false
                    }
                }
                return true
            }
            return Entity(
                raw.name, parent: raw.parent, abstract: raw.isAbstract, properties, fetchIndexes: indexes,
                uniquenessConstraints: raw.uniquenessConstraints.filter { !$0.isEmpty })
        }
    }

    /// Whether an ancestor of `entity` declares an attribute or relationship `name`, and whether it is a to-many.
    private static func inherited(_ name: String, _ entity: RawEntity, _ byName: [String: RawEntity]) -> (declared: Bool, toMany: Bool) {
        var current = entity.parent.flatMap { byName[$0] }
        var seen: Set<String> = [entity.name]
        while let raw = current, seen.insert(raw.name).inserted {
            if raw.attributes.contains(where: { $0["name"] == name }) { return (true, false) }
            if let relationship = raw.relationships.first(where: { $0["name"] == name }) { return (true, relationship["toMany"].isYes) }
            current = raw.parent.flatMap { byName[$0] }
        }
        return (false, false)
    }

    private func attribute(_ attributes: [String: String], entity: String) -> Property? {
        guard let name = attributes["name"], !name.isEmpty else {
            note("\(entity): an attribute without a name is skipped", problem: .unnamedProperty, subject: entity)
            return nil
        }
        let qualified = "\(entity).\(name)"
        let transient = attributes["transient"].isYes
        let typeName = attributes["attributeType"] ?? "Undefined"
        guard let type = AttributeType(xcodeName: typeName) else {
            note(
                "\(qualified): attribute type '\(typeName)' is not one ObjectGraph stores (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable); skipped",
                problem: .unknownAttributeType, subject: qualified)
            return nil
        }
        if transient { return .transient(name, type, default: Self.defaultValue(attributes, type: type)) }
        if type == .undefined {
            note(
                "\(qualified): an Undefined attribute must be transient, as Xcode requires; skipped", problem: .undefinedNotTransient,
                subject: qualified)
            return nil
        }
        if attributes["derived"].isYes {
            let derivation = attributes["derivationExpression"] ?? ""
            do {
                _ = try DerivationParser.parse(derivation)
            } catch let error as DerivationParser.Unsupported {
                note("\(qualified): \(error.reason); skipped", problem: .unsupportedDerivation, subject: qualified)
                return nil
            } catch {
                return nil
            }
            return .derived(name, derivation, type: type)
        }
        var validation = AttributeValidation()
        if type == .date {
            validation.minimum = attributes["minDateTimeInterval"].flatMap(Double.init)
            validation.maximum = attributes["maxDateTimeInterval"].flatMap(Double.init)
        } else {
            validation.minimum = attributes["minValueString"].flatMap(Double.init)
            validation.maximum = attributes["maxValueString"].flatMap(Double.init)
        }
        if let pattern = attributes["regularExpressionString"], !pattern.isEmpty {
            if (try? NSRegularExpressionCache.expression(pattern)) != nil {
                validation.pattern = pattern
            } else {
                note("\(qualified): the regular expression '\(pattern)' does not compile here (ICU); it is not checked")
            }
        }
        let defaultValue = Self.defaultValue(attributes, type: type)
        if defaultValue == nil, let text = attributes["defaultValueString"], !text.isEmpty, type != .binary, type != .transformable {
            note("\(qualified): default value '\(text)' does not fit \(type.xcodeName); no default")
        }
        return .attribute(
            name, type, optional: attributes["optional"].isYes, default: defaultValue,
            indexed: attributes["indexed"].isYes, validation: validation,
            valueTransformerName: attributes["valueTransformerName"])
    }

    /// A default read leniently, as Xcode writes them: `NO`/`YES` in a number, `0.0` in an integer.
    static func defaultValue(_ attributes: [String: String], type: AttributeType) -> Value? {
        if type == .date {
            return attributes["defaultDateTimeInterval"].flatMap(Double.init).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        }
        guard let text = attributes["defaultValueString"] else { return nil }
        let upper = text.uppercased()
        switch type {
        case .int16, .int32, .int64:
            if upper == "YES" || upper == "TRUE" { return .int(1) }
            if upper == "NO" || upper == "FALSE" { return .int(0) }
            if let value = Int64(text) { return .int(value) }
            if let value = Double(text), value == value.rounded(), abs(value) < 9e18 { return .int(Int64(value)) }
            return nil
        case .double, .float:
            if upper == "YES" { return .double(1) }
            if upper == "NO" { return .double(0) }
            return Double(text).map(Value.double)
        case .decimal: return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal)
        case .bool:
            if ["YES", "TRUE", "1"].contains(upper) { return .bool(true) }
            if ["NO", "FALSE", "0"].contains(upper) { return .bool(false) }
            // A number left from a former numeric type (kiwix's isMissing: "0.0"): zero is NO, as NSString's boolValue
            // and NSNumber's read it.
            if let number = Double(text), number.isFinite { return .bool(number != 0) }
            return nil
        case .string: return .string(text)
        case .uuid: return UUID(uuidString: text).map(Value.uuid)
        case .uri: return URL(string: text).map(Value.url)
        case .date, .binary, .transformable, .undefined: return nil
        }
    }

    private func relationship(_ attributes: [String: String], entity: RawEntity, entities: [String: RawEntity]) -> Property? {
        guard let name = attributes["name"], !name.isEmpty else {
            note("\(entity.name): a relationship without a name is skipped", problem: .unnamedProperty, subject: entity.name)
            return nil
        }
        let qualified = "\(entity.name).\(name)"
        if attributes["transient"].isYes {
            note("\(qualified): a transient relationship is not stored; skipped")
            return nil
        }
        guard let destination = attributes["destinationEntity"], entities[destination] != nil else {
            note(
                attributes["destinationEntity"].map { $0.isEmpty ? nil : $0 } == nil
                    ? "\(qualified): it has no destination entity; skipped"
                    : "\(qualified): its destination '\(attributes["destinationEntity"] ?? "")' is not an entity of the model; skipped",
                problem: .missingDestination, subject: qualified)
            return nil
        }
        var inverse = attributes["inverseName"].flatMap { $0.isEmpty ? nil : $0 }
        if let inverseName = inverse {
            let owner = attributes["inverseEntity"] ?? destination
            let declared =
                Self.relationshipAttributes(inverseName, on: owner, entities)
                ?? Self.relationshipAttributes(inverseName, on: destination, entities)
            if declared == nil || declared?["inverseName"] != name || declared?["transient"].isYes == true {
                note("\(qualified): its inverse \(owner).\(inverseName) does not point back to it; kept without an inverse")
                inverse = nil
            } else if let declared, declared["destinationEntity"].flatMap({ entities[$0] }) == nil {
                note("\(qualified): its inverse \(owner).\(inverseName) was skipped (no destination entity); kept without an inverse")
                inverse = nil
            }
        }
        let rule: DeleteRule
        switch attributes["deletionRule"] ?? "Nullify" {
        case "Cascade": rule = .cascade
        case "Deny": rule = .deny
        case "No Action": rule = .noAction
        case "Nullify": rule = .nullify
        case let other:
            note("\(entity.name).\(name): delete rule '\(other)' is not one of Nullify, Cascade, Deny, No Action; read as Nullify")
            rule = .nullify
        }
        let optional = attributes["optional"].isYes
        if attributes["toMany"].isYes {
            return .toMany(
                name, destination, inverse: inverse, optional: optional, deleteRule: rule, ordered: attributes["ordered"].isYes,
                minCount: attributes["minCount"].flatMap(Int.init) ?? 0, maxCount: attributes["maxCount"].flatMap(Int.init) ?? 0)
        }
        return .toOne(name, destination, inverse: inverse, optional: optional, deleteRule: rule)
    }

    /// The attributes of relationship `name` declared on `entity` or one of its ancestors.
    private static func relationshipAttributes(_ name: String, on entity: String, _ entities: [String: RawEntity]) -> [String: String]? {
        var current = entities[entity]
        var seen = Set<String>()
        while let raw = current, seen.insert(raw.name).inserted {
            if let found = raw.relationships.first(where: { $0["name"] == name }) { return found }
            current = raw.parent.flatMap { entities[$0] }
        }
        return nil
    }
}

extension Optional where Wrapped == String {
    /// Xcode's booleans: `YES` is true; anything else, or absence, false.
    var isYes: Bool { self?.uppercased() == "YES" }
}
