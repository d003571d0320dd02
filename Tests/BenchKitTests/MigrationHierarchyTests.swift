import Foundation
import Testing

@testable import BenchKit

/// `bench lint V2 --against V1` on the fixtures in Fixtures/Migrations (one .xcdatamodeld per case): properties and
/// uniqueness constraints an entity inherits count for its stored rows, an entity moving under or out of a parent is
/// named with its tables, and a mapping model for the step replaces what inference would say. Half the cases must
/// stay silent.
@Suite(.serialized) struct MigrationHierarchyTests {
    static let folder = CommandLineTests.root.appendingPathComponent("Tests/BenchKitTests/Fixtures/Migrations")

    /// The lines after the heading, and the exit status.
    private func lint(_ name: String) throws -> (lines: [String], status: Int32) {
        let result = try CommandLineTests.bench([
            "lint", Self.folder.appendingPathComponent("\(name).xcdatamodeld").path, "--against", "V1",
        ])
        #expect(result.error.isEmpty, "\(result.error)")
        return (result.output.split(separator: "\n").dropFirst().map(String.init), result.status)
    }

    /// The case: Customer{name} moves under a new abstract Account{email: required, no default, unique}. Every
    /// stored Customer lacks email, and its rows change table.
    @Test func aNewParentWithARequiredUniqueAttributeFailsOnTheStoredRows() throws {
        let (lines, status) = try lint("NewParentRequired")
        #expect(status == 1)
        #expect(
            lines == [
                "problem [migration-required-attribute-added] Account.email: added as required without a default value, and Customer inherits it: the Customer rows already stored (Customer moves under Account, a new parent: its rows move from ZCUSTOMER into ZACCOUNT) have none, and lightweight migration cannot infer one. Fix: give it a default value, or make it optional.",
                "problem [migration-constraint-added] Customer: uniqueness constraints change from none to (email): the migration fails on rows that already share values (NSMigrationConstraintViolationError, 134111), and the store does not open. Fix: remove the duplicates before migrating (a staged migration's first stage), or keep the constraints as they were.",
                "2 findings (2 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }

    @Test func aParentsNewRequiredAttributeIsOneFindingNamingTheSubEntitiesRows() throws {
        let (lines, status) = try lint("ParentGainsRequired")
        #expect(status == 1)
        #expect(
            lines == [
                "problem [migration-required-attribute-added] Account.region: added as required without a default value, and Customer and Staff inherit it: the Customer and Staff rows already stored have none, and lightweight migration cannot infer one. Fix: give it a default value, or make it optional.",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }

    @Test func aParentsNewConstraintIsSaidOnceOnTheParent() throws {
        let (lines, status) = try lint("ParentGainsConstraint")
        #expect(status == 1)
        #expect(
            lines == [
                "problem [migration-constraint-added] Account: uniqueness constraints change from none to (email) (for Customer and Staff too, which inherit them): the migration fails on rows that already share values (NSMigrationConstraintViolationError, 134111), and the store does not open. Fix: remove the duplicates before migrating (a staged migration's first stage), or keep the constraints as they were.",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }

    @Test func leavingARemovedParentLosesWhatItInherited() throws {
        let (lines, status) = try lint("LeavesHierarchyLosing")
        #expect(status == 1)
        #expect(
            lines == [
                "note: Customer: Customer leaves Account's hierarchy: its rows move from ZACCOUNT into a table of its own, ZCUSTOMER; lightweight migration infers this (an entity may move under a new parent or out of a hierarchy) and renumbers the rows' Z_ENT.",
                "problem [migration-property-removed] Customer.email: removed: lightweight migration drops the column ZEMAIL and every value in it without an error. Fix: keep it, or copy its values elsewhere before migrating (a staged or custom migration).",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }

    /// What lightweight migration infers stays silent (exit 0); a move between tables is a note, not a finding.
    @Test(arguments: [
        (
            "NewParentOptional",
            [
                "note: Customer: Customer moves under Account, a new parent: its rows move from ZCUSTOMER into ZACCOUNT; lightweight migration infers this (an entity may move under a new parent or out of a hierarchy) and renumbers the rows' Z_ENT."
            ]
        ),
        (
            "NewParentDefault",
            [
                "note: Customer: Customer moves under Account, a new parent: its rows move from ZCUSTOMER into ZACCOUNT; lightweight migration infers this (an entity may move under a new parent or out of a hierarchy) and renumbers the rows' Z_ENT."
            ]
        ),
        (
            "LeavesHierarchy",
            [
                "note: Customer: Customer leaves Account's hierarchy: its rows move from ZACCOUNT into a table of its own, ZCUSTOMER; lightweight migration infers this (an entity may move under a new parent or out of a hierarchy) and renumbers the rows' Z_ENT."
            ]
        ),
        ("MovedUp", []), ("MovedDown", []),
    ])
    func whatMigrationInfersIsSilent(name: String, notes: [String]) throws {
        let (lines, status) = try lint(name)
        #expect(status == 0)
        #expect(lines == notes + ["no findings"], "\(lines)")
    }

    /// V1ToV2.xcmappingmodel maps Mapped.xcdatamodeld's V1 to V2 (and names no other package): Core Data migrates with
    /// it, so the inferred-migration finding is not raised, and the note says why.
    @Test func aMappingModelForTheStepReplacesInference() throws {
        let (lines, status) = try lint("Mapped")
        #expect(status == 0)
        #expect(
            lines == [
                "note: V1ToV2.xcmappingmodel maps V1 to V2, with the custom migration policies App.CustomerToAccountPolicy: Core Data migrates this step with it and infers nothing, so lightweight migration's findings do not apply (inference alone would give 1 finding); check the mapping model itself in Xcode.",
                "no findings",
            ], "\(lines)")
        // The same versions of another package in the same folder are not mapped by it.
        #expect(try lint("NewParentRequired").status == 1)
    }
    /// CareKit's layout: the mapping model sits in a folder below the model (Stale/, as CareKit's
    /// CoreData/Migrations/2_0To2_1/), and its destination path names V3, a version renamed since (the package holds
    /// V1 and V2); the model it embeds has V2's entities, so Core Data, which matches by the models' hashes, migrates
    /// V1 to V2 with it.
    @Test func aMappingModelBelowTheModelWithARenamedDestinationReplacesInference() throws {
        let (lines, status) = try lint("Renamed")
        #expect(status == 0)
        #expect(
            lines == [
                "note: V1ToV3.xcmappingmodel maps V1 to V2 (its destination path names V3, a version the model no longer holds; the model it embeds has V2's entities): Core Data migrates this step with it and infers nothing, so lightweight migration's findings do not apply (inference alone would give 1 finding); check the mapping model itself in Xcode.",
                "no findings",
            ], "\(lines)")
    }

    /// A mapping model whose destination path names a version the package lacks is used only where the model it
    /// embeds holds every entity of the new version.
    @Test func aRenamedDestinationMustEmbedTheNewEntities() {
        let mapping = MappingModel(
            name: "V1ToV3.xcmappingmodel", source: "V1", destination: "V3", sourcePackage: "Renamed.xcdatamodeld",
            destinationPackage: "Renamed.xcdatamodeld", policies: [], sourceEntities: ["Customer"], destinationEntities: ["Customer"])
        func maps(_ new: [String], versions: [String] = ["V1", "V2"]) -> Bool {
            mapping.maps(
                "V1", of: "Renamed.xcdatamodeld", to: "V2", of: "Renamed.xcdatamodeld", versions: versions, oldEntities: ["Customer"],
                newEntities: new)
        }
        #expect(maps(["Customer"]))
        #expect(!maps(["Account", "Customer"]))
        #expect(!maps(["Customer"], versions: ["V1", "V2", "V3"]))
    }
}
