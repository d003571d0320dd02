#if SwiftSources
import ObjectGraph
import SwiftSyntax

/// The key paths code reads from a fetch's results: on each element bound by `ForEach(trips) { trip in ... }`,
/// `List(trips)`, `for trip in trips`, `trips.map { $0... }` (and the other closures of a collection), on `trips.first`
/// and `trips[i]`, through nested iterations over to-many relationships (`ForEach(trip.tags) { tag in tag.name }`),
/// through computed properties of the model class (one level), and in row views the element is passed to
/// (`TripRow(trip: trip)`: that view's reads of its `trip` property), one level deep: a row view's own row views
/// are not followed. Reads inside a `List`, `Table` or lazy stack happen for the rows drawn, the first screen.
struct ReadCollector {
    let index: SourceIndex
    let root: String
    let entity: EntityDescription
    private var recorded: [FetchSite.Read] = []
    /// The key paths read, a to-many left out where a longer read goes through it (`trips.name` covers `trips`).
    var reads: [FetchSite.Read] {
        recorded.filter { read in !recorded.contains { $0.keyPath.hasPrefix(read.keyPath + ".") } }
    }
    private(set) var lazy = false
    /// Whether the code that runs as the view draws goes through every result (a `filter`, `map` or `for` over them,
    /// a `ForEach` outside a lazy container), so every row is read whatever a list draws. An action's closure
    /// (`Button`, `onChange`, a sheet) or another method of the type does not count: it runs later, if ever.
    private(set) var readsEveryRow = false
    /// Set while the reads of such a pass over every result are collected: they are marked `everyRow`.
    private var inEveryRowPass = false
    /// The scope the results are used in: a method of the type inside it runs on an action, not as the view draws.
    private var scope: SyntaxIdentifier?
    private(set) var notes: [String] = []

    /// Views that draw their rows lazily: their rows' reads happen for the rows on screen.
    static let lazyContainers: Set<String> = ["List", "Table", "LazyVStack", "LazyHStack", "LazyVGrid", "LazyHGrid", "OutlineGroup"]
    /// Calls whose closure runs once per element of the collection they are called on.
    static let perElement: Set<String> = [
        "map", "compactMap", "flatMap", "forEach", "filter", "first", "last", "contains", "allSatisfy", "sorted", "min", "max",
        "reduce", "firstIndex", "lastIndex", "drop", "prefix",
    ]
    /// Calls that return the same elements (`trips.sorted()`, `trips.prefix(5)`): the elements flow through.
    static let preserving: Set<String> = ["sorted", "filter", "prefix", "suffix", "dropFirst", "dropLast", "reversed", "shuffled"]

    init(index: SourceIndex, root: String, entity: EntityDescription) {
        self.index = index
        self.root = root
        self.entity = entity
    }

    // MARK: Entry points

    /// Reads of the results held in `name` (a property or a local), used anywhere in `scope`.
    mutating func collection(named name: String, in scope: Syntax, file: SourceFile) {
        self.scope = scope.id
        for reference in references(to: name, in: scope, allowSelf: true) {
            collectionUse(reference, prefix: [], file: file, rowView: nil, depth: 0)
        }
    }

    /// Reads of one object held in `name` (fetched by identifier, or a collection's first).
    mutating func object(named name: String, in scope: Syntax, file: SourceFile) {
        self.scope = scope.id
        for reference in references(to: name, in: scope, allowSelf: true) {
            elementUse(reference, prefix: [], file: file, rowView: nil, depth: 0)
        }
    }

    /// Reads of the elements bound by a `for` loop over the results, in its body.
    mutating func loop(_ loop: ForStmtSyntax, file: SourceFile) {
        guard let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
        element(name, in: Syntax(loop.body), prefix: [], file: file, rowView: nil, depth: 0)
    }

    // MARK: Collections

