#if SwiftSources
import Foundation
import ObjectGraph
import SwiftSyntax

/// Reads one fetch site from the syntax around it: the request's settings, where the results go and what is read.
struct SiteBuilder {
    let index: SourceIndex
    let root: String
    let models: ScanModels
    private(set) var notes: [String] = []

    /// What the code asks of a fetch, before the entity is resolved.
    struct Request {
        var entity: String?
        var predicate: ExprSyntax?
        var predicateScope: Syntax?
        var sort: [String] = []
        var limit: Int?
        var offset: Int?
        var batchSize: Int?
        var prefetch: [String] = []
        var propertiesToFetch: [String] = []
        var faults: Bool?
        var result = "objects"
        var notes: [String] = []
    }

    init(index: SourceIndex, root: String, models: ScanModels) {
        self.index = index
        self.root = root
        self.models = models
    }

    // MARK: Property wrappers

    /// `@Query(...) var trips: [Trip]`, `@FetchRequest(...) var items: FetchedResults<Item>`.
    mutating func propertyWrapperSite(_ variable: VariableDeclSyntax, file: SourceFile, consumed: inout Set<SyntaxIdentifier>) -> FetchSite?
    {
        var wrapper: AttributeSyntax?
        for element in variable.attributes {
            if case let .attribute(attribute) = element,
                ["Query", "FetchRequest", "SectionedFetchRequest"].contains(
                    TypeShape.lastComponent(attribute.attributeName.trimmedDescription))
            {
                wrapper = attribute
            }
        }
        guard let wrapper, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { return nil }
        let kind = TypeShape.lastComponent(wrapper.attributeName.trimmedDescription)
        let isQuery = kind == "Query"
        var request = Request()
        if let type = binding.typeAnnotation?.type.trimmedDescription { request.entity = Self.elementType(type) }
        let typeScope = enclosingType(variable)
        var arguments: [LabeledExprSyntax] = []
        if case let .argumentList(list)? = wrapper.arguments { arguments = Array(list) }
        // `_trips = Query(filter: ..., sort: ...)` in an init configures the same fetch.
        var configured: String?
        if let typeScope {
            for sequence in Syntax(typeScope.members).descendants(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
                    ["_\(name)", "self._\(name)"].contains(elements[0].trimmedDescription),
                    let call = elements[2].as(FunctionCallExprSyntax.self)
                else { continue }
                arguments = Array(call.arguments)
                configured = file.location(of: sequence, root: root)
                if request.entity == nil, let generic = Self.genericArgument(call.calledExpression) { request.entity = generic }
                for inner in Syntax(call).descendants(FunctionCallExprSyntax.self) { consumed.insert(inner.id) }
            }
        }
        for inner in Syntax(wrapper).descendants(FunctionCallExprSyntax.self) { consumed.insert(inner.id) }
        var order: String?
        var sortKey: [String] = []
        for argument in arguments {
            let label = argument.label?.text
            let expression = argument.expression
            switch (label, isQuery) {
            case ("filter", true), ("predicate", false):
                request.predicate = expression
                request.predicateScope = typeScope.map { Syntax($0.members) }
            case ("sort", true):
                if expression.is(ArrayExprSyntax.self) { request.sort = sortKeys(expression) } else { sortKey = keyPathNames(expression) }
            case ("order", true):
                order = expression.trimmedDescription
            case ("sortDescriptors", false):
                request.sort = sortKeys(expression)
            case ("entity", false):
                if let entity = expression.trimmedDescription.split(separator: ".").first { request.entity = String(entity) }
            case (nil, true), ("fetchRequest", false):
                describe(expression, into: &request, from: typeScope, file: file, consumed: &consumed)
            case ("animation", _), ("transaction", _), ("sectionIdentifier", _), ("sectionNameKeyPath", _):
                break
            default:
                request.notes.append("@\(kind)'s argument \(label ?? "_"): not read")
            }
        }
        if !sortKey.isEmpty {
            let reversed = order.map { $0.hasSuffix("reverse") } ?? false
            request.sort = [(reversed ? "-" : "") + sortKey.joined(separator: ".")]
        }
        guard
            var site = makeSite(
                request, api: isQuery ? .query : .fetchRequest, swiftData: isQuery, node: Syntax(variable), file: file)
        else { return nil }
        site.resultName = name
        if let configured { site.notes.append("configured in an init at \(configured)") }
        if let typeScope {
            collectReads(&site, collection: name, scope: Syntax(typeScope.members), file: file)
        }
        return site
    }

