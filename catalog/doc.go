// Package catalog is DoubleAgent's single table of AI agents and the paths
// each keeps under a user's home, per operating system.
//
// Terms:
//   - Agent: one product (claude-code, codex-cli, ...), named by its catalog
//     name, the stable identifier used in bundles and timeline rows.
//   - Target: one class of artifact an agent keeps: a named Root, a glob under
//     that root, a Kind, and collection rules (sidecars, excludes, size).
//   - Root: a named base directory defined once per OS (home, XDG config,
//     macOS Application Support, %APPDATA%, an editor's User dir, ...), given
//     as glob patterns relative to a home directory; see roots.go.
//   - Project artifact: a file an agent keeps inside a repository (CLAUDE.md,
//     .mcp.json, ...), collected from project directories that agent state
//     names.
//
// The collector walks the table; the analyzer routes files to parsers by
// agent and target ID; catalog/docs/agents.md is generated from it.
// The package has no dependencies outside the standard library and
// github.com/bmatcuk/doublestar/v4 for glob syntax.
package catalog
