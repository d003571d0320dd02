/// How a relationship is modelled: what lands on disk and which SQL reads it. Scenario files name these as the
/// values of a `modelling` variant (`"change": "modelling"`), the same names in every report, claim and plot.
package enum Modelling: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case manyToOne = "many-to-one"
    case manyToMany = "many-to-many"
    case manyToNil = "many-to-nil"
    case manyToNilUnindexed = "many-to-nil-unindexed"
    case manualFK = "manual-fk"
    case manualFKUnindexed = "manual-fk-unindexed"
    case oneToOne = "one-to-one"
    case oneToNil = "one-to-nil"

    package var description: String { rawValue }

    /// One sentence for `bench list`, with the school's relationships as examples.
    package var summary: String {
        switch self {
        case .manyToOne: return "a to-many with a to-one inverse (Class.students <-> Student.class): a key on the member, indexed"
        case .manyToMany: return "a to-many with a to-many inverse: a join table with a reverse index"
        case .manyToNil: return "a to-many without inverse: a hidden owner column on the member, one owner per row"
        case .manyToNilUnindexed:
            return "many-to-nil without the index on the hidden owner column (whether Core Data indexes that column is inferred)"
        case .manualFK:
            return "no relationship: each member keeps its owner's UUID (seed 003's hand-kept key), indexed; members found by fetch"
        case .manualFKUnindexed: return "manual-fk without the index on the kept key"
        case .oneToOne: return "a to-one with a to-one inverse (Student.address <-> Address.student): a key on both sides"
        case .oneToNil: return "a to-one without inverse: a key on the source only"
        }
    }

    /// Whether the modelling is of a to-one relationship (Student.address) rather than a to-many.
    package var isToOne: Bool { self == .oneToOne || self == .oneToNil }
}