    // MARK: Calls

    /// A `FetchDescriptor`, an `NSFetchRequest`, or an object fetched by identifier, built in a function.
    mutating func callSite(_ call: FunctionCallExprSyntax, file: SourceFile, consumed: inout Set<SyntaxIdentifier>) -> FetchSite? {
        let callee = call.calledExpression.trimmedDescription
        let base = callee.split(separator: "<").first.map(String.init) ?? callee
        if let access = call.calledExpression.as(MemberAccessExprSyntax.self) {
            let method = access.declName.baseName.text
            let firstLabel = call.arguments.first?.label?.text
            if (method == "model" && firstLabel == "for") || (method == "existingObject" && firstLabel == "with")
                || (method == "registeredModel" && firstLabel == "for")
            {
                return identifierSite(call, swiftData: method != "existingObject", file: file)
            }
            if method == "fetchRequest", call.arguments.isEmpty, let first = access.base?.trimmedDescription.first, first.isUppercase {
                var request = Request()
                request.entity = access.base.map { TypeShape.lastComponent($0.trimmedDescription) }
                return requestSite(call, request: request, swiftData: false, file: file, consumed: &consumed)
            }
        }
        switch TypeShape.lastComponent(base) {
        case "FetchDescriptor":
            var request = Request()
            describe(ExprSyntax(call), into: &request, from: enclosingType(call), file: file, consumed: &consumed)
            return requestSite(call, request: request, swiftData: true, file: file, consumed: &consumed)
        case "NSFetchRequest":
            var request = Request()
            request.entity = Self.genericArgument(call.calledExpression).flatMap { $0 == "NSFetchRequestResult" ? nil : $0 }
            if let named = call.arguments.first(where: { $0.label?.text == "entityName" }).flatMap({
                PredicateTranslator.stringLiteral($0.expression)
            }) {
                request.entity = named
            }
            return requestSite(call, request: request, swiftData: false, file: file, consumed: &consumed)
        default:
            return nil
        }
    }

    /// The site of a descriptor or request created by `call`: its settings where it is bound, its fetch, its reads.
    private mutating func requestSite(
        _ call: FunctionCallExprSyntax, request initial: Request, swiftData: Bool, file: SourceFile, consumed: inout Set<SyntaxIdentifier>
    ) -> FetchSite? {
        // Xcode's generated `class func fetchRequest() -> NSFetchRequest<Item>` makes requests for the sites that
        // call it; it fetches nothing itself.
        if call.ancestor(FunctionDeclSyntax.self)?.name.text == "fetchRequest" { return nil }
        var request = initial
        let scope = enclosingScope(call)
        let bound = boundName(ExprSyntax(call))
        if let bound, let scope { mutations(of: bound, in: scope, into: &request) }
        // The fetch that runs it: `context.fetch(descriptor)`, or the request passed to a results controller.
        var fetch: FunctionCallExprSyntax?
        var controller: FunctionCallExprSyntax?
        if let bound, let scope {
            for candidate in scope.descendants(FunctionCallExprSyntax.self) {
                let first = candidate.arguments.first?.expression.trimmedDescription
                if TypeShape.lastComponent(candidate.calledExpression.trimmedDescription) == "NSFetchedResultsController",
                    candidate.arguments.contains(where: { $0.label?.text == "fetchRequest" && $0.expression.trimmedDescription == bound })
                {
                    controller = candidate
                } else if first == bound || first == "self.\(bound)", Self.isFetchCall(candidate) {
                    fetch = fetch ?? candidate
                }
            }
            if fetch == nil && controller == nil, isStatic(call) {
                fetch = files(fetchingStatic: bound)
            }
        } else if let argument = call.parent?.as(LabeledExprSyntax.self),
            let outer = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
            Self.isFetchCall(outer)
        {
            fetch = outer
        }
        let api: FetchSite.API = controller != nil ? .fetchedResultsController : swiftData ? .fetchDescriptor : .nsFetchRequest
        if let fetch {
            let method = (fetch.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text) ?? ""
            if method == "fetchCount" || method == "count" { request.result = "count" }
            if method == "fetchIdentifiers" { request.result = "ids" }
            if let batch = fetch.arguments.first(where: { $0.label?.text == "batchSize" }),
                let value = Int(batch.expression.trimmedDescription)
            {
                request.batchSize = value
            }
        }
        if request.entity == nil, let fetch, let declared = resultType(of: fetch) { request.entity = declared }
        guard var site = makeSite(request, api: api, swiftData: swiftData, node: Syntax(call), file: file) else { return nil }
        site.requestName = bound
        if let controller {
            site.resultName = boundName(ExprSyntax(controller)) ?? assignedProperty(ExprSyntax(controller))
            if let name = site.resultName, let type = enclosingType(controller) {
                controllerReads(&site, controller: name, scope: Syntax(type.members), file: file)
            }
            return site
        }
        guard let fetch else {
            if bound == nil || !isStatic(call) {
                site.notes.append("no fetch of it found in the same function: its results' reads are not followed")
            }
            return site
        }
        results(of: fetch, into: &site, file: file)
        return site
    }

