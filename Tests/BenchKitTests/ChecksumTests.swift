import Foundation
import Testing

@testable import BenchKit

/// `Checksum.add(_:)` of a text hashes its UTF-8 bytes however the String keeps them (small, on the heap, a
/// substring made whole), the same as hashing the bytes themselves.
@Suite struct ChecksumTests {
    @Test func aTextHashesItsUTF8BytesHoweverItIsKept() {
        let long = "a name longer than fifteen bytes, on the heap"
        let texts: [String] = [
            "", "a", "seven b", "eight by", "fifteen bytes!!", "sixteen bytes!!!", long, "Émile Zoë", String(long.dropFirst(2)),
            String(decoding: Array("decoded from bytes".utf8), as: UTF8.self),
        ]
        for text in texts {
            var checksum = Checksum()
            checksum.add(text)
            let bytes = Array(text.utf8)
            let expected = bytes.withUnsafeBytes { Checksum.hash($0) }
            #expect(checksum.count == 1)
            #expect(checksum.hash == expected, "\(text)")
        }
        var sum = Checksum()
        for text in texts { sum.add(text) }
        #expect(sum.count == texts.count)
    }
}
