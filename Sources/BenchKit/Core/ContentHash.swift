import Foundation

/// A file's or folder's content as a 64-bit FNV-1a hash in hex: enough to tell that a scenario or model file
/// changed between two runs (not a cryptographic digest). A folder (an `.xcdatamodeld`) hashes its files' relative
/// paths and contents in sorted order, so that an edit in any version shows.
package enum ContentHash {
    package static func of(path: String) -> String? {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        if isFolder.boolValue {
            guard let files = manager.enumerator(atPath: path)?.compactMap({ $0 as? String }).sorted() else { return nil }
            for file in files {
                let full = (path as NSString).appendingPathComponent(file)
                var isSubfolder: ObjCBool = false
                guard manager.fileExists(atPath: full, isDirectory: &isSubfolder), !isSubfolder.boolValue,
                    let data = manager.contents(atPath: full)
                else { continue }
                add(file.utf8)
                add(data)
            }
        } else {
            guard let data = manager.contents(atPath: path) else { return nil }
            add(data)
        }
        return String(hash, radix: 16)
    }
}

/// A scenario file's and its model's content hashes (`ContentHash`); nil for an inline model or a generated suite's file.
package struct DefinitionHash: Codable, Sendable, Equatable {
    package let scenario: String?
    package let model: String?

    package init(scenario: String?, model: String?) {
        self.scenario = scenario
        self.model = model
    }
}
