// Package parser is the contract between the analysis engine and the
// per-agent parsers under analyzer/parsers.
//
// A Parser matches collected files cheaply (agent, catalog target, base
// name) and parses one file at a time from an Input, emitting timeline
// events, session states and problems through a Sink. Parsers never walk
// directories or read the host filesystem: the engine opens, verifies and
// closes; Input.OpenRelated reaches other collected files by original path
// (a Claude persisted tool output, a Gemini .project_root).
//
// Bad input is data: a parser reports a bad line with Sink.Problem (or a
// named kind with Sink.Report) and goes on; returning an error means the
// rest of the file could not be read, and the engine turns it into a
// problem row too. Parsers check ctx in line loops and never panic; the
// engine also recovers a panic into a problem.
//
// # What every parser fills
//
// Accounting. Every record a parser reads ends as rows whose SourceLine is
// the record's position (1-based line, SQLite rowid, 1-based array index),
// as Sink.Skip(position, reason) when it carries no row of its own (a
// record that only sets state folded into other rows, a kind with no
// evidence: name the reason, e.g. "state_only", "no_evidence:<type>"), or
// as a problem (Sink.Problem, Sink.Report with a Kind* constant). Nothing
// is dropped without one of the three. parser.Lines reports NUL runs and
// over-long lines itself when given the Sink; give it nil only for a
// second pass over the same file or a lookup in a related file.
//
// Identity. RecordID is the agent's own id of the record (Claude uuid,
// Codex call id or item id, Gemini message id, opencode part id); when one
// record gives several rows each gets "<id>#<n>" (n the 0-based content
// block index) or "<id>#<word>" for a row derived from it (a permission
// decision "#decision", a model switch "#model"). Where the agent keeps no
// id, RecordID is "" and the engine falls back to full-value keys (host,
// user, agent, session, turn type, time, ids, text, input), never text
// alone. The engine writes one row per (host, user, agent, record id) with
// the same content, wherever it appears (a resumed copy, a fork, a
// migrated store, a bundle and its extracted copy); the same id with
// other content is two rows and a duplicate_id problem.
//
// Forks and copies. A row that repeats a record whose original another
// file holds (a fork's replayed prefix) carries Replayed=true, the
// original's RecordID and the original's SessionID: the original wins the
// identity merge, and when the original file is gone the replayed copy
// still stands for it. The fork's own session gets SessionState.ForkedFrom.
//
// Subagents. A subagent's rows carry the subagent's own SessionID and
// ParentSessionID = the parent's session (SessionState.ParentSessionID
// too); the first row is the system row "subagent <id> of <parent>". The
// prompt the parent's model wrote for it is a system row
// "subagent task: <text>", never a user row.
//
// What happened stays. Rewound, reverted, branched-away and compacted
// records stay as rows, followed by a system row saying what the agent did
// to them ("rewound by /rewind at <time>: <n> record(s)").
//
// Secondary sources. A parser whose rows set Secondary declares
// Spec.Secondary (window, turn types, basis); the engine pairs them with
// primary rows (see Secondary) and writes the rest.
//
// Times. UTC; a time the record does not carry is TimeNone (or the
// TimeBasis that says where it came from), never borrowed from a
// neighbour without saying so; TimeMinute for a time recorded to the
// minute. Epoch numbers go through Epoch (seconds, milliseconds,
// microseconds or nanoseconds by their size). A parser emits the time as
// recorded, however odd: the engine marks every row whose time is outside
// the plausible window (Plausible: 1990-01-01 to a day after the
// collection) as TimeImplausible, undates a row that inherited such a
// time, and writes one implausible_time problem for the file.
//
// Reading. Input.Open, OpenRelated, ReadWhole, ReadRelated and Lines read
// JSON, JSONC and JSON Lines as the agents do: a leading UTF-8 BOM is
// skipped (SkipBOM) and CRLF reads like LF; OpenRaw gives the bytes as
// collected. parsertest.Golden re-runs every JSON golden input written
// with a BOM and CRLF and requires the same rows. A document walked with a
// token decoder gets its records' lines from LineIndex.
package parser
