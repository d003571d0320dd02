/// Where this binary was built from, written at build time by Plugins/BuildInfo (`BuildInfo+Generated.swift`):
/// `commit` is the checkout's commit, with `-dirty` when its tracked files had changes, or "unknown" when it was
/// built outside git; `described` is `git describe --tags --always` of it.
package enum BuildInfo {}
