import Foundation

/// SQLite's own plan for the statement a fetch runs, for advice that quotes it.
extension PersistentStore {
    /// SQLite's plan (EXPLAIN QUERY PLAN, one step a line, indented by depth) for the SELECT that fetching `request`
    /// runs on this store; nothing is fetched. `$variables` the predicate still holds are given placeholder values,
    /// a text first, then a number, since a plan depends on the columns compared and not on the values.
    package func fetchPlan(_ request: FetchRequest) throws -> [String] {
        let entity = try model.requireEntity(request.entityName)
        var planned = request
        if let predicate = request.predicate, !predicate.variableNames.isEmpty {
            let names = predicate.variableNames
            let placeholders: [[String: any PredicateArgument]] = [
                Dictionary(uniqueKeysWithValues: names.map { ($0, "x" as any PredicateArgument) }),
                Dictionary(uniqueKeysWithValues: names.map { ($0, 0 as any PredicateArgument) }),
            ]
            var lastError: (any Error)?
            for values in placeholders {
                do {
                    planned.predicate = try predicate.substituting(values)
                    let query = try QueryCompiler.compile(planned, entity: entity, model: model, mode: .rows)
                    return connection.queryPlan(query.sql).map(Self.stepText)
                } catch { lastError = error }
            }
            throw lastError ?? ObjectGraphError.invalidPredicate("no placeholder fits the predicate's variables")
        }
        let query = try QueryCompiler.compile(planned, entity: entity, model: model, mode: .rows)
        return connection.queryPlan(query.sql).map(Self.stepText)
    }

    /// `  plan: SEARCH t0 USING INDEX ...` → `  SEARCH t0 USING INDEX ...` (the indentation kept).
    private static func stepText(_ line: String) -> String {
        guard let range = line.range(of: "plan: ") else { return line }
        return line.replacingCharacters(in: range, with: "")
    }
}
