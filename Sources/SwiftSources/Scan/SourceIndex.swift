#if SwiftSources
import SwiftSyntax

/// The types of the scanned sources by name, for what a fetch site leads to: row views (`TripRow(trip: trip)`),
/// static descriptors (`@Query(Self.recent)`), computed properties of model classes.
struct SourceIndex {
    struct TypeDeclaration {
        let name: String
        let members: MemberBlockSyntax
        let file: SourceFile
        /// The declaration's node (a struct, class, enum or extension).
        let node: Syntax
    }

    private(set) var types: [String: [TypeDeclaration]] = [:]

    init(_ files: [SourceFile]) {
        for file in files {
            let visitor = TypeVisitor(file: file)
            visitor.walk(file.tree)
            for declaration in visitor.found { types[declaration.name, default: []].append(declaration) }
        }
    }

    /// Every declaration of `name` (the type and its extensions).
    func declarations(of name: String) -> [TypeDeclaration] { types[TypeShape.lastComponent(name)] ?? [] }

    /// The stored properties of struct or class `name`, in order, with whether each has an initial value.
    func storedProperties(of name: String) -> [(name: String, hasInitializer: Bool)] {
        var found: [(String, Bool)] = []
        for declaration in declarations(of: name) where !declaration.node.is(ExtensionDeclSyntax.self) {
            for member in declaration.members.members {
                guard let variable = member.decl.as(VariableDeclSyntax.self),
                    !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
                else { continue }
                for binding in variable.bindings where binding.accessorBlock == nil {
                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                        found.append((name, binding.initializer != nil))
                    }
                }
            }
        }
        return found
    }

    /// A static property or function `member` of type `name` (or its extensions): its declaration.
    func staticMember(_ member: String, of name: String) -> (decl: DeclSyntax, file: SourceFile)? {
        for declaration in declarations(of: name) {
            for item in declaration.members.members {
                if let variable = item.decl.as(VariableDeclSyntax.self),
                    variable.bindings.contains(where: { $0.pattern.trimmedDescription == member })
                {
                    return (item.decl, declaration.file)
                }
                if let function = item.decl.as(FunctionDeclSyntax.self), function.name.text == member {
                    return (item.decl, declaration.file)
                }
            }
        }
        return nil
    }
}

private final class TypeVisitor: SyntaxVisitor {
    let file: SourceFile
    var found: [SourceIndex.TypeDeclaration] = []

    init(file: SourceFile) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        found.append(.init(name: node.name.text, members: node.memberBlock, file: file, node: Syntax(node)))
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        found.append(.init(name: node.name.text, members: node.memberBlock, file: file, node: Syntax(node)))
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        found.append(.init(name: node.name.text, members: node.memberBlock, file: file, node: Syntax(node)))
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        found.append(
            .init(
                name: TypeShape.lastComponent(node.extendedType.trimmedDescription), members: node.memberBlock, file: file,
                node: Syntax(node)))
        return .visitChildren
    }
}
#endif
