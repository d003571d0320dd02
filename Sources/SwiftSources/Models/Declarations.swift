#if SwiftSources
import Foundation
import SwiftSyntax

/// The declarations of Swift sources that decide a SwiftData model: `@Model` classes, the structs and enums their
/// properties may store, type aliases, `VersionedSchema`s and `SchemaMigrationPlan`s, read from the syntax tree.
struct Declarations {
    /// A stored or computed property of a `@Model` class, as written.
    struct Property {
        var name: String
        /// The declared type, or nil when only an initial value gives it.
        var type: String?
        var initializer: String?
        var isLet: Bool
        /// `@Attribute(...)`, `@Relationship(...)`: each attribute's name and its arguments' text, labelled or not.
        var attributes: [(name: String, arguments: [(label: String?, value: String)])]
        var line: Int
    }

    struct ModelClass {
        var name: String
        /// The types it is nested in (`SchemaV1` for `SchemaV1.Trip`), outermost first.
        var owners: [String]
        var superclass: String?
        var properties: [Property] = []
        /// `#Unique<Trip>([\.name, \.date], [\.code])`: each group of key paths.
        var uniques: [[String]] = []
        /// `#Index<Trip>([\.name], [\.start, \.end])`.
        var indexes: [[String]] = []
        var location: String
        var notes: [String] = []

        var qualifiedName: String { (owners + [name]).joined(separator: ".") }
    }

    /// A struct's stored properties (a Codable struct is stored flattened, as a composite attribute).
    struct ValueType {
        var name: String
        var owners: [String]
        var conformances: [String]
        var properties: [(name: String, type: String?, initializer: String?)]
    }

    struct EnumType {
        var name: String
        var owners: [String]
        /// The first inherited type when it is a raw type (`String`, `Int`).
        var rawType: String?
        var conformances: [String]
        var hasAssociatedValues: Bool
        /// The cases in order, with their raw value as written (`= 2`, `= "x"`), if any.
        var cases: [(name: String, rawValue: String?)] = []
    }

    struct VersionedSchema {
        var name: String
        var version: [Int]?
        /// `Trip`, `SchemaV1.Trip`: the types `models` lists.
        var models: [String]
        var location: String
    }

    struct MigrationPlan {
        struct Stage {
            var kind: String
            var from: String
            var to: String
        }

        var name: String
        var schemas: [String]
        var stages: [Stage]
        var location: String
    }

    var models: [ModelClass] = []
    var structs: [ValueType] = []
    var enums: [EnumType] = []
    /// Type aliases, keyed by name: `typealias Trip = SchemaV2.Trip`.
    var typeAliases: [String: String] = [:]
    var schemas: [VersionedSchema] = []
    var plans: [MigrationPlan] = []
    /// `ModelConfiguration(..., cloudKitDatabase: ...)` arguments seen, with where.
    var cloudKitDatabases: [(value: String, location: String)] = []

    /// Reads every file's declarations.
    init(_ files: [SourceFile], root: String) {
        for file in files {
            let visitor = DeclarationVisitor(file: file, root: root)
            visitor.walk(file.tree)
            models += visitor.found.models
            structs += visitor.found.structs
            enums += visitor.found.enums
            typeAliases.merge(visitor.found.typeAliases) { first, _ in first }
            schemas += visitor.found.schemas
            plans += visitor.found.plans
            cloudKitDatabases += visitor.found.cloudKitDatabases
        }
    }

    init() {}

    /// The names of the types listed as `X.self` in `text`, in order (`[Trip.self, SchemaV1.Tag.self]`).
    static func selfTypes(_ text: String) -> [String] {
        // A constant pattern: it cannot fail to compile at run time.
        // swift-format-ignore: NeverUseForceTry
        let pattern = try! NSRegularExpression(pattern: "([A-Za-z_][A-Za-z0-9_.]*)\\.self\\b")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }
}

/// Walks one file, keeping the stack of types it is inside.
private final class DeclarationVisitor: SyntaxVisitor {
    let file: SourceFile
    let root: String
    var found = Declarations()
    private var owners: [String] = []

    init(file: SourceFile, root: String) {
        self.file = file
        self.root = root
        super.init(viewMode: .sourceAccurate)
    }

    private func conformances(_ clause: InheritanceClauseSyntax?) -> [String] {
        clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    }

