/// Statement lookup (fingerprint and shape, cached by SQL text), query plans, segment markers, the end.
extension LogAnalyzer {
    /// Distinct fingerprints kept; past them, statements are counted under `overflowFingerprint`.
    static let maximumFingerprints = 50_000
    static let overflowFingerprint = "(more distinct statements than the analysis keeps)"

    /// The fingerprint and shape of the statement `sql`, from the cache when its text was seen lately.
    mutating func lookup(_ sql: ByteView) -> (Int, ShapeBox) {
        let hash = sql.fastHash
        if let index = recentSQL.id(of: sql, hash: hash) { return recentShapes[index] }
        SQLTokenizer.tokenize(sql, into: &tokenBuffer)
        Fingerprint.write(bytes: sql, tokens: tokenBuffer, into: &fingerprintBuffer)
        let id = fingerprintID()
        let shape = StatementShape(sql: sql, tokens: tokenBuffer)
        if id == Self.maximumFingerprints {
            if fingerprintTexts.count == Self.maximumFingerprints {
                fingerprintTexts.append(Self.overflowFingerprint)
                fingerprintShapes.append(StatementShape())
            }
        } else if id == fingerprintTexts.count {
            fingerprintTexts.append(String(decoding: fingerprintBuffer, as: UTF8.self))
            fingerprintShapes.append(shape)
        }
        // Bounded: the cache is emptied when full (it only saves recomputing shapes of repeated SQL texts).
        if recentSQL.count >= 20_000 {
            recentSQL.removeAll()
            recentShapes.removeAll(keepingCapacity: true)
        }
        let box = ShapeBox(shape)
        _ = recentSQL.add(sql, hash: hash)
        recentShapes.append((id, box))
        return (id, box)
    }

    /// The id of the fingerprint in `fingerprintBuffer`: a known one's, the next id for a new one (the caller keeps its
    /// text and shape), or past the limit (only a log of garbage has that many) `maximumFingerprints`, shared by all.
    private mutating func fingerprintID() -> Int {
        let buffer = fingerprintBuffer
        return buffer.withUnsafeBufferPointer { bytes in
            let hash = bytes.fastHash
            if let known = fingerprints.id(of: bytes, hash: hash) { return known }
            guard fingerprints.count < Self.maximumFingerprints else { return Self.maximumFingerprints }
            return fingerprints.add(bytes, hash: hash)
        }
    }

    mutating func notePlan(_ text: String) {
        guard let id = latestFingerprint else { return }
        let shape = fingerprintShapes[id]
        var flags = planFlags[id] ?? PlanFlags()
        let upper = text.uppercased()
        if upper.contains("SCAN"), !upper.contains("USING"), !upper.contains("_Z_INTARRAY"), !upper.contains("VIRTUAL TABLE"),
            !shape.filterColumns.isEmpty
        {
            flags.scansFilteredTable = true
        }
        if upper.contains("TEMP B-TREE FOR ORDER BY") { flags.sortsWithTemporaryTree = true }
        planFlags[id] = flags
    }

    // MARK: Segments

    /// Distinct segment names kept; past them, segments are added up under `overflowSegmentName`.
    static let maximumSegmentNames = 10_000
    static let overflowSegmentName = "(more segment names than the analysis keeps)"

    mutating func mark(_ marker: SegmentMarker) {
        resolvePending()
        abandonUnits()
        finishSimple()
        switch marker.kind {
        case .begin:
            sawMarker = true
            if openSegments.count > 64 {
                // Deeper than any screen nests: the outermost marked segment is closed as not ended.
                markerProblems.note(.tooDeep, name: openSegments[1].name, line: marker.line)
                closeSegment(at: 1, endLine: nil)
            }
            var segment = SegmentAccumulator(name: marker.name, beginLine: marker.line, signpostID: marker.signpostID)
            segmentsBegun += 1
            segment.sequence = segmentsBegun
            openSegments.append(segment)
        case .end:
            // The innermost open segment of that name (and signpost ID) ends, with any opened inside it.
            guard
                let position = openSegments.indices.last(where: { index in
                    index != 0 && openSegments[index].name == marker.name
                        && (marker.signpostID == nil || openSegments[index].signpostID == marker.signpostID)
                })
            else {
                markerProblems.note(.endWithoutBegin, name: marker.name, line: marker.line)
                return
            }
            while openSegments.count - 1 > position {
                markerProblems.note(
                    .endedByOuter, name: openSegments[openSegments.count - 1].name,
                    line: openSegments[openSegments.count - 1].beginLine ?? 0)
                closeSegment(at: openSegments.count - 1, endLine: nil)
            }
            closeSegment(at: position, endLine: marker.line)
        }
    }