    /// `expression` evaluates to a collection of objects at key path `prefix` from the fetched entity.
    private mutating func collectionUse(_ expression: Syntax, prefix: [String], file: SourceFile, rowView: String?, depth: Int) {
        var current = expression
        // Climb through calls that keep the elements: trips.sorted { ... }.prefix(5)
        while let access = current.parent?.as(MemberAccessExprSyntax.self), access.base.map(Syntax.init) == current {
            let name = access.declName.baseName.text
            let call = access.parent?.as(FunctionCallExprSyntax.self)
            if let call, call.calledExpression.id == access.id, Self.perElement.contains(name) || Self.preserving.contains(name) {
                let iterates = !closures(of: call).isEmpty || call.arguments.contains { $0.expression.is(KeyPathExprSyntax.self) }
                let pass = everyRowPass(iterates && prefix.isEmpty && rowView == nil, at: Syntax(call))
                defer { inEveryRowPass = pass }
                // trips.map(\.name): a key path read on every element.
                for argument in call.arguments {
                    guard let keyPath = argument.expression.as(KeyPathExprSyntax.self) else { continue }
                    let names = keyPath.trimmedDescription.dropFirst().split(separator: ".").map {
                        String($0).replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
                    }.filter { !$0.isEmpty && $0.first?.isLowercase == true }
                    if case let .read(path, _)? = resolve(names, from: prefix) {
                        record(path, at: Syntax(argument), file: file, rowView: rowView)
                    }
                }
                for closure in closures(of: call) {
                    let parameters = closureParameters(closure)
                    // sorted(by:), min(by:), max(by:) see two elements; reduce sees the result then an element.
                    let bound = name == "reduce" ? Array(parameters.dropFirst()) : parameters
                    for parameter in bound {
                        element(parameter, in: Syntax(closure.statements), prefix: prefix, file: file, rowView: rowView, depth: depth)
                    }
                }
                if Self.preserving.contains(name) {
                    current = Syntax(call)
                    continue
                }
                return
            }
            if name == "first" || name == "last" {
                elementUse(Syntax(access), prefix: prefix, file: file, rowView: rowView, depth: depth, isElement: true)
                return
            }
            if name == "count" || name == "isEmpty" { return }
            return
        }
        if let subscriptCall = current.parent?.as(SubscriptCallExprSyntax.self), subscriptCall.calledExpression.id == current.id {
            elementUse(Syntax(subscriptCall), prefix: prefix, file: file, rowView: rowView, depth: depth, isElement: true)
            return
        }
        // ForEach(trips) { trip in ... }, List(trips) { ... }: the collection as the first argument.
        if let argument = current.parent?.as(LabeledExprSyntax.self), argument.label == nil || argument.label?.text == "data",
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        {
            let callee = Self.calleeName(call)
            if ["ForEach", "List", "Table", "OutlineGroup"].contains(callee) {
                let drawnLazily = callee != "ForEach" || inLazyContainer(Syntax(call))
                if drawnLazily { lazy = lazy || prefix.isEmpty }
                let pass = everyRowPass(!drawnLazily && prefix.isEmpty && rowView == nil, at: Syntax(call))
                defer { inEveryRowPass = pass }
                for closure in closures(of: call) {
                    for parameter in closureParameters(closure).prefix(1) {
                        element(parameter, in: Syntax(closure.statements), prefix: prefix, file: file, rowView: rowView, depth: depth)
                    }
                }
                return
            }
        }
        if let loop = current.parent?.as(ForStmtSyntax.self), loop.sequence.id == current.id,
            let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        {
            let pass = everyRowPass(prefix.isEmpty && rowView == nil, at: Syntax(loop))
            defer { inEveryRowPass = pass }
            element(name, in: Syntax(loop.body), prefix: prefix, file: file, rowView: rowView, depth: depth)
        }
    }

    /// Starts a pass over every result when `iterates` and the code at `node` runs as the view draws; returns the
    /// state to restore when the pass's reads are collected.
    private mutating func everyRowPass(_ iterates: Bool, at node: Syntax) -> Bool {
        let saved = inEveryRowPass
        if iterates && !runsLater(node) {
            readsEveryRow = true
            inEveryRowPass = true
        }
        return saved
    }

