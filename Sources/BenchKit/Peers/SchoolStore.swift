import Foundation

/// What a hand-written peer does with the school: the School model's operations (`SchoolOperation`) call these inside
/// their timed regions.
///
/// Operations leave what they read or made alive (in the store object) until `releaseObjects()`, which the
/// runner calls outside the timed region, so that tearing down objects is never timed for any strategy.
protocol SchoolStore: CounterSource {
    /// Drops every object and context the last operations kept (untimed).
    func releaseObjects()
    /// Rows the school's statements changed since it opened its database.
    var rowsChanged: Int { get }

    /// Classes and students, each student linked to its class; one save.
    func insertMembership(_ data: SchoolData) throws
    /// Students and their addresses, linked; one save.
    func insertAddresses(_ data: SchoolData) throws

    /// Fetches every student and reads each name.
    func fetchAllStudents() throws -> Checksum
    /// Fetches the classes by name and, for each, walks its students reading each name.
    func walkClasses(prefetch: Bool) throws -> Checksum
    /// Finds a student by name in a class: by walking the class's students, or by one fetch with a limit of 1.
    func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool
    /// Fetches every student (as the seed does), takes the first and reads `path`; or reads it for every student.
    func readPath(_ path: FaultPath, everyStudent: Bool) throws -> Checksum
    /// Fetches the root of `keyPath` and reads the destination names along it, prefetching or not.
    func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum
    /// Fetches students by name with a batch size (0: all at once) and reads the first `limit` names (nil: all).
    func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum
}

/// The seed's fault examples: `student.address.name` and `student.subjects.first.name`.
package enum FaultPath: String, Sendable {
    case address = "address.name"
    case firstSubject = "subjects.first.name"
}

/// The prefetch scenario's key paths, one per relationship kind.
package enum PrefetchPath: String, Sendable, CaseIterable {
    /// Student.class.
    case toOne = "to-one"
    /// Class.students.
    case toMany = "to-many"
    /// Student.subjects.
    case manyToMany = "many-to-many"
    /// Class.students.address.
    case nested = "nested"
}
