import Foundation
import Testing

@testable import ObjectGraph

/// Ordered to-many relationships: the `Z_FOK_` order keys on the member rows (one-to-many) or in the join table
/// (many-to-many), kept on insert, move and remove, and read back in order in a new context.
@Suite struct OrderedRelationshipTests {
    static func playlistModel() throws -> ObjectModel {
        try ObjectModel([
            Entity(
                "Playlist",
                [
                    .attribute("name", .string),
                    .toMany("songs", "Song", inverse: "playlist", ordered: true),
                    .toMany("tags", "Tag", inverse: "playlists", ordered: true),
                ]),
            Entity("Song", [.attribute("title", .string), .toOne("playlist", "Playlist", inverse: "songs")]),
            Entity("Tag", [.attribute("name", .string), .toMany("playlists", "Playlist", inverse: "tags")]),
        ])
    }

    private func titles(_ objects: RelationshipSet, _ key: String) throws -> [String] {
        try objects.map { try $0.string(key) ?? "" }
    }

    @Test func insertMoveRemoveAndReadBackInOrder() throws {
        let temporary = try TemporaryStore(Self.playlistModel())
        let context = temporary.store.makeContext()
        let playlist = try context.insert("Playlist")
        for title in ["a", "b", "c"] {
            let song = try context.insert("Song")
            try song.setValue(.string(title), for: "title")
            try playlist.add(song, to: "songs")
        }
        for name in ["x", "y"] {
            let tag = try context.insert("Tag")
            try tag.setValue(.string(name), for: "name")
            try playlist.add(tag, to: "tags")
        }
        try context.save()
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT Z_FOK_PLAYLIST FROM ZSONG WHERE ZTITLE = 'c'") == 3072)
        #expect(try connection.scalarInt("SELECT Z_FOK_3TAGS FROM Z_1TAGS WHERE Z_3TAGS = 2") == 2048)

        // Insert at the front, move the last to the middle, remove one; then in a new context, the same order.
        let d = try context.insert("Song")
        try d.setValue("d", for: "title")
        try playlist.insert(d, at: 0, into: "songs")
        try playlist.moveObject(at: 3, to: 1, in: "songs")
        try playlist.removeObject(at: 2, from: "songs")
        #expect(try titles(playlist.objects("songs"), "title") == ["d", "c", "b"])
        let z = try context.insert("Tag")
        try z.setValue("z", for: "name")
        try playlist.insert(z, at: 1, into: "tags")
        temporary.recordSQL()
        try context.save()
        // Only the keys that must change are written: b keeps 2048; d (new) and c get keys below it (682, 1364);
        // a loses its playlist and key; the new tag z goes between x and y (1536) with no other tag touched.
        #expect(temporary.sql.filter { $0.contains("Z_FOK") || $0.hasPrefix("UPDATE OR FAIL ZSONG") }.count == 4)
        #expect(try connection.scalarInt("SELECT Z_FOK_PLAYLIST FROM ZSONG WHERE ZTITLE = 'c'") == 1364)
        #expect(try connection.scalarInt("SELECT Z_FOK_3TAGS FROM Z_1TAGS WHERE Z_3TAGS = 3") == 1536)
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        let reread = try #require(try fresh.fetch(FetchRequest("Playlist")).first)
        temporary.recordSQL()
        #expect(try titles(reread.objects("songs"), "title") == ["d", "c", "b"])
        #expect(temporary.sql.first == "SELECT 0, t0.Z_PK FROM ZSONG t0 WHERE t0.ZPLAYLIST = ? ORDER BY t0.Z_FOK_PLAYLIST")
        #expect(try titles(reread.objects("tags"), "name") == ["x", "z", "y"])
        // Prefetching reads the same order.
        var request = FetchRequest("Playlist")
        request.relationshipKeyPathsForPrefetching = ["songs", "tags"]
        let another = temporary.store.makeContext()
        let prefetched = try #require(try another.fetch(request).first)
        #expect(try titles(prefetched.objects("songs"), "title") == ["d", "c", "b"])
        #expect(try titles(prefetched.objects("tags"), "name") == ["x", "z", "y"])
        // The removed song lost its playlist and its key.
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSONG WHERE ZPLAYLIST IS NULL AND Z_FOK_PLAYLIST IS NULL") == 1)
    }

    @Test func orderKeysKeepWhatStillIncreases() {
        #expect(OrderKeys.assign([nil, nil, nil]) == [1024, 2048, 3072])
        #expect(OrderKeys.assign([1024, 2048, 3072, nil]) == [1024, 2048, 3072, 4096])
        #expect(OrderKeys.assign([nil, 1024, 2048]) == [512, 1024, 2048])
        #expect(OrderKeys.assign([3072, 1024, 2048]) == [512, 1024, 2048])
        #expect(OrderKeys.assign([1, 2, nil, 3]) == [1024, 2048, 3072, 4096])
    }

    @Test func positionsOnAnUnorderedRelationshipAreRefused() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let schoolClass = try context.insert("Class")
        let student = try context.insert("Student")
        #expect(throws: ObjectGraphError.invalidOperation("Class.students is not ordered; positions mean nothing in it (use add(_:to:))")) {
            try schoolClass.insert(student, at: 0, into: "students")
        }
    }
}
