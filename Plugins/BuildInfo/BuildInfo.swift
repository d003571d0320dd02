import Foundation
import PackagePlugin

/// Writes `BuildInfo+Generated.swift` before every build of the target it is applied to: the commit the package's
/// checkout is at (`-dirty` when tracked files changed), and `git describe`'s name for it, so that the binary knows
/// where it was built from wherever it runs. "unknown" when the package is not a git checkout (a source archive) or
/// git is missing. The file is rewritten only when its text changes, so that a build with nothing new compiles nothing.
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        let file = output.appending(path: "BuildInfo+Generated.swift")
        return [
            .prebuildCommand(
                displayName: "Recording the commit \(target.name) is built from",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", Self.script, "build-info", context.package.directoryURL.path, output.path, file.path],
                outputFilesDirectory: output)
        ]
    }

    /// $1 the package's folder, $2 the output folder, $3 the file. `safe.directory`: a checkout owned by another user
    /// (a CI container's) is still read, not reported unknown.
    static let script = #"""
        commit=$(command git -c safe.directory='*' -C "$1" rev-parse HEAD 2>/dev/null) || commit=unknown
        [ -n "$commit" ] || commit=unknown
        described=$(command git -c safe.directory='*' -C "$1" describe --tags --always 2>/dev/null) || described=unknown
        if [ "$commit" != unknown ] && [ -n "$(command git -c safe.directory='*' -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
          commit="$commit-dirty"; described="$described-dirty"
        fi
        mkdir -p "$2"
        {
          echo '// Generated before each build by Plugins/BuildInfo: do not edit.'
          echo 'extension BuildInfo {'
          echo "    package static let commit = \"$commit\""
          echo "    package static let described = \"$described\""
          echo '}'
        } > "$3.new"
        if cmp -s "$3.new" "$3"; then rm -f "$3.new"; else mv "$3.new" "$3"; fi
        """#
}
