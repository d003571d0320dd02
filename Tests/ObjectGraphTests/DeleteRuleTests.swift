import Testing

@testable import ObjectGraph

/// Delete rules, applied at save: nullify, cascade (recursively), deny, no action.
@Suite struct DeleteRuleTests {
    /// Owner ↔ items with the given rule on `items`, and items → tags (cascade) to test recursion.
    private func model(_ rule: DeleteRule) throws -> ObjectModel {
        try ObjectModel([
            Entity("Owner", [.attribute("name", .string), .toMany("items", "Item", inverse: "owner", deleteRule: rule)]),
            Entity(
                "Item",
                [
                    .attribute("name", .string), .toOne("owner", "Owner", inverse: "items"),
                    .toMany("tags", "Tag", inverse: "item", deleteRule: .cascade),
                ]),
            Entity("Tag", [.attribute("name", .string), .toOne("item", "Item", inverse: "tags")]),
        ])
    }

    private func populate(_ temporary: TemporaryStore) throws {
        let context = temporary.store.makeContext()
        let owner = try context.insert("Owner")
        try owner.setValue("O", for: "name")
        for index in 0..<3 {
            let item = try context.insert("Item")
            try item.setValue(.string("I\(index)"), for: "name")
            try item.setObject(owner, for: "owner")
            let tag = try context.insert("Tag")
            try tag.setValue(.string("T\(index)"), for: "name")
            try tag.setObject(item, for: "item")
        }
        try context.save()
        try temporary.reopen()
    }

    private func counts(_ temporary: TemporaryStore) throws -> [Int64] {
        try ["ZOWNER", "ZITEM", "ZTAG"].map { try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM \($0)") ?? -1 }
    }

    private func deleteOwner(_ temporary: TemporaryStore) throws -> ObjectContext {
        let context = temporary.store.makeContext()
        let owner = try #require(try context.fetch(FetchRequest("Owner")).first)
        try context.delete(owner)
        return context
    }

    @Test func nullifyClearsTheInverse() throws {
        let temporary = try TemporaryStore(model(.nullify))
        try populate(temporary)
        let context = try deleteOwner(temporary)
        try context.save()
        #expect(try counts(temporary) == [0, 3, 3])
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZITEM WHERE ZOWNER IS NULL") == 3)
    }

    @Test func cascadeDeletesRecursively() throws {
        let temporary = try TemporaryStore(model(.cascade))
        try populate(temporary)
        let context = try deleteOwner(temporary)
        try context.save()
        #expect(try counts(temporary) == [0, 0, 0])
        #expect(context.counters[.delete] == 7)
    }

    @Test func denyFailsTheSaveAndChangesNothing() throws {
        let temporary = try TemporaryStore(model(.deny))
        try populate(temporary)
        let context = try deleteOwner(temporary)
        let owner = context.deletedObjects[0]
        #expect {
            try context.save()
        } throws: { error in
            guard case let ObjectGraphError.validation(object, property, reason) = error else { return false }
            return object.hasPrefix("Owner <x-coredata://") && property == "items" && reason.contains("Deny")
        }
        #expect(try counts(temporary) == [1, 3, 3])
        #expect(owner.isDeleted && context.hasChanges && context.deletedObjects.count == 1)
        // Emptying the relationship lets the delete through.
        for item in try owner.objects("items") { try context.delete(item) }
        try context.save()
        #expect(try counts(temporary) == [0, 0, 0])
    }

    @Test func noActionLeavesDanglingReferences() throws {
        let temporary = try TemporaryStore(model(.noAction))
        try populate(temporary)
        let context = try deleteOwner(temporary)
        try context.save()
        #expect(try counts(temporary) == [0, 3, 3])
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZITEM WHERE ZOWNER IS NOT NULL") == 3)
    }

    @Test func deletingAManyToManyMemberRemovesItsJoinRows() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3, subjectIndexes: { _ in [0, 1, 2] })
        let context = temporary.store.makeContext()
        let subject = try #require(try context.fetch(FetchRequest("Subject", predicate: Key("name") == "Subject1")).first)
        try context.delete(subject)
        try context.save()
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM Z_3SUBJECTS") == 6)
        let student = try #require(try context.fetch(FetchRequest("Student")).first)
        #expect(try student.objects("subjects").map { try $0.string("name") } == ["Subject2", "Subject3"])
    }
}
