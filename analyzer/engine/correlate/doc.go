// Package correlate is the engine's fourth stage and the only place rows
// are merged, paired, linked to parents or given session state. Parsers
// emit every row they read, with its identity (record id, position,
// session); this stage decides, from what every file said:
//
//   - which rows repeat another by record id (one row each; a second
//     content under one id is kept and is a duplicate_id problem);
//   - which secondary rows (a history file, a log) repeat a primary row
//     of the same session within the window their parser declares;
//   - which rows without an id repeat another by full-value keys
//     (DupWindow), never by text alone and never by a hash alone;
//   - each session's state (synced, origin, relayed, recovered) and its
//     parent and fork links, merged over every parser and file in a fixed
//     order. A disagreement between the rows' parents and the session
//     states, or between two states, is a state_conflict problem naming
//     every value and where it was read.
//
// The timeline Aggregator only counts; it is told the links decided here
// (timeline.Aggregator.SetLinks). See analyzer/docs/output.md, "One
// event, one row".
package correlate
