/// Every statement the raw peer reads with, built once from the schema (ObjectGraph builds its fault and fetch
/// SQL once per relationship too; building text per owner would put string work in the floor's timed regions).
struct RawSchoolSQL {
    let students: String
    let studentsByName: String
    let studentIDsByName: String
    /// `... WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT ` + the batch size.
    let studentsInBatch: String
    /// One class's students (bind the class key, or its UUID for manual-fk).
    let membersOfClass: String
    /// Every listed class's students, ordered by class (`_Z_intarray0`); nil for manual-fk (a list of UUIDs).
    let membersOfClasses: String?
    /// `WHERE t0.ZCLASSID IN (` for manual-fk's prefetch; placeholders and `)` follow.
    let membersByClassIDPrefix: String?
    /// A class's student by name, `LIMIT 1`: nil where the modelling has no key on the student to match.
    let memberByName: String?
    let classes: String
    let classByName: String
    let classByKey: String
    let classesByKeys: String
    let addressByKey: String
    let addressesByKeys: String
    let subjectsOfStudent: String
    /// Every listed student's subjects, ordered by student; nil for many-to-nil subjects.
    let subjectsOfStudents: String?

    /// Result columns of the rows read.
    let studentName: Int32
    let studentAddress: Int32?
    /// The class key read with a member row: its own column, or the join row's (after the student's columns).
    let memberOwner: Int32?
    let studentClassKey: Int32?
    let className: Int32
    let classID: Int32
    let subjectName: Int32
    /// The student key read with a subject row of `subjectsOfStudents`.
    let subjectOwner: Int32
    let addressName: Int32

    init(_ schema: SchoolSchema) {
        let student = schema.student
        let schoolClass = schema.schoolClass
        let subject = schema.subject
        let address = schema.address
        students = student.select()
        studentsByName = student.select() + " ORDER BY t0.\(schema.studentName)"
        studentIDsByName = "SELECT t0.Z_PK FROM \(student.name) t0 ORDER BY t0.\(schema.studentName)"
        studentsInBatch = student.select() + " WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT "
        studentName = student.position(of: schema.studentName)
        studentAddress = student.rowColumns.contains(schema.addressKey) ? student.position(of: schema.addressKey) : nil
        switch schema.membership {
        case let .ownerColumn(column):
            membersOfClass = student.select() + " WHERE t0.\(column) = ?"
            membersOfClasses = student.select() + " WHERE t0.\(column) IN (SELECT * FROM _Z_intarray0) ORDER BY t0.\(column)"
            membersByClassIDPrefix = nil
            memberByName =
                schema.modelling.membership == .manyToOne
                ? student.select() + " WHERE (t0.\(column) = ? AND t0.\(schema.studentName) = ?) LIMIT 1" : nil
            memberOwner = student.position(of: column)
            studentClassKey = memberOwner
        case let .joinTable(join):
            let select = student.select(extra: ", t1.\(join.ownerColumn)") + " JOIN \(join.table) t1 ON t0.Z_PK = t1.\(join.memberColumn)"
            membersOfClass = select + " WHERE t1.\(join.ownerColumn) = ?"
            membersOfClasses = select + " WHERE t1.\(join.ownerColumn) IN (SELECT * FROM _Z_intarray0) ORDER BY t1.\(join.ownerColumn)"
            membersByClassIDPrefix = nil
            memberByName = nil
            memberOwner = Int32(3 + student.rowColumns.count)
            studentClassKey = nil
        case let .classID(column):
            membersOfClass = student.select() + " WHERE t0.\(column) = ?"
            membersOfClasses = nil
            membersByClassIDPrefix = student.select() + " WHERE t0.\(column) IN ("
            memberByName = student.select() + " WHERE (t0.\(column) = ? AND t0.\(schema.studentName) = ?) LIMIT 1"
            memberOwner = nil
            studentClassKey = nil
        }
        classes = schoolClass.select() + " ORDER BY t0.\(schema.className)"
        classByName = schoolClass.select() + " WHERE t0.\(schema.className) = ? LIMIT 1"
        classByKey = schoolClass.select() + " WHERE t0.Z_PK = ? LIMIT 1"
        classesByKeys = schoolClass.select() + " WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)"
        className = schoolClass.position(of: schema.className)
        classID = schoolClass.position(of: schema.classUUID)
        addressByKey = address.select() + " WHERE t0.Z_PK = ? LIMIT 1"
        addressesByKeys = address.select() + " WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)"
        addressName = address.position(of: schema.addressName)
        subjectName = subject.position(of: schema.subjectName)
        switch schema.subjects {
        case let .joinTable(join):
            // The to-many fault's join order, so that "the first subject" is the one ObjectGraph reads first.
            subjectsOfStudent =
                "SELECT 0, t0.Z_PK, t0.Z_OPT" + subject.rowColumns.map { ", t0." + $0 }.joined()
                + " FROM \(join.table) t1 JOIN \(subject.name) t0 ON t0.Z_PK = t1.\(join.memberColumn) WHERE t1.\(join.ownerColumn) = ?"
            subjectsOfStudents =
                subject.select(extra: ", t1.\(join.ownerColumn)") + " JOIN \(join.table) t1 ON t0.Z_PK = t1.\(join.memberColumn)"
                + " WHERE t1.\(join.ownerColumn) IN (SELECT * FROM _Z_intarray0) ORDER BY t1.\(join.ownerColumn)"
        case let .ownerColumn(column):
            subjectsOfStudent = subject.select() + " WHERE t0.\(column) = ?"
            subjectsOfStudents = nil
        }
        subjectOwner = Int32(3 + subject.rowColumns.count)
    }
}
