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

        init(_ relationship: RelationshipDescription) {
            let join = relationship.joinTable!
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

    /// The tables of `model`, a variant of the School model (nil when it is not one).
    init?(model: ObjectModel, manualKeys: [ManualKey]) {
        guard let modelling = SchoolModelling(model: model, manualKeys: manualKeys) else { return nil }
        self.modelling = modelling
        let studentEntity = model.entity("Student")!
        let classEntity = model.entity("Class")!
        let subjectEntity = model.entity("Subject")!
        let addressEntity = model.entity("Address")!
        guard let studentName = studentEntity.attribute("name"), let className = classEntity.attribute("name"),
            let classUUID = classEntity.attribute("id"), let subjectName = subjectEntity.attribute("name"),
            let addressName = addressEntity.attribute("name")
        else { return nil }
        student = Table(studentEntity)
        schoolClass = Table(classEntity)
        subject = Table(subjectEntity)
        address = Table(addressEntity)
        switch modelling.membership {
        case .manyToOne, .manyToNil: membership = .ownerColumn(classEntity.relationship("students")!.columnName)
        case .manyToMany: membership = .joinTable(Join(classEntity.relationship("students")!))
        case .manualFK:
            guard let classID = studentEntity.attribute("classID") else { return nil }
            membership = .classID(classID.columnName)
        }
        switch modelling.subjects {
        case .manyToMany: subjects = .joinTable(Join(studentEntity.relationship("subjects")!))
        case .manyToNil: subjects = .ownerColumn(studentEntity.relationship("subjects")!.columnName)
        }
        addressKey = studentEntity.relationship("address")!.columnName
        addressOwner = addressEntity.relationship("student")?.columnName
        self.studentName = studentName.columnName
        self.className = className.columnName
        self.classUUID = classUUID.columnName
        self.subjectName = subjectName.columnName
        self.addressName = addressName.columnName
        schemaSQL = model.schemaSQL
        entities = model.entities.map { ($0.number, $0.name) }
    }

    /// The DDL Core Data would run, in its order.
    let schemaSQL: [String]
    /// Z_PRIMARYKEY's rows: entity number and name.
    let entities: [(number: Int, name: String)]
}