    /// Closes the open segment at `index` (the innermost, or the outermost marked one when nesting runs too deep):
    /// its findings are found now, and it joins the kept segment of its name.
    mutating func closeSegment(at index: Int, endLine: Int?) {
        var segment = openSegments.remove(at: index)
        segment.closed = endLine != nil
        segment.endLine = endLine
        if endLine == nil { segment.unclosed = 1 }
        keep(&segment)
    }

    private mutating func keep(_ segment: inout SegmentAccumulator) {
        segment.counters.statementsByRole = segment.statementsByRole
        segment.findings = FindingDetector(options: options, segment: segment, analyzer: self, access: access[segment.name])
            .findings(names: &names)
        segment.reach = ReachMap()
        segment.prefetches = [:]
        if let index = keptIndex[segment.name] {
            kept[index].merge(segment)
        } else if kept.count < Self.maximumSegmentNames {
            keptIndex[segment.name] = kept.count
            kept.append(segment)
        } else {
            segment.name = Self.overflowSegmentName
            segment.findings = []
            if let index = keptIndex[segment.name] {
                kept[index].merge(segment)
            } else {
                keptIndex[segment.name] = kept.count
                kept.append(segment)
            }
        }
    }

    /// The findings of the closed segments named `name` (a phase of `bench advise`'s trace, as soon as it ended).
    public func findings(ofSegment name: String) -> [Finding] { keptIndex[name].map { kept[$0].findings } ?? [] }

    /// Ends the log: closes what is open and builds the analysis.
    public mutating func finish(parser: ParserStatistics, bytesRead: Int) -> LogAnalysis {
        resolvePending()
        abandonUnits()
        finishSimple()
        while openSegments.count > 1 {
            markerProblems.note(
                .neverEnded, name: openSegments[openSegments.count - 1].name, line: openSegments[openSegments.count - 1].beginLine ?? 0)
            closeSegment(at: openSegments.count - 1, endLine: nil)
        }
        // What ran outside every marked segment (everything, without markers) is a segment of its own, listed first.
        var outside = openSegments.removeFirst()
        if !sawMarker || !outside.isEmpty {
            if !sawMarker { outside.name = LogAnalysis.wholeLogSegmentName }
            outside.closed = true
            outside.counters.statementsByRole = outside.statementsByRole
            outside.findings = FindingDetector(options: options, segment: outside, analyzer: self, access: access[outside.name])
                .findings(names: &names)
            kept.insert(outside, at: 0)
        }
        return AnalysisBuilder.build(self, parser: parser, bytesRead: bytesRead)
    }
}

/// Markers that do not pair: an end no begin opened, a begin never ended (or ended only by an outer end).
public struct MarkerProblems: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case endWithoutBegin = "end without begin"
        case neverEnded = "never ended"
        case endedByOuter = "ended by an outer segment's end"
        case tooDeep = "nested more than 64 deep"
    }

    public struct Problem: Sendable, Equatable, Codable {
        public var kind: Kind
        public var name: String
        public var line: Int
    }

    /// Every problem counted, and the first few kept to name them.
    public private(set) var count = 0
    public private(set) var first: [Problem] = []

    enum CodingKeys: String, CodingKey {
        case count
        case first = "problems"
    }

    public init() {}

    mutating func note(_ kind: Kind, name: String, line: Int) {
        count += 1
        if first.count < 10 { first.append(Problem(kind: kind, name: name, line: line)) }
    }
}
