/// Every claim RelBench judges: the seed articles' (shared/seeds) and published Core Data measurements', each
/// with the series that test it and its rule. Adding a claim here is all it takes for every run to judge it.
package enum ClaimCatalog {
    private typealias S = SeriesSelector

    package static let all: [Claim] = seeds + published

    static let seeds: [Claim] = [
        Claim(
            id: "to-one-fetches",
            statement: "Reading student.address.name for the first student costs 2 fetches (the student, then its address)",
            source: "Seed 000 II.A (LY Corporation, A deep dive into CoreData relationships)", scenarios: ["faulting"],
            figure: "statements-faulting",
            rule: .equals(S("faulting", [("modelling", "one-to-one")], phase: "first"), .sqlStatements, 2)),
        Claim(
            id: "to-many-fetches",
            statement: "Reading student.subjects.first.name costs 3 fetches (the student, the subjects' IDs, the first subject)",
            source: "Seed 000 II.B", scenarios: ["faulting"], figure: "statements-faulting",
            rule: .equals(S("faulting", [("modelling", "many-to-many")], phase: "first"), .sqlStatements, 3)),
        Claim(
            id: "many-to-nil-loses",
            statement:
                "A to-many without inverse (many-to-nil) loses a membership on save when two sources share a member; many-to-many loses none",
            source: "Seed 000 II.B", scenarios: ["data-loss"], figure: "data-loss",
            rule: .all([
                (
                    "the seed's example, many-to-nil",
                    .atLeast(S("data-loss", [("modelling", "many-to-nil"), ("duplicates", "0")], phase: "seed-example"), .linksLost, 1)
                ),
                (
                    "the seed's example, many-to-many",
                    .equals(S("data-loss", [("modelling", "many-to-many"), ("duplicates", "0")], phase: "seed-example"), .linksLost, 0)
                ),
                (
                    "loss against sharing",
                    .increasing(
                        ["0", "0.01", "0.1", "0.5"].map {
                            S("data-loss", [("modelling", "many-to-nil"), ("duplicates", $0)], phase: "save-and-reread")
                        }, .lossRate)
                ),
            ])),
        Claim(
            id: "fig7-insert", statement: "Many-to-nil inserts slightly faster than many-to-one",
            source: "Seed 000 Figure 7", scenarios: ["insert"], figure: "figure7",
            rule: .lower(
                S("insert", [("modelling", "many-to-nil")], phase: "insert"),
                than: S("insert", [("modelling", "many-to-one")], phase: "insert"), .wallMs)),
        Claim(
            id: "fig7-query", statement: "Many-to-one queries faster than many-to-nil, increasingly with the size of the data",
            source: "Seed 000 Figure 7", scenarios: ["query"], figure: "figure7",
            rule: .lower(
                S("query", [("modelling", "many-to-one"), ("prefetch", "off")], phase: "walk"),
                than: S("query", [("modelling", "many-to-nil"), ("prefetch", "off")], phase: "walk"),
                .wallMs, growing: true)),
        Claim(
            id: "inverse-memory",
            statement: "With an inverse, updating one side of a very large relationship costs memory (the other side is updated too)",
            source: "Seed 000 III.A", scenarios: ["large-to-many"], figure: "time-large-to-many",
            rule: .all([
                (
                    "heap allocated",
                    .lower(
                        S("large-to-many", [("modelling", "many-to-nil")], phase: "add-members"),
                        than: S("large-to-many", [("modelling", "many-to-one")], phase: "add-members"), .allocatedBytes)
                ),
                (
                    "statements",
                    .lower(
                        S("large-to-many", [("modelling", "many-to-nil")], phase: "add-members"),
                        than: S("large-to-many", [("modelling", "many-to-one")], phase: "add-members"), .sqlStatements)
                ),
            ])),
        Claim(
            id: "hand-kept-key",
            statement: "A hand-kept key (an ofCategory UUID) is cheaper than a managed relationship: to insert, to look up, to delete",
            source: "Seed 003, citing Adidas Runtastic's The hidden cost of Core Data managed relationships", scenarios: ["hand-kept-key"],
            figure: "time-hand-kept-key",
            rule: .all(
                ["insert-items", "list-items", "delete-category"].map { (phase: String) in
                    (
                        phase,
                        .lower(
                            S("hand-kept-key", [("modelling", "manual-fk-unindexed")], phase: PhaseName(phase)),
                            than: S("hand-kept-key", [("modelling", "many-to-one")], phase: PhaseName(phase)), .wallMs)
                    )
                })),
        Claim(
            id: "batching-memory", statement: "Batch fetching (fetchBatchSize) lowers the memory a list's first screen takes",
            source: "Seed 000 III.B", scenarios: ["batch-size"], figure: "batch-size-many-to-one",
            rule: .lower(
                S("batch-size", [("batch", "20"), ("access", "first-screen")], phase: "fetch"),
                than: S("batch-size", [("batch", "0"), ("access", "first-screen")], phase: "fetch"), .allocatedBytes)),
        Claim(
            id: "prefetch-faults",
            statement: "Prefetching (relationshipKeyPathsForPrefetching) removes the per-object faults: fewer statements",
            source: "Seed 000 III.B", scenarios: ["prefetch"], figure: "statements-prefetch",
            rule: .all(
                ["to-one", "to-many", "many-to-many", "nested"].map { keyPath in
                    (
                        keyPath,
                        .lower(
                            S("prefetch", [("keyPath", keyPath), ("prefetch", "on")], phase: "walk"),
                            than: S("prefetch", [("keyPath", keyPath), ("prefetch", "off")], phase: "walk"), .sqlStatements)
                    )
                })),
        Claim(
            id: "derived-count",
            statement:
                "A derived count attribute (membersCount = members.@count) shows a chat list's member counts without faulting the members",
            source: "Seed 000 III.B (LINE's chat list)", scenarios: ["chat-list"], figure: "time-chat-list",
            rule: .fewerAndFaster(
                S("chat-list", [("count", "derived")], phase: "chat-list"),
                than: S("chat-list", [("count", "faults")], phase: "chat-list"))),
        Claim(
            id: "fetch-limit-one",
            statement:
                "A fetch request with a predicate and fetchLimit 1 finds a class's student faster than walking class.students (option 2 against option 1)",
            source: "Seed 000 III.C", scenarios: ["find-member"], figure: "time-find-member",
            rule: .lower(
                S("find-member", [("modelling", "many-to-one"), ("option", "fetch")], phase: "find"),
                than: S("find-member", [("modelling", "many-to-one"), ("option", "walk")], phase: "find"), .wallMs)),
        Claim(
            id: "delete-rules", statement: "Cascade deletes a user's records, nullify keeps them without a user, deny refuses the delete",
            source: "Seed 004 (and seed 000's chat: messages cascade)", scenarios: ["medical-records"],
            figure: "statements-medical-records",
            rule: .all([
                (
                    "cascade leaves fewer records",
                    .lower(
                        S("medical-records", [("rule", "cascade")], phase: "records-left"),
                        than: S("medical-records", [("rule", "nullify")], phase: "records-left"), .countResult)
                ),
                (
                    "cascade leaves no orphans",
                    .equals(S("medical-records", [("rule", "cascade")], phase: "orphan-records"), .countResult, 0)
                ),
                ("nullify leaves orphans", .atLeast(S("medical-records", [("rule", "nullify")], phase: "orphan-records"), .countResult, 1)),
                ("deny refuses the save", .atLeast(S("medical-records", [("rule", "deny")], phase: "delete-users"), .failedSaves, 1)),
                (
                    "deny keeps every record",
                    .same(
                        S("medical-records", [("rule", "deny")], phase: "records-left"),
                        as: S("medical-records", [("rule", "nullify")], phase: "records-left"), .countResult)
                ),
            ])),
        Claim(
            id: "feed-prefetch",
            statement: "Prefetching author, author.profile, tags and category on a paginated feed reduces the statements per page",
            source: "Seed 001", scenarios: ["social-feed"], figure: "statements-social-feed",
            rule: .lower(
                S("social-feed", [("prefetch", "on"), ("counts", "relationships")], phase: "feed"),
                than: S("social-feed", [("prefetch", "off"), ("counts", "relationships")], phase: "feed"), .sqlStatements)),
        Claim(
            id: "count-sort",
            statement: "Sorting and filtering by likes.@count (a correlated subquery per row) costs more time than a derived likesCount",
            source: "Seed 001 (popular posts)", scenarios: ["social-feed"], figure: "time-social-feed",
            rule: .lower(
                S("social-feed", [("prefetch", "off"), ("counts", "queries")], phase: "popular"),
                than: S("social-feed", [("prefetch", "off"), ("counts", "relationships")], phase: "popular"), .wallMs)),
        Claim(
            id: "merge-rereads",
            statement:
                "A background context's import merged into the main context shows there without the main context re-reading what it holds",
            source: "Seed 001 (automaticallyMergesChangesFromParent)", scenarios: ["social-feed"], figure: "statements-social-feed",
            rule: .equals(S("social-feed", [("prefetch", "off"), ("counts", "relationships")], phase: "after-merge"), .sqlStatements, 0)),
        Claim(
            id: "background-ui", statement: "Background contexts keep the main queue responsive during an import",
            source: "Seed 001 (background processing)", scenarios: ["social-feed"], figure: nil,
            rule: .untestable(
                "the main queue's latency during a background save depends on Core Data's coordinator locking and its WAL readers on a device; ObjectGraph serializes each store's contexts on one connection, so a time measured here would say nothing about an app"
            )),
    ]

    static let published: [Claim] = [
        Claim(
            id: "batch-size-twice-screen",
            statement: "A fetchBatchSize of about twice the rows on screen is enough: larger batches do not make the first screen faster",
            source: "objc.io, Core Data fetch requests (issue 4)", scenarios: ["batch-size"], figure: "batch-size-many-to-one",
            rule: .smallestWithin(
                [10, 20, 50, 100, 500, 1000].map {
                    (label: $0, series: S("batch-size", [("batch", String($0)), ("access", "first-screen")], phase: "fetch"))
                },
                .wallMs, within: 0.10, atMost: 40)),
        Claim(
            id: "ids-faults-objects",
            statement: "Fetching object IDs is cheaper than fetching faults, which is cheaper than fetching full objects",
            source: "Marcus Zarra, Core Data: Data Storage and Management for iOS, OS X, and iCloud", scenarios: ["fetch-result-types"],
            figure: "time-fetch-result-types",
            rule: .ordered(
                ["ids", "faults", "objects"].map { (label: $0, series: S("fetch-result-types", [("result", $0)], phase: "fetch")) }, .wallMs
            )),
        Claim(
            id: "to-one-prefetch", statement: "Prefetching a to-one relationship does not reduce the number of statements",
            source: "kenmaz, relationshipKeyPathsForPrefetching (2016)", scenarios: ["prefetch"], figure: "statements-prefetch",
            rule: .same(
                S("prefetch", [("keyPath", "to-one"), ("prefetch", "on")], phase: "walk"),
                as: S("prefetch", [("keyPath", "to-one"), ("prefetch", "off")], phase: "walk"), .sqlStatements)),
        Claim(
            id: "reset-import", statement: "Resetting the context after each save keeps memory flat during a large import",
            source: "Matt Gallagher, Cocoa with Love", scenarios: ["import-reset"], figure: "time-import-reset",
            rule: .lower(
                S("import-reset", [("reset", "on")], phase: "import"), than: S("import-reset", [("reset", "off")], phase: "import"),
                .retainedBytes)),
        Claim(
            id: "batch-update",
            statement:
                "An NSBatchUpdateRequest is far faster than fetching, modifying and saving every object (7.2 s against 0.81 s, 8.9×, iPhone 5s, 2014)",
            source: "NSBatchUpdateRequest measurements (2014)", scenarios: ["batch-update"], figure: "time-batch-update",
            rule: .lower(
                S("batch-update", [("way", "batch-update")], phase: "update-all"),
                than: S("batch-update", [("way", "fetch-modify-save")], phase: "update-all"), .wallMs)),
        Claim(
            id: "count-many-to-many",
            statement: "@count == 0 across a many-to-many is fast from one side and very slow from the other (0.06 s against 48.8 s)",
            source: "pgor, ManyAToManyB", scenarios: ["count-across-many-to-many"], figure: "time-count-across-many-to-many",
            rule: .asymmetric(
                S("count-across-many-to-many", phase: "from-a"), S("count-across-many-to-many", phase: "from-b"),
                .wallMs, factor: 10)),
    ]
}
