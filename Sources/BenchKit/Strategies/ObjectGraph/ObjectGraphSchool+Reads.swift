import Foundation
import ObjectGraph

/// The read operations on ObjectGraph, written as a Core Data user would write them.
extension ObjectGraphSchool {
    public func fetchAllStudents() throws -> Checksum {
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request).array
        var checksum = Checksum()
        for object in students { checksum.add(try object.value(studentName).string ?? "") }
        kept.append(students)
        return checksum
    }

    public func walkClasses(prefetch: Bool) throws -> Checksum {
        var request = FetchRequest("Class", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        if prefetch, modelling.membership != .manualFK { request.relationshipKeyPathsForPrefetching = ["students"] }
        let classes = try context.fetch(request).array
        var checksum = Checksum()
        if modelling.membership == .manualFK {
            checksum = try walkByClassID(classes, prefetch: prefetch)
        } else {
            for owner in classes {
                if extraStatementPerOwner { _ = try context.count(for: FetchRequest("Class")) }
                for member in try owner.objects(classStudents!) { checksum.add(try member.value(studentName).string ?? "") }
            }
        }
        kept.append(classes)
        return checksum
    }

    /// Seed 003's way: members found by a fetch on the class's UUID, one per class; with "prefetch", one fetch
    /// of every student grouped in memory (what a user of manual keys does instead of prefetching).
    private func walkByClassID(_ classes: [ManagedObject], prefetch: Bool) throws -> Checksum {
        var checksum = Checksum()
        var members: [ManagedObject] = []
        if prefetch {
            let ids = try classes.map { try $0.value(classID) }
            var request = FetchRequest("Student", predicate: Key("classID").isIn(ids))
            request.returnsObjectsAsFaults = false
            var byClass: [Value: [ManagedObject]] = [:]
            for member in try context.fetch(request) { byClass[try member.value(studentClassID!), default: []].append(member) }
            for owner in classes {
                for member in byClass[try owner.value(classID)] ?? [] { checksum.add(try member.value(studentName).string ?? "") }
            }
            members = byClass.values.flatMap { $0 }
        } else {
            for owner in classes {
                var request = FetchRequest("Student", predicate: Key("classID") == (try owner.value(classID)))
                request.returnsObjectsAsFaults = false
                for member in try context.fetch(request) {
                    checksum.add(try member.value(studentName).string ?? "")
                    members.append(member)
                }
            }
        }
        kept.append(members)
        return checksum
    }

    public func findStudent(className name: String, studentName target: String, byFetch: Bool) throws -> Bool {
        let lookup = store.makeContext()
        var classRequest = FetchRequest("Class", predicate: Key("name") == .string(name))
        classRequest.returnsObjectsAsFaults = false
        classRequest.fetchLimit = 1
        guard let owner = try lookup.fetch(classRequest).first else { return false }
        let found: ManagedObject?
        if byFetch {
            // Option 2: a fetch request with a predicate and a limit of 1.
            if modelling.membership == .manyToMany || modelling.membership == .manyToNil {
                throw BenchError.unsupported("findStudent by fetch for a to-many without a to-one inverse")
            }
            let membership: FetchPredicate = modelling.membership == .manualFK
                ? Key("classID") == (try owner.value(classID)) : Key("class") == owner
            var request = FetchRequest("Student", predicate: membership && Key("name") == .string(target))
            request.returnsObjectsAsFaults = false
            request.fetchLimit = 1
            found = try lookup.fetch(request).first
        } else {
            // Option 1: walk class.students, each member an object fault of its own.
            if modelling.membership == .manualFK {
                var request = FetchRequest("Student", predicate: Key("classID") == (try owner.value(classID)))
                request.returnsObjectsAsFaults = false
                found = try lookup.fetch(request).first { try $0.value(studentName).string == target }
            } else {
                found = try owner.objects(classStudents!).first { try $0.value(studentName).string == target }
            }
        }
        kept.append(lookup)
        kept.append(owner)
        return found != nil
    }

    public func readPath(_ path: FaultPath, everyStudent: Bool) throws -> Checksum {
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request)
        var checksum = Checksum()
        for object in everyStudent ? Array(students) : Array(students.prefix(1)) {
            switch path {
            case .address:
                checksum.add(try object.object(studentAddress)?.value(addressName).string ?? "")
            case .firstSubject:
                checksum.add(try object.objects(studentSubjects).first?.value(subjectName).string ?? "")
            }
        }
        kept.append(students.array)
        return checksum
    }

    public func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum {
        let root = keyPath == .toMany || keyPath == .nested ? "Class" : "Student"
        var request = FetchRequest(root, sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        if prefetch {
            switch keyPath {
            case .toOne: request.relationshipKeyPathsForPrefetching = ["class"]
            case .toMany: request.relationshipKeyPathsForPrefetching = ["students"]
            case .manyToMany: request.relationshipKeyPathsForPrefetching = ["subjects"]
            case .nested: request.relationshipKeyPathsForPrefetching = ["students.address"]
            }
        }
        let roots = try context.fetch(request).array
        var checksum = Checksum()
        for object in roots {
            switch keyPath {
            case .toOne:
                checksum.add(try object.object(studentClass!)?.value(className).string ?? "")
            case .toMany:
                for member in try object.objects(classStudents!) { checksum.add(try member.value(studentName).string ?? "") }
            case .manyToMany:
                for member in try object.objects(studentSubjects) { checksum.add(try member.value(subjectName).string ?? "") }
            case .nested:
                for member in try object.objects(classStudents!) {
                    checksum.add(try member.object(studentAddress)?.value(addressName).string ?? "")
                }
            }
        }
        kept.append(roots)
        return checksum
    }

    public func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum {
        var request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        request.fetchBatchSize = batchSize
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request)
        var checksum = Checksum()
        let end = min(limit ?? students.count, students.count)
        for index in 0..<end { checksum.add(try students[index].value(studentName).string ?? "") }
        kept.append(students)
        return checksum
    }
}
