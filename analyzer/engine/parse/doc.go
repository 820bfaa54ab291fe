// Package parse is the engine's third stage: it runs each parser the
// route stage names on each collected file of an opened source, at most
// Config.Jobs files at once across every source of the run, and accounts
// for every record each parser read (Result: the rows it gave, the
// distinct positions, the records skipped and why, the problems).
//
// What a parser gives goes through the stage's sink, which stamps each
// row with its file's host, user, bundle, parser and verification, masks
// a setting row's secrets, sets a tool row's action from the parser
// specs' tables, and marks a time outside the plausible window
// (parser.Plausible: kept as recorded with time_basis implausible, or, a
// time only inherited, left undated), one implausible_time problem per
// file. A SQLite store is parsed under a budget (budget.go: records and
// time, --store-rows and --store-time), a store_budget problem when it
// stops the parse. A file the catalog calls a SQLite store that is not
// one is a not_sqlite problem and meets no parser. A parser that panics
// or fails is a problem row naming the file; the run goes on.
//
// The stage sees a source through the small Source and File interfaces
// (the inputs stage's opened units implement them) and hands rows and
// session states to a Store (the wiring in analyzer/analyze: the sorter,
// the correlator, the row filters). Its problems are taken once every
// source is parsed (Stage.TakeProblems); one file's problem about the
// whole file given by two parsers is one row naming both.
package parse