    /// Calls whose closures run on an action or when something is shown, not as the view draws.
    static let laterClosures: Set<String> = [
        "onChange", "onTapGesture", "onLongPressGesture", "onDelete", "onMove", "onInsert", "onSubmit", "onReceive", "onCommit",
        "onEnded", "onChanged", "onDrop", "onDisappear", "refreshable", "swipeActions", "contextMenu", "alert", "confirmationDialog",
        "sheet", "fullScreenCover", "popover", "navigationDestination",
    ]

    /// Whether code at `node` runs later than the drawing of the view: in an action's closure (a `Button`'s action,
    /// `onChange`, a sheet's content) or in another method of the type than the scope the results are used in.
    private func runsLater(_ node: Syntax) -> Bool {
        var current = node.parent
        while let parent = current, parent.id != scope, !parent.is(MemberBlockSyntax.self) {
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) { return true }
            if let call = parent.as(FunctionCallExprSyntax.self) {
                let callee = Self.calleeName(call)
                let inTrailing = call.trailingClosure.map { node.isInside($0) } == true
                let inArgument = { (label: String?) in
                    call.arguments.contains { $0.expression.is(ClosureExprSyntax.self) && $0.label?.text == label && node.isInside($0) }
                }
                if Self.laterClosures.contains(callee),
                    inTrailing || call.arguments.contains(where: { node.isInside($0) })
                        || call.additionalTrailingClosures.contains(where: { node.isInside($0.closure) })
                {
                    return true
                }
                // Button(action: { ... }) { label }, Button("Add") { action }, Button { action } label: { ... }
                if callee == "Button", inArgument("action") || (inTrailing && !call.arguments.contains { $0.label?.text == "action" }) {
                    return true
                }
            }
            current = parent.parent
        }
        return false
    }

    private func inLazyContainer(_ node: Syntax) -> Bool {
        var current = node.parent
        while let parent = current {
            if let call = parent.as(FunctionCallExprSyntax.self) {
                let callee = Self.calleeName(call)
                if Self.lazyContainers.contains(callee) { return true }
                if ["VStack", "HStack", "ZStack", "Grid"].contains(callee) { return false }
            }
            if parent.is(MemberBlockSyntax.self) { return false }
            current = parent.parent
        }
        return false
    }

    private func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        var found: [ClosureExprSyntax] = []
        if let trailing = call.trailingClosure { found.append(trailing) }
        for argument in call.arguments {
            if let closure = argument.expression.as(ClosureExprSyntax.self), argument.label?.text != "id" { found.append(closure) }
        }
        for extra in call.additionalTrailingClosures { found.append(extra.closure) }
        return found
    }

    private func closureParameters(_ closure: ClosureExprSyntax) -> [String] {
        guard let clause = closure.signature?.parameterClause else {
            // Shorthand: $0 (and $1 when the closure uses it).
            return closure.statements.trimmedDescription.contains("$1") ? ["$0", "$1"] : ["$0"]
        }
        switch clause {
        case let .simpleInput(list): return list.map(\.name.text)
        case let .parameterClause(parameters): return parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
        }
    }

    // MARK: Elements

    /// Every use of element variable `name` in `body`.
    private mutating func element(_ name: String, in body: Syntax, prefix: [String], file: SourceFile, rowView: String?, depth: Int) {
        guard name != "_" else { return }
        for reference in references(to: name, in: body, allowSelf: false) {
            elementUse(reference, prefix: prefix, file: file, rowView: rowView, depth: depth)
        }
    }

    /// `expression` is one object at key path `prefix`: the member chain read from it, a row view it is passed to, a
    /// to-many iterated from it.
    private mutating func elementUse(
        _ expression: Syntax, prefix: [String], file: SourceFile, rowView: String?, depth: Int, isElement: Bool = false
    ) {
        let (names, current) = Self.memberChain(from: expression)
        let resolved = resolve(names, from: prefix)
        if names.isEmpty {
            rowViewUse(current, prefix: prefix, file: file, rowView: rowView, depth: depth)
            return
        }
        switch resolved {
        case let .read(path, consumed):
            record(path, at: current, file: file, rowView: rowView)
            // A to-many used as a collection: ForEach(trip.tags) { tag in ... }, trip.tags.map { $0.name }.
            if consumed == names.count, case .toMany = kind(of: path) {
                collectionUse(current, prefix: path, file: file, rowView: rowView, depth: depth)
            } else if consumed == names.count, case .toOne = kind(of: path) {
                rowViewUse(current, prefix: path, file: file, rowView: rowView, depth: depth)
            }
        case let .computed(property):
            computedReads(property, prefix: prefix, at: current, file: file, rowView: rowView)
        case .none:
            break
        }
    }

    /// The element passed to a view: `TripRow(trip: trip)`, one level deep.
    private mutating func rowViewUse(_ node: Syntax, prefix: [String], file: SourceFile, rowView: String?, depth: Int) {
        guard depth == 0, let argument = node.parent?.as(LabeledExprSyntax.self),
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
        else { return }
        let callee = Self.calleeName(call)
        guard let first = callee.first, first.isUppercase, !["ForEach", "List", "Text", "Label"].contains(callee),
            let declaration = index.declarations(of: callee).first(where: {
                $0.node.is(StructDeclSyntax.self) || $0.node.is(ClassDeclSyntax.self)
            })
        else { return }
        // Inside a navigation destination or a sheet the view is built when shown, for one row, not per row.
        if isInDestination(Syntax(call)) { return }
        guard let property = propertyReceiving(argument, of: callee, call: call) else { return }
        for reference in references(to: property, in: Syntax(declaration.members), allowSelf: true) {
            elementUse(reference, prefix: prefix, file: declaration.file, rowView: callee, depth: depth + 1)
        }
    }

    private func isInDestination(_ node: Syntax) -> Bool {
        var current = node.parent
        while let parent = current, !parent.is(MemberBlockSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self) {
                let callee = Self.calleeName(call)
                // A modifier's closures, not the view it modifies: List { ... }.sheet { ... }
                let inClosures =
                    call.trailingClosure.map { node.isInside($0) } == true || call.arguments.contains { node.isInside($0) }
                    || call.additionalTrailingClosures.contains { node.isInside($0.closure) }
                if inClosures, ["navigationDestination", "sheet", "fullScreenCover", "popover"].contains(callee) { return true }
                if callee == "NavigationLink" {
                    if call.arguments.contains(where: { $0.label?.text == "destination" && node.isInside($0) }) { return true }
                    // NavigationLink { destination } label: { ... }: the trailing closure is the destination; with
                    // `value:` or `destination:` it is the label, drawn per row.
                    if call.additionalTrailingClosures.contains(where: { $0.label.text == "label" }),
                        call.trailingClosure.map({ node.isInside($0) }) == true
                    {
                        return true
                    }
                }
            }
            current = parent.parent
        }
        return false
    }

    /// `ForEach` for `ForEach(...)` and `ForEach<...>(...)`, `sheet` for `view.sheet(...)`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String {
        if let access = call.calledExpression.as(MemberAccessExprSyntax.self) { return access.declName.baseName.text }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self) {
            return TypeShape.lastComponent(generic.expression.trimmedDescription)
        }
        return TypeShape.lastComponent(call.calledExpression.trimmedDescription)
    }

    /// The stored property of view `type` an argument sets: its label (memberwise), or the property a custom
    /// initializer assigns the parameter to.
    private func propertyReceiving(_ argument: LabeledExprSyntax, of type: String, call: FunctionCallExprSyntax) -> String? {
        let position =
            call.arguments.firstIndex { $0.id == argument.id }.map { call.arguments.distance(from: call.arguments.startIndex, to: $0) } ?? 0
        for declaration in index.declarations(of: type) {
            for member in declaration.members.members {
                guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { continue }
                let parameters = Array(initializer.signature.parameterClause.parameters)
                guard position < parameters.count, parameters[position].firstName.text == (argument.label?.text ?? "_"),
                    let body = initializer.body
                else { continue }
                let parameterName = (parameters[position].secondName ?? parameters[position].firstName).text
                // A pattern of an identifier the parser read: it cannot fail to compile.
                // swift-format-ignore: NeverUseForceTry
                let assignment = try! Regex(
                    "(?:self\\.)?_?([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*(?:[A-Za-z]+\\()?(?:wrappedValue:\\s*)?\(parameterName)\\b")
                if let match = body.trimmedDescription.firstMatch(of: assignment), let name = match.output[1].substring {
                    return String(name)
                }
            }
        }
        if let label = argument.label?.text { return label }
        return index.storedProperties(of: type).first { !$0.hasInitializer }?.name
    }

    // MARK: Key paths

    private enum Resolved {
        /// A key path and how many of the written names it used.
        case read([String], Int)
        /// A computed property of the model class.
        case computed(String)
    }

    private enum Kind {
        case attribute
        case toOne(EntityDescription)
        case toMany(EntityDescription)
        case none
    }

    private func entityAt(_ path: [String]) -> EntityDescription? {
        var current = entity
        for part in path where !part.hasPrefix("@") {
            guard let relationship = current.relationship(part) else { return nil }
            current = relationship.destination
        }
        return current
    }

    private func kind(of path: [String]) -> Kind {
        guard let last = path.last, !last.hasPrefix("@") else {
            return path.last == "@first" ? entityAt(Array(path.dropLast())).map(Kind.toOne) ?? .none : .none
        }
        guard let owner = entityAt(Array(path.dropLast())) else { return .none }
        if let relationship = owner.relationship(last) {
            return relationship.isToMany ? .toMany(relationship.destination) : .toOne(relationship.destination)
        }
        return owner.attribute(last) != nil ? .attribute : .none
    }

    /// Names read from an object at `prefix`, as a key path of stored properties: a to-many's `count`/`isEmpty` is
    /// `@count`, its `first` `@first`; a composite's `location.latitude` is `location_latitude`.
    private func resolve(_ names: [String], from prefix: [String]) -> Resolved? {
        guard var current = entityAt(prefix) else { return nil }
        var path = prefix
        var index = 0
        while index < names.count {
            let name = names[index]
            if let relationship = current.relationship(name) {
                path.append(name)
                if relationship.isToMany {
                    if index + 1 < names.count, ["count", "isEmpty"].contains(names[index + 1]) {
                        return .read(path + ["@count"], index + 2)
                    }
                    if index + 1 < names.count, ["first", "last"].contains(names[index + 1]) {
                        path.append("@first")
                        index += 2
                        current = relationship.destination
                        continue
                    }
                    return .read(path, index + 1)
                }
                current = relationship.destination
                index += 1
                continue
            }
            if index + 1 < names.count, current.attribute("\(name)_\(names[index + 1])") != nil {
                return .read(path + ["\(name)_\(names[index + 1])"], index + 2)
            }
            if current.attribute(name) != nil || current.derivedAttribute(name) != nil { return .read(path + [name], index + 1) }
            if path.count == prefix.count && index == 0 { return .computed(name) }
            return path.count > prefix.count ? .read(path, index) : nil
        }
        return path.count > prefix.count ? .read(path, names.count) : nil
    }

    private mutating func record(_ path: [String], at node: Syntax, file: SourceFile, rowView: String?) {
        let keyPath = path.joined(separator: ".")
        guard !keyPath.isEmpty else { return }
        if let known = recorded.firstIndex(where: { $0.keyPath == keyPath }) {
            if inEveryRowPass { recorded[known].everyRow = true }
            return
        }
        recorded.append(
            FetchSite.Read(keyPath: keyPath, location: file.location(of: node, root: root), rowView: rowView, everyRow: inEveryRowPass))
    }

    /// A computed property of the model class read from an object: the stored properties its getter reads (one level).
    private mutating func computedReads(_ property: String, prefix: [String], at node: Syntax, file: SourceFile, rowView: String?) {
        guard let owner = entityAt(prefix) else { return }
        var names = [owner.name]
        var parent = owner.superentity
        while let ancestor = parent {
            names.append(ancestor.name)
            parent = ancestor.superentity
        }
        for name in names {
            for declaration in index.declarations(of: name) {
                for member in declaration.members.members {
                    guard let variable = member.decl.as(VariableDeclSyntax.self),
                        let binding = variable.bindings.first(where: { $0.pattern.trimmedDescription == property }),
                        let accessor = binding.accessorBlock
                    else { continue }
                    let stored = Set((entityAt(prefix)?.propertyNames ?? []))
                    for reference in accessor.tokens(viewMode: .sourceAccurate) where reference.tokenKind.isIdentifier {
                        let text = reference.text
                        guard stored.contains(text) || stored.contains(where: { $0.hasPrefix(text + "_") }),
                            let expression = reference.parent?.as(DeclReferenceExprSyntax.self)
                        else { continue }
                        // `self.destination?.name` and `destination?.name`: start from the reference.
                        var start = Syntax(expression)
                        if let access = start.parent?.as(MemberAccessExprSyntax.self), access.declName.id == expression.id {
                            guard access.base?.trimmedDescription == "self" else { continue }
                            start = Syntax(access)
                        }
                        if case let .read(path, _) = resolve([text] + Self.memberChain(from: start).names, from: prefix) {
                            record(path, at: node, file: file, rowView: rowView)
                        }
                    }
                    return
                }
            }
        }
    }

    /// The member names read after `node` (`.destination?.name` → destination, name), through optional chaining and
    /// force unwraps, and the outermost node of the chain.
    static func memberChain(from node: Syntax) -> (names: [String], end: Syntax) {
        var names: [String] = []
        var current = node
        while true {
            if let access = current.parent?.as(MemberAccessExprSyntax.self), access.base.map(Syntax.init) == current {
                names.append(access.declName.baseName.text)
                current = Syntax(access)
            } else if let chained = current.parent?.as(OptionalChainingExprSyntax.self) {
                current = Syntax(chained)
            } else if let forced = current.parent?.as(ForceUnwrapExprSyntax.self) {
                current = Syntax(forced)
            } else {
                return (names, current)
            }
        }
    }

    // MARK: References

    /// The expressions in `scope` that refer to variable `name`: `name`, and with `allowSelf` `self.name`. A closure
    /// with a shorthand `$0` of its own hides an outer `$0`.
    private func references(to name: String, in scope: Syntax, allowSelf: Bool) -> [Syntax] {
        var found: [Syntax] = []
        for token in scope.tokens(viewMode: .sourceAccurate) {
            guard token.text == name else { continue }
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            // trip.name's `name` is a member, not the variable `name`.
            if let access = reference.parent?.as(MemberAccessExprSyntax.self), access.declName.id == reference.id {
                guard allowSelf, access.base?.trimmedDescription == "self" else { continue }
                found.append(Syntax(access))
                continue
            }
            if name.hasPrefix("$"), shadowed(Syntax(reference), below: scope) { continue }
            found.append(Syntax(reference))
        }
        return found
    }

    /// Whether a `$0` at `node` belongs to a closure nested inside `scope` rather than to `scope`'s own closure.
    private func shadowed(_ node: Syntax, below scope: Syntax) -> Bool {
        var current = node.parent
        while let parent = current, parent.id != scope.id {
            if let closure = parent.as(ClosureExprSyntax.self), closure.signature == nil { return true }
            current = parent.parent
        }
        return false
    }
}

extension TokenKind {
    fileprivate var isIdentifier: Bool {
        if case .identifier = self { return true }
        return false
    }
}
#endif
