// Package parsers holds the explicit registry of every agent parser: All
// returns them in a fixed order. Each agent's parser lives in its own
// package below this one (parsers/<agent>), with doc.go naming what it was
// checked against, parse_<format>.go files and testdata/.
//
// There is no init() registration: adding a parser is adding one line to
// All, and all_test.go checks the list against the catalog.
package parsers