    private func hasAttribute(_ attributes: AttributeListSyntax, _ name: String) -> Bool {
        attributes.contains { element in
            if case let .attribute(attribute) = element {
                return TypeShape.lastComponent(attribute.attributeName.trimmedDescription) == name
            }
            return false
        }
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if hasAttribute(node.attributes, "Model") { found.models.append(model(node)) }
        owners.append(node.name.text)
        return .visitChildren
    }

    override func visitPost(_ node: ClassDeclSyntax) { owners.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        var value = Declarations.ValueType(
            name: node.name.text, owners: owners, conformances: conformances(node.inheritanceClause), properties: [])
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !isStatic(variable.modifiers) else { continue }
            for binding in variable.bindings where isStored(binding) {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                value.properties.append(
                    (name, binding.typeAnnotation?.type.trimmedDescription, binding.initializer?.value.trimmedDescription))
            }
        }
        found.structs.append(value)
        if conformances(node.inheritanceClause).contains(where: { TypeShape.lastComponent($0) == "VersionedSchema" }) {
            schema(node.name.text, node.memberBlock, node)
        }
        owners.append(node.name.text)
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) { owners.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let inherited = conformances(node.inheritanceClause)
        let rawTypes: Set<String> = [
            "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
            "Character", "Bool",
        ]
        var associated = false
        var cases: [(name: String, rawValue: String?)] = []
        for member in node.memberBlock.members {
            guard let declared = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in declared.elements {
                if element.parameterClause != nil { associated = true }
                cases.append((element.name.text, element.rawValue?.value.trimmedDescription))
            }
        }
        found.enums.append(
            Declarations.EnumType(
                name: node.name.text, owners: owners, rawType: inherited.first.flatMap { rawTypes.contains($0) ? $0 : nil },
                conformances: inherited, hasAssociatedValues: associated, cases: cases))
        if inherited.contains(where: { TypeShape.lastComponent($0) == "VersionedSchema" }) {
            schema(node.name.text, node.memberBlock, node)
        }
        if inherited.contains(where: { TypeShape.lastComponent($0) == "SchemaMigrationPlan" }) {
            plan(node.name.text, node.memberBlock, node)
        }
        owners.append(node.name.text)
        return .visitChildren
    }

    override func visitPost(_ node: EnumDeclSyntax) { owners.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.extendedType.trimmedDescription
        let inherited = conformances(node.inheritanceClause)
        if inherited.contains(where: { TypeShape.lastComponent($0) == "VersionedSchema" }) { schema(name, node.memberBlock, node) }
        if inherited.contains(where: { TypeShape.lastComponent($0) == "SchemaMigrationPlan" }) { plan(name, node.memberBlock, node) }
        // Members of an extension are nested in the extended type: `extension SchemaV1 { @Model class Trip {} }`.
        owners.append(contentsOf: name.split(separator: ".").map(String.init))
        return .visitChildren
    }

    override func visitPost(_ node: ExtensionDeclSyntax) {
        owners.removeLast(node.extendedType.trimmedDescription.split(separator: ".").count)
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = (owners + [node.name.text]).joined(separator: ".")
        if found.typeAliases[name] == nil { found.typeAliases[name] = node.initializer.value.trimmedDescription }
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if TypeShape.lastComponent(node.calledExpression.trimmedDescription) == "ModelConfiguration" {
            for argument in node.arguments where argument.label?.text == "cloudKitDatabase" {
                found.cloudKitDatabases.append((argument.expression.trimmedDescription, file.location(of: node, root: root)))
            }
        }
        return .visitChildren
    }

    private func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { ["static", "class"].contains($0.name.text) }
    }

    /// A binding with storage: no accessor block, or one with only `willSet`/`didSet`.
    private func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let block = binding.accessorBlock else { return true }
        switch block.accessors {
        case .getter: return false
        case let .accessors(list):
            return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    private func model(_ node: ClassDeclSyntax) -> Declarations.ModelClass {
        let inherited = conformances(node.inheritanceClause)
        var model = Declarations.ModelClass(
            name: node.name.text, owners: owners, superclass: inherited.first, location: file.location(of: node, root: root))
        for member in node.memberBlock.members { add(member.decl, to: &model) }
        return model
    }

    private func add(_ decl: DeclSyntax, to model: inout Declarations.ModelClass) {
        if let config = decl.as(IfConfigDeclSyntax.self) {
            // Without the build settings the active branch is unknown: the first one is read.
            if let clause = config.clauses.first, case let .decls(members) = clause.elements {
                for member in members { add(member.decl, to: &model) }
                if config.clauses.count > 1 {
                    model.notes.append(
                        "\(model.name): an #if in the class at \(file.location(of: config, root: root)); only its first branch is read")
                }
            }
            return
        }
        if let macro = decl.as(MacroExpansionDeclSyntax.self) {
            let groups = macro.arguments.map { argument in
                keyPaths(argument.expression.trimmedDescription)
            }
            switch macro.macroName.text {
            case "Unique": model.uniques += groups.filter { !$0.isEmpty }
            case "Index": model.indexes += groups.filter { !$0.isEmpty }
            default: break
            }
            return
        }
        guard let variable = decl.as(VariableDeclSyntax.self), !isStatic(variable.modifiers) else { return }
        var attributes: [(name: String, arguments: [(label: String?, value: String)])] = []
        for element in variable.attributes {
            guard case let .attribute(attribute) = element else { continue }
            var arguments: [(label: String?, value: String)] = []
            if case let .argumentList(list)? = attribute.arguments {
                arguments = list.map { ($0.label?.text, $0.expression.trimmedDescription) }
            }
            attributes.append((TypeShape.lastComponent(attribute.attributeName.trimmedDescription), arguments))
        }
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, isStored(binding) else { continue }
            model.properties.append(
                Declarations.Property(
                    name: name, type: binding.typeAnnotation?.type.trimmedDescription,
                    initializer: binding.initializer?.value.trimmedDescription,
                    isLet: variable.bindingSpecifier.text == "let", attributes: attributes, line: file.line(of: binding)))
        }
    }

    /// The key paths of `[\.name, \Trip.date]` (or of one key path), as property names: `name`, `date`.
    private func keyPaths(_ text: String) -> [String] {
        // A constant pattern: it cannot fail to compile at run time.
        // swift-format-ignore: NeverUseForceTry
        let pattern = try! NSRegularExpression(pattern: "\\\\(?:[A-Za-z_][A-Za-z0-9_.]*)?\\.([A-Za-z_][A-Za-z0-9_?!.]*)")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap {
            Range($0.range(at: 1), in: text).map {
                String(text[$0]).replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
            }
        }
    }

    private func schema(_ name: String, _ members: MemberBlockSyntax, _ node: some SyntaxProtocol) {
        var schema = Declarations.VersionedSchema(name: name, version: nil, models: [], location: file.location(of: node, root: root))
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                let text = binding.trimmedDescription
                switch binding.pattern.trimmedDescription {
                case "versionIdentifier":
                    // A constant pattern: it cannot fail to compile at run time.
                    // swift-format-ignore: NeverUseForceTry
                    let numbers = try! NSRegularExpression(pattern: "Version\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)")
                    if let match = numbers.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                        schema.version = (1...3).compactMap { Range(match.range(at: $0), in: text).flatMap { Int(text[$0]) } }
                    }
                case "models":
                    schema.models = Declarations.selfTypes(text)
                default:
                    break
                }
            }
        }
        found.schemas.append(schema)
    }

    private func plan(_ name: String, _ members: MemberBlockSyntax, _ node: some SyntaxProtocol) {
        var plan = Declarations.MigrationPlan(name: name, schemas: [], stages: [], location: file.location(of: node, root: root))
        let text = members.trimmedDescription
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings where binding.pattern.trimmedDescription == "schemas" {
                plan.schemas = Declarations.selfTypes(binding.trimmedDescription)
            }
        }
        // A constant pattern: it cannot fail to compile at run time.
        // swift-format-ignore: NeverUseForceTry
        let stage = try! NSRegularExpression(
            pattern:
                "\\.(lightweight|custom)\\s*\\(\\s*fromVersion:\\s*([A-Za-z0-9_.]+)\\.self\\s*,\\s*toVersion:\\s*([A-Za-z0-9_.]+)\\.self")
        for match in stage.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let parts = (1...3).compactMap { Range(match.range(at: $0), in: text).map { String(text[$0]) } }
            if parts.count == 3 { plan.stages.append(.init(kind: parts[0], from: parts[1], to: parts[2])) }
        }
        found.plans.append(plan)
    }
}
#endif
