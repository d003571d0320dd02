/// Statement lookup (fingerprint and shape, cached by SQL text), query plans, segment markers, the end.
extension LogAnalyzer {
    /// Distinct fingerprints kept; past them, statements are counted under `overflowFingerprint`.
    static let maximumFingerprints = 50_000
    static let overflowFingerprint = "(more distinct statements than the analysis keeps)"

    mutating func lookup(_ sql: String) -> (Int, ShapeBox) {
        if let cached = shapeCache[sql] { return cached }
        var copy = sql
        let (text, shape) = copy.withUTF8 { bytes in
            let tokens = SQLTokenizer.tokens(bytes)
            return (Fingerprint.of(bytes: bytes, tokens: tokens), StatementShape(sql: bytes, tokens: tokens))
        }
        let id: Int
        if let known = fingerprintIDs[text] {
            id = known
        } else if fingerprintTexts.count < Self.maximumFingerprints {
            id = fingerprintTexts.count
            fingerprintIDs[text] = id
            fingerprintTexts.append(text)
            fingerprintShapes.append(shape)
        } else {
            // Past the limit (only a log of garbage has that many), new statements share one fingerprint.
            id = Self.maximumFingerprints
            if fingerprintTexts.count == Self.maximumFingerprints {
                fingerprintTexts.append(Self.overflowFingerprint)
                fingerprintShapes.append(StatementShape())
            }
        }
        // Bounded: the cache is emptied when full (it only saves recomputing shapes of repeated SQL texts).
        if shapeCache.count >= 20_000 { shapeCache.removeAll(keepingCapacity: true) }
        let box = ShapeBox(shape)
        shapeCache[sql] = (id, box)
        return (id, box)
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

    mutating func mark(_ marker: SegmentMarker) {
        resolvePending()
        abandonUnits()
        finishSimple()
        switch marker.kind {
        case .begin:
            sawMarker = true
            segments.append(SegmentAccumulator(name: marker.name, beginLine: marker.line, signpostID: marker.signpostID))
            active.append(segments.count - 1)
        case .end:
            // The innermost open segment of that name (and signpost ID) ends, with any opened inside it.
            guard
                let position = active.lastIndex(where: { index in
                    index != 0 && segments[index].name == marker.name
                        && (marker.signpostID == nil || segments[index].signpostID == marker.signpostID)
                })
            else { return }
            let index = active[position]
            segments[index].closed = true
            segments[index].endLine = marker.line
            active.removeSubrange(position...)
        }
    }

    /// Ends the log: closes what is open and builds the analysis.
    public mutating func finish(parser: ParserStatistics, bytesRead: Int) -> LogAnalysis {
        resolvePending()
        abandonUnits()
        finishSimple()
        return AnalysisBuilder.build(self, parser: parser, bytesRead: bytesRead)
    }
}
