// Package analyze is the analyzer's engine: it detects what each input is
// by content (a bundle, a folder of bundles, an extracted collection, a
// loose tree such as a copied home or a mounted image), verifies bundles
// (the .sha256 sidecar, then every member against the manifest as it is
// read), routes each collected file to the registered parsers, and writes
// one merged, ordered timeline with sessions, an inventory and the
// problems found.
//
// Stages (analyzer/docs/architecture.md): inputs (analyzer/engine/inputs,
// opening a unit as a source included), route
// (analyzer/engine/route), parse (analyzer/engine/parse: one sink per file
// and parser), correlate (analyzer/engine/correlate,
// the only place rows are merged, paired, linked to parents or given
// session state), outputs (analyzer/engine/outputs: the formats). The
// output pass (output.go) hands every row it writes to Options.Rows, the
// findings, on a goroutine of their own. Timeline wires them.
//
// Safety: bundle members are spooled into a private temporary folder under
// names the engine chooses (never the member's own name), so no member can
// write outside it; SQLite stores are opened only on private copies with
// their sidecars; nothing is written outside the output folder and that
// temporary folder, which is removed afterwards.
package analyze
