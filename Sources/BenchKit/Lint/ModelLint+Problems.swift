import ObjectGraph

extension ModelLint {
    /// What the reader skipped because the file is wrong, as findings: the store and every number measured lack it,
    /// so a model with one is not clean.
    static func problemFindings(_ problems: [XcodeModel.Problem]) -> [Finding] {
        problems.map { problem in
            let reason =
                problem.note.hasPrefix(problem.subject + ": ") ? String(problem.note.dropFirst(problem.subject.count + 2)) : problem.note
            let (rule, consequence, fix): (LintRule, String, String)
            switch problem.kind {
            case .unnamedProperty:
                rule = .modelUnnamedProperty
                consequence = "Xcode does not build a model with a nameless property, and RelBench leaves it out"
                fix = "name it in Xcode's model editor, or delete it."
            case .unknownAttributeType:
                rule = .modelUnknownAttributeType
                consequence = "Core Data knows no such type, so the store and every number RelBench gives lack this attribute"
                fix =
                    "choose one of Core Data's types (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary Data, UUID, URI, Transformable)."
            case .undefinedNotTransient:
                rule = .modelUndefinedNotTransient
                consequence = "Xcode does not build the model, and RelBench leaves the attribute out"
                fix = "give it a type, or make it transient."
            case .unsupportedDerivation:
                rule = .modelUnsupportedDerivation
                consequence = "the attribute is left out of the store, so nothing RelBench measures keeps it up to date"
                fix = "write the derivation in a form Core Data supports, or keep the value yourself in a stored attribute."
            case .missingDestination:
                rule = .modelMissingDestination
                consequence =
                    "Xcode does not build a model with such a relationship, and RelBench leaves it (and the links it would hold) out"
                fix = "set its destination to an entity of the model (check an entity renamed or removed in this version), or delete it."
            case .indexOnMissingProperty:
                rule = .modelIndexOnMissingProperty
                consequence = "the index is left out, so the fetches it was meant for are measured without it"
                fix = "name a stored attribute or to-one relationship of the entity in the index, or delete the index."
            }
            return Finding(rule: rule, subject: problem.subject, message: "\(reason): \(consequence).", fix: fix)
        }
    }
}
