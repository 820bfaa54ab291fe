// Package parsers holds the explicit registry of every agent parser: All
// returns them in a fixed order. Each agent's parser lives in its own
// package below this one (parsers/<agent>), with doc.go naming what it was
// checked against, parse_<format>.go files and testdata/.
//
// There is no init() registration. Adding an agent touches the catalog
// entry, its package, one line in All, its fixtures and goldens and the
// generated docs: analyzer/docs/adding-an-agent.md is the checklist, kept
// true by checklist_test.go; all_test.go checks the list against the
// catalog, structure_test.go that agent packages share formats
// (analyzer/parser/format) and helpers, not each other.
package parsers