    /// An object fetched by identifier: `context.model(for: id) as? Trip`.
    private mutating func identifierSite(_ call: FunctionCallExprSyntax, swiftData: Bool, file: SourceFile) -> FetchSite? {
        var request = Request()
        request.limit = 1
        if let cast = Self.castType(Syntax(call)) {
            request.entity = TypeShape.lastComponent(cast.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: ""))
        } else if let binding = Self.outermost(Syntax(call)).parent?.parent?.as(PatternBindingSyntax.self),
            let type = binding.typeAnnotation?.type
        {
            request.entity = TypeShape.lastComponent(type.trimmedDescription.replacingOccurrences(of: "?", with: ""))
        }
        guard request.entity != nil else {
            notes.append(
                "\(file.location(of: call, root: root)): an object fetched by identifier with no type the code names; not read as a site")
            return nil
        }
        guard var site = makeSite(request, api: .byIdentifier, swiftData: swiftData, node: Syntax(call), file: file) else { return nil }
        site.predicate = "SELF == $object"
        site.variables = ["object": ["object": .string(site.entity), "index": .int(0)]]
        if let name = boundName(ExprSyntax(call)), let scope = bindingScope(call) {
            site.resultName = name
            // A site is made only for an entity of the model (makeSite).
            // swift-format-ignore: NeverForceUnwrap
            var collector = ReadCollector(index: index, root: root, entity: entity(of: site)!)
            collector.object(named: name, in: scope, file: file)
            site.reads = collector.reads
        }
        return site
    }

    /// Where a local bound from `node` is visible: the `if`/`guard`'s scope for an optional binding, else the function.
    private func bindingScope(_ node: some SyntaxProtocol) -> Syntax? {
        if let condition = Self.outermost(Syntax(node)).parent?.parent?.as(OptionalBindingConditionSyntax.self) {
            if let ifExpression = condition.ancestor(IfExprSyntax.self) { return Syntax(ifExpression.body) }
            if condition.ancestor(GuardStmtSyntax.self) != nil { return enclosingScope(node) }
        }
        return enclosingScope(node)
    }

    // MARK: Results

    /// Where a fetch's results go: a local (`let trips = try context.fetch(d)`), a property of the type
    /// (`trips = try ...`), a `for` loop, or back to the caller.
    private mutating func results(of fetch: FunctionCallExprSyntax, into site: inout FetchSite, file: SourceFile) {
        guard site.result == "objects" else { return }
        let outer = Self.outermost(Syntax(fetch))
        if let loop = outer.parent?.as(ForStmtSyntax.self), loop.sequence.id == outer.id {
            // A site is made only for an entity of the model (makeSite).
            // swift-format-ignore: NeverForceUnwrap
            var collector = ReadCollector(index: index, root: root, entity: entity(of: site)!)
            collector.loop(loop, file: file)
            site.reads = collector.reads
            return
        }
        if let name = boundName(ExprSyntax(fetch)), let scope = bindingScope(fetch) {
            site.resultName = name
            collectReads(&site, collection: name, scope: scope, file: file)
            return
        }
        // `outermost` of an expression is an expression.
        // swift-format-ignore: NeverForceUnwrap
        if let property = assignedProperty(ExprSyntax(outer)!), let type = enclosingType(fetch) {
            site.resultName = property
            collectReads(&site, collection: property, scope: Syntax(type.members), file: file)
            site.notes.append("results kept in \(type.name).\(property): reads outside \(type.name) are not followed")
            return
        }
        if outer.parent?.is(ReturnStmtSyntax.self) == true || outer.parent?.parent?.parent?.is(ClosureExprSyntax.self) == true {
            site.notes.append("results returned to the caller: their reads are not followed")
        }
    }

    private mutating func collectReads(_ site: inout FetchSite, collection name: String, scope: Syntax, file: SourceFile) {
        guard let entity = entity(of: site) else { return }
        var collector = ReadCollector(index: index, root: root, entity: entity)
        collector.collection(named: name, in: scope, file: file)
        site.reads = collector.reads
        if collector.lazy { site.rowsRead = 20 }
        site.notes += collector.notes
    }

    /// `controller.fetchedObjects` and `controller.object(at:)` in the type that keeps the controller.
    private mutating func controllerReads(_ site: inout FetchSite, controller: String, scope: Syntax, file: SourceFile) {
        guard let entity = entity(of: site) else { return }
        var collector = ReadCollector(index: index, root: root, entity: entity)
        for access in scope.descendants(MemberAccessExprSyntax.self) {
            guard let base = access.base?.trimmedDescription, base == controller || base == "self.\(controller)" else { continue }
            let member = access.declName.baseName.text
            if member == "fetchedObjects", let name = boundName(ExprSyntax(access)), let local = enclosingScope(access) {
                collector.collection(named: name, in: local, file: file)
            } else if member == "object", let call = access.parent?.as(FunctionCallExprSyntax.self), let name = boundName(ExprSyntax(call)),
                let local = enclosingScope(call)
            {
                collector.object(named: name, in: local, file: file)
            }
        }
        site.reads = collector.reads
        // A table view draws the rows on screen.
        if !site.reads.isEmpty { site.rowsRead = 20 }
    }

    // MARK: Describing a request

    /// Reads a descriptor or request expression: `FetchDescriptor<Trip>(predicate:sortBy:)`, `Item.fetchRequest()`,
    /// or a static member naming one (`Self.recent`, `Trip.recentDescriptor`), with the settings assigned in it.
    private mutating func describe(
        _ expression: ExprSyntax, into request: inout Request, from type: TypeScope?, file: SourceFile,
        consumed: inout Set<SyntaxIdentifier>
    ) {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let callee = call.calledExpression.trimmedDescription
            if TypeShape.lastComponent(callee.split(separator: "<").first.map(String.init) ?? callee) == "FetchDescriptor" {
                if let generic = Self.genericArgument(call.calledExpression) { request.entity = generic }
                for argument in call.arguments {
                    switch argument.label?.text {
                    case "predicate":
                        request.predicate = argument.expression
                        request.predicateScope = enclosingScope(call)
                        if request.entity == nil, let macro = argument.expression.as(MacroExpansionExprSyntax.self),
                            let generic = macro.genericArgumentClause?.arguments.first?.trimmedDescription
                        {
                            request.entity = TypeShape.lastComponent(generic)
                        }
                    case "sortBy":
                        request.sort = sortKeys(argument.expression)
                    default:
                        break
                    }
                }
                return
            }
            if let access = call.calledExpression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "fetchRequest" {
                request.entity = access.base.map { TypeShape.lastComponent($0.trimmedDescription) }
                return
            }
        }
        // A static member: `Self.recent`, `Trip.recent`, `recent`.
        let text = expression.trimmedDescription
        let parts = text.split(separator: ".").map(String.init)
        let member = parts.last ?? text
        let owner = parts.count >= 2 ? parts[parts.count - 2] : nil
        let ownerName = owner == nil || owner == "Self" ? type?.name : owner
        guard let ownerName, let found = index.staticMember(member, of: ownerName) else {
            request.notes.append("its descriptor '\(text)' is not found in the sources: run as a plain fetch")
            return
        }
        let body = Syntax(found.decl)
        for call in body.descendants(FunctionCallExprSyntax.self) { consumed.insert(call.id) }
        guard
            let creation = body.descendants(FunctionCallExprSyntax.self).first(where: { call in
                let name = TypeShape.lastComponent(
                    call.calledExpression.trimmedDescription.split(separator: "<").first.map(String.init) ?? "")
                return ["FetchDescriptor", "NSFetchRequest"].contains(name)
                    || call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "fetchRequest"
            })
        else { return }
        describe(ExprSyntax(creation), into: &request, from: type, file: found.file, consumed: &consumed)
        if TypeShape.lastComponent(creation.calledExpression.trimmedDescription.split(separator: "<").first.map(String.init) ?? "")
            == "NSFetchRequest"
        {
            request.entity = Self.genericArgument(creation.calledExpression) ?? request.entity
        }
        if let bound = boundName(ExprSyntax(creation)) { mutations(of: bound, in: body, into: &request) }
    }

    /// The settings assigned to `name` in `scope`: `descriptor.fetchLimit = 20`, `request.predicate = ...`.
    private func mutations(of name: String, in scope: Syntax, into request: inout Request) {
        for sequence in scope.descendants(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self) || elements[1].trimmedDescription == "+=",
                let access = elements[0].as(MemberAccessExprSyntax.self),
                let base = access.base?.trimmedDescription, base == name || base == "self.\(name)"
            else { continue }
            apply(
                access.declName.baseName.text, elements[2], appending: elements[1].trimmedDescription == "+=", into: &request, scope: scope)
        }
        // descriptor.relationshipKeyPathsForPrefetching.append(\.x)
        for call in scope.descendants(FunctionCallExprSyntax.self) {
            guard let access = call.calledExpression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "append",
                let property = access.base?.as(MemberAccessExprSyntax.self), property.base?.trimmedDescription == name,
                let argument = call.arguments.first?.expression
            else { continue }
            apply(property.declName.baseName.text, argument, appending: true, into: &request, scope: scope)
        }
    }

    private func apply(_ property: String, _ value: ExprSyntax, appending: Bool, into request: inout Request, scope: Syntax) {
        let text = value.trimmedDescription
        switch property {
        case "fetchLimit": request.limit = Int(text)
        case "fetchOffset": request.offset = Int(text)
        case "fetchBatchSize": request.batchSize = Int(text)
        case "relationshipKeyPathsForPrefetching":
            let names = value.is(ArrayExprSyntax.self) ? keyPathList(value) : [keyPathNames(value).joined(separator: ".")]
            request.prefetch = (appending ? request.prefetch : []) + names.filter { !$0.isEmpty }
        case "propertiesToFetch":
            request.propertiesToFetch = (appending ? request.propertiesToFetch : []) + keyPathList(value)
        case "predicate":
            request.predicate = value
            request.predicateScope = scope
        case "sortBy", "sortDescriptors":
            request.sort = sortKeys(value)
        case "returnsObjectsAsFaults":
            request.faults = text == "true" ? true : text == "false" ? false : nil
        case "resultType":
            if text.contains("managedObjectID") { request.result = "ids" }
            if text.contains("count") { request.result = "count" }
            if text.contains("dictionary") { request.notes.append("a dictionary result type: run as objects") }
        case "includesPropertyValues", "includePendingChanges", "includesSubentities", "includesPendingChanges",
            "shouldRefreshRefetchedObjects":
            break
        default:
            request.notes.append("its \(property) is not read")
        }
    }

    // MARK: Making the site

    private mutating func makeSite(_ request: Request, api: FetchSite.API, swiftData: Bool, node: Syntax, file: SourceFile) -> FetchSite? {
        let location = file.location(of: node, root: root)
        guard let name = request.entity else {
            notes.append("\(location): a \(api.rawValue) whose entity the code does not name; not read as a site")
            return nil
        }
        guard let (entity, isSwiftData) = models.entity(name, swiftData: swiftData) else {
            notes.append("\(location): a \(api.rawValue) of \(name), which no model read declares; not read as a site")
            return nil
        }
        var site = FetchSite(
            api: api, isSwiftData: isSwiftData, file: SwiftSources.relative(file.path, to: root), line: file.line(of: node),
            context: contextName(node), entity: entity.name)
        // Keys that are no stored property (persistentModelID, a computed property) cannot be run: left out, said.
        site.sort = request.sort.filter { key in
            let known = Self.resolves(key.hasPrefix("-") ? String(key.dropFirst()) : key, from: entity)
            if !known { site.notes.append("sorted by \(key), which is no stored property of \(entity.name): run unsorted by it") }
            return known
        }
        site.limit = request.limit
        site.offset = request.offset
        site.batchSize = request.batchSize
        site.prefetch = request.prefetch.filter { path in
            let known = Self.resolves(path, from: entity)
            if !known { site.notes.append("prefetches \(path), which is no relationship of \(entity.name): left out") }
            return known
        }
        site.propertiesToFetch = request.propertiesToFetch
        site.faults = request.faults
        site.result = request.result
        site.notes = request.notes
        if !request.propertiesToFetch.isEmpty {
            site.notes.append(
                "propertiesToFetch \(request.propertiesToFetch.joined(separator: ", ")): ObjectGraph fetches whole rows, so the scenario runs without it"
            )
        }
        if let predicate = request.predicate { translate(predicate, scope: request.predicateScope, entity: entity, into: &site) }
        return site
    }

    private func translate(_ predicate: ExprSyntax, scope: Syntax?, entity: EntityDescription, into site: inout FetchSite) {
        var expression = predicate
        // A predicate built in a local first: `let predicate = #Predicate<Trip> { ... }`.
        if let reference = expression.as(DeclReferenceExprSyntax.self), let scope {
            for binding in scope.descendants(PatternBindingSyntax.self) where binding.pattern.trimmedDescription == reference.baseName.text
            {
                if let value = binding.initializer?.value { expression = value }
            }
        }
        var translator = PredicateTranslator(entity: entity)
        do {
            if let macro = expression.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Predicate" {
                site.predicate = try translator.translate(predicateMacro: macro)
            } else if let call = expression.as(FunctionCallExprSyntax.self),
                TypeShape.lastComponent(call.calledExpression.trimmedDescription) == "NSPredicate"
            {
                if call.arguments.first?.label?.text == "value" {
                    site.predicate = call.arguments.first?.expression.trimmedDescription == "true" ? nil : "FALSEPREDICATE"
                    return
                }
                site.predicate = try translator.translate(formatCall: call)
            } else {
                // The expression is quoted before the reason (one line, whitespace collapsed).
                throw PredicateTranslator.Unsupported(reason: "it is built elsewhere")
            }
            site.variables = translator.variables
        } catch let unsupported as PredicateTranslator.Unsupported {
            site.predicate = nil
            let written = expression.trimmedDescription.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            site.predicateSkipped = "\(written.prefix(100))\(written.count > 100 ? "…" : ""): \(unsupported.reason)"
        } catch {
            site.predicateSkipped = "\(error)"
        }
    }

    /// Whether `path` names stored properties of `entity` all the way.
    static func resolves(_ path: String, from entity: EntityDescription) -> Bool {
        var current: EntityDescription? = entity
        for part in path.split(separator: ".").map(String.init) {
            guard let now = current else { return false }
            if let relationship = now.relationship(part) {
                current = relationship.destination
            } else if now.attribute(part) != nil || now.derivedAttribute(part) != nil {
                current = nil
            } else {
                return false
            }
        }
        return true
    }

    func entity(of site: FetchSite) -> EntityDescription? {
        models.entity(site.entity, swiftData: site.isSwiftData)?.0
    }

    // MARK: Syntax helpers

    struct TypeScope {
        let name: String
        let members: MemberBlockSyntax
    }

    private func enclosingType(_ node: some SyntaxProtocol) -> TypeScope? {
        var current = node.parent
        while let parent = current {
            if let decl = parent.as(StructDeclSyntax.self) { return TypeScope(name: decl.name.text, members: decl.memberBlock) }
            if let decl = parent.as(ClassDeclSyntax.self) { return TypeScope(name: decl.name.text, members: decl.memberBlock) }
            if let decl = parent.as(ExtensionDeclSyntax.self) {
                return TypeScope(name: TypeShape.lastComponent(decl.extendedType.trimmedDescription), members: decl.memberBlock)
            }
            if let decl = parent.as(EnumDeclSyntax.self) { return TypeScope(name: decl.name.text, members: decl.memberBlock) }
            if let decl = parent.as(ActorDeclSyntax.self) { return TypeScope(name: decl.name.text, members: decl.memberBlock) }
            current = parent.parent
        }
        return nil
    }

    /// The body of the function, initializer, accessor or closure around `node`; the type's members for a stored
    /// property's initial value.
    private func enclosingScope(_ node: some SyntaxProtocol) -> Syntax? {
        var current = node.parent
        while let parent = current {
            if let function = parent.as(FunctionDeclSyntax.self) { return function.body.map(Syntax.init) }
            if let initializer = parent.as(InitializerDeclSyntax.self) { return initializer.body.map(Syntax.init) }
            if let accessor = parent.as(AccessorBlockSyntax.self) { return Syntax(accessor) }
            if parent.is(MemberBlockSyntax.self) { return parent }
            if parent.is(SourceFileSyntax.self) { return parent }
            current = parent.parent
        }
        return nil
    }

    private func isStatic(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current, !parent.is(MemberBlockSyntax.self) {
            if let variable = parent.as(VariableDeclSyntax.self) { return variable.modifiers.contains { $0.name.text == "static" } }
            if let function = parent.as(FunctionDeclSyntax.self) { return function.modifiers.contains { $0.name.text == "static" } }
            current = parent.parent
        }
        return false
    }

    /// A fetch of a static descriptor anywhere: `context.fetch(Trip.recent)`.
    private func files(fetchingStatic name: String) -> FunctionCallExprSyntax? {
        for declarations in index.types.values {
            for declaration in declarations {
                for call in Syntax(declaration.members).descendants(FunctionCallExprSyntax.self) where Self.isFetchCall(call) {
                    if let first = call.arguments.first?.expression.trimmedDescription, first == name || first.hasSuffix(".\(name)") {
                        return call
                    }
                }
            }
        }
        return nil
    }

    /// The expression around `node` that still holds its value: through `try`, `await`, parentheses, `as? T` and
    /// `?? default`.
    static func outermost(_ node: Syntax) -> Syntax {
        var outer = node
        while let parent = outer.parent {
            if parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) || parent.is(AsExprSyntax.self) {
                outer = parent
            } else if let tuple = parent.as(LabeledExprSyntax.self), tuple.label == nil,
                let list = tuple.parent?.as(LabeledExprListSyntax.self), list.count == 1,
                let wrapper = list.parent?.as(TupleExprSyntax.self)
            {
                outer = Syntax(wrapper)
            } else if let list = parent.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self),
                list.first?.id == outer.id, list.count == 3,
                Array(list)[1].is(UnresolvedAsExprSyntax.self) || Array(list)[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??"
            {
                outer = Syntax(sequence)
            } else {
                break
            }
        }
        return outer
    }

    /// The type `x as? Trip` (or `as! Trip`) casts `node`'s value to.
    static func castType(_ node: Syntax) -> String? {
        var outer = node
        while let parent = outer.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { outer = parent }
        if let cast = outer.parent?.as(AsExprSyntax.self) { return cast.type.trimmedDescription }
        if let list = outer.parent?.as(ExprListSyntax.self), list.count == 3, list.first?.id == outer.id,
            Array(list)[1].is(UnresolvedAsExprSyntax.self)
        {
            return Array(list)[2].trimmedDescription
        }
        return nil
    }

    /// The local an expression initializes: `let trips = <expression>`, `if let trip = <expression>`.
    private func boundName(_ expression: ExprSyntax) -> String? {
        let outer = Self.outermost(Syntax(expression))
        guard let clause = outer.parent?.as(InitializerClauseSyntax.self) else { return nil }
        if let binding = clause.parent?.as(PatternBindingSyntax.self) {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        if let condition = clause.parent?.as(OptionalBindingConditionSyntax.self) {
            return condition.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        return nil
    }

    /// The property an expression is assigned to: `trips = try ...`, `self.trips = try ...`.
    private func assignedProperty(_ expression: ExprSyntax) -> String? {
        var outer = Syntax(expression)
        while let parent = outer.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { outer = parent }
        guard let sequence = outer.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(sequence.elements)
        guard elements.count == 3, elements[1].is(AssignmentExprSyntax.self), elements[2].id == outer.id else { return nil }
        let target = elements[0].trimmedDescription
        return target.hasPrefix("self.") ? String(target.dropFirst(5)) : target
    }

    /// The element type a fetch's result is declared as: `let trips: [Trip] = try context.fetch(...)`.
    private func resultType(of fetch: FunctionCallExprSyntax) -> String? {
        var outer = Syntax(fetch)
        while let parent = outer.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) { outer = parent }
        guard let binding = outer.parent?.parent?.as(PatternBindingSyntax.self), let type = binding.typeAnnotation?.type else { return nil }
        return Self.elementType(type.trimmedDescription)
    }

    static func isFetchCall(_ call: FunctionCallExprSyntax) -> Bool {
        guard let access = call.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
        let name = access.declName.baseName.text
        let label = call.arguments.first?.label?.text
        return ["fetch", "fetchCount", "fetchIdentifiers", "enumerate"].contains(name) && label == nil
            || name == "count" && label == "for" || name == "execute" && label == nil
    }

    /// `Trip` for `[Trip]`, `FetchedResults<Trip>`, `SectionedFetchResults<String, Trip>`, `Trip?`.
    static func elementType(_ text: String) -> String? {
        switch TypeShape(text).unwrapped.shape {
        case let .array(element), let .set(element):
            if case let .named(name) = element.unwrapped.shape { return TypeShape.lastComponent(name) }
            return nil
        case let .named(name):
            if let open = name.firstIndex(of: "<"), name.hasSuffix(">") {
                let arguments = TypeShape.splitTopLevel(String(name[name.index(after: open)..<name.index(before: name.endIndex)]))
                return arguments.last.map { TypeShape.lastComponent($0) }
            }
            return TypeShape.lastComponent(name)
        default:
            return nil
        }
    }

    /// `Trip` for `FetchDescriptor<Trip>` or `NSFetchRequest<Trip>`.
    static func genericArgument(_ callee: ExprSyntax) -> String? {
        let text = callee.trimmedDescription
        guard let open = text.firstIndex(of: "<"), text.hasSuffix(">") else { return nil }
        return TypeShape.lastComponent(String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }

    /// `destination.name` for `\Trip.destination?.name` or `\.destination`.
    func keyPathNames(_ expression: ExprSyntax) -> [String] {
        if let string = PredicateTranslator.stringLiteral(expression) { return string.split(separator: ".").map(String.init) }
        let text = expression.trimmedDescription.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
        guard text.hasPrefix("\\") else { return [] }
        var parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let first = parts.first, !first.isEmpty { parts.removeFirst() } else if parts.first == "" { parts.removeFirst() }
        return parts.filter { !$0.isEmpty }
    }

    private func keyPathList(_ expression: ExprSyntax) -> [String] {
        guard let array = expression.as(ArrayExprSyntax.self) else { return [] }
        return array.elements.map { keyPathNames($0.expression).joined(separator: ".") }.filter { !$0.isEmpty }
    }

    /// Sort keys of `[SortDescriptor(\Trip.date, order: .reverse)]`, `[NSSortDescriptor(key: "name", ascending: false)]`,
    /// `SortDescriptor(\.name)` or `\Trip.date`, `-` for descending.
    func sortKeys(_ expression: ExprSyntax) -> [String] {
        let items: [ExprSyntax] = expression.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [expression]
        return items.compactMap { item in
            guard let call = item.as(FunctionCallExprSyntax.self) else {
                let names = keyPathNames(item)
                return names.isEmpty ? nil : names.joined(separator: ".")
            }
            var key: [String] = []
            var descending = false
            for argument in call.arguments {
                switch argument.label?.text {
                case nil, "keyPath", "key": key = keyPathNames(argument.expression)
                case "order": descending = argument.expression.trimmedDescription.hasSuffix("reverse")
                case "ascending": descending = argument.expression.trimmedDescription == "false"
                default: break
                }
            }
            return key.isEmpty ? nil : (descending ? "-" : "") + key.joined(separator: ".")
        }
    }

    /// `TripListView`, `TripStore.load()`, `top level`.
    private func contextName(_ node: Syntax) -> String {
        let function = node.ancestor(FunctionDeclSyntax.self).map { $0.name.text + "()" }
        let type = enclosingType(node)?.name
        switch (type, function) {
        case let (type?, function?): return "\(type).\(function)"
        case let (type?, nil): return type
        case let (nil, function?): return function
        default: return "top level"
        }
    }

    /// Whether `node` is preview code (`#Preview { ... }`, a `PreviewProvider`): not a screen of the app.
    static func isPreview(_ node: some SyntaxProtocol) -> Bool {
        var current = node.parent
        while let parent = current {
            if let macro = parent.as(MacroExpansionExprSyntax.self), macro.macroName.text == "Preview" { return true }
            if let macro = parent.as(MacroExpansionDeclSyntax.self), macro.macroName.text == "Preview" { return true }
            if let type = parent.as(StructDeclSyntax.self),
                type.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "PreviewProvider" }) == true
            {
                return true
            }
            current = parent.parent
        }
        return false
    }
}
#endif
