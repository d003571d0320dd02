import ObjectGraph

/// The school's tables and columns for one modelling, read from ObjectGraph's compiled model, so that every peer
/// stores and reads exactly the tables Core Data would create for it.
struct SchoolSchema: Sendable {
    struct Table: Sendable {
        let name: String
        let entity: Int
        /// The columns a fetch selects after Z_PK and Z_OPT, in Core Data's order.
        let rowColumns: [String]

        init(_ entity: EntityDescription) {
            name = entity.tableName
            self.entity = entity.number
            rowColumns = entity.rowColumnNames
        }

        /// `SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, ... FROM ZSTUDENT t0` (plus `extra` result columns).
        func select(extra: String = "") -> String {
            "SELECT 0, t0.Z_PK, t0.Z_OPT" + rowColumns.map { ", t0." + $0 }.joined() + extra + " FROM \(name) t0"
        }

        /// The result column of `column` in `select()`.
        func position(of column: String) -> Int32 {
            // Asked only for columns the select lists.
            // swift-format-ignore: NeverForceUnwrap
            Int32(3 + rowColumns.firstIndex(of: column)!)
        }
    }

    /// A join table as the primary side writes it.
    struct Join: Sendable {
        let table: String
        let ownerColumn: String
        let memberColumn: String
        /// Whether the owner's column comes first in the table's primary key (the side that names the table).
        let ownerIsPrimary: Bool

        /// The join table of `relationship`; nil when it has none (it is kept in a column).
        init?(_ relationship: RelationshipDescription) {
            guard let join = relationship.joinTable else { return nil }
            table = join.tableName
            ownerColumn = join.sourceColumn
            memberColumn = join.destinationColumn
            ownerIsPrimary = join.isPrimarySide
        }

        /// `INSERT OR REPLACE INTO <table>(<first>, <second>) VALUES (?, ?)`, binding the owner first.
        var insert: String {
            "INSERT OR REPLACE INTO \(table)(\(ownerColumn), \(memberColumn)) VALUES (?, ?)"
        }
    }

    /// How a class's students are found.
    enum Membership: Sendable {
        /// A key on the student: the inverse's foreign key (many-to-one) or the hidden owner column (many-to-nil).
        case ownerColumn(String)
        case joinTable(Join)
        /// The class's UUID kept on the student (manual-fk).
        case classID(String)
    }

    /// How a student's subjects are found.
    enum Subjects: Sendable {
        case joinTable(Join)
        /// The hidden owner column on the subject (many-to-nil).
        case ownerColumn(String)
    }

    let modelling: SchoolModelling
    let student, schoolClass, subject, address: Table
    let membership: Membership
    let subjects: Subjects
    /// ZSTUDENT's key of its address.
    let addressKey: String
    /// ZADDRESS's key of its student (one-to-one); nil without inverse.
    let addressOwner: String?
    let studentName, className, classUUID, subjectName, addressName: String

    /// The tables of `school`'s model.
    init?(_ school: School, model: ObjectModel) {
        modelling = school.modelling
        student = Table(school.student)
        schoolClass = Table(school.schoolClass)
        subject = Table(school.subject)
        address = Table(school.address)
        switch (school.classStudents, school.manualMembership) {
        case let (students?, _):
            if let join = Join(students) { membership = .joinTable(join) } else { membership = .ownerColumn(students.columnName) }
        case let (nil, manual?): membership = .classID(manual.memberKey.columnName)
        case (nil, nil): return nil
        }
        if let join = Join(school.studentSubjects) {
            subjects = .joinTable(join)
        } else {
            subjects = .ownerColumn(school.studentSubjects.columnName)
        }
        addressKey = school.studentAddress.columnName
        addressOwner = school.addressStudent?.columnName
        studentName = school.studentName.columnName
        className = school.className.columnName
        classUUID = school.classUUID.columnName
        subjectName = school.subjectName.columnName
        addressName = school.addressName.columnName
        schemaSQL = model.schemaSQL
        entities = model.entities.map { ($0.number, $0.name) }
    }

    /// The tables of `model`, a variant of the School model (nil when it is not one).
    init?(model: ObjectModel, manualKeys: [ManualKey]) {
        guard let school = School(model: model, manualKeys: manualKeys) else { return nil }
        self.init(school, model: model)
    }

    /// The DDL Core Data would run, in its order.
    let schemaSQL: [String]
    /// Z_PRIMARYKEY's rows: entity number and name.
    let entities: [(number: Int, name: String)]
}
