// Package timeline defines DoubleAgent's output rows: Event (one row of
// timeline.jsonl), Session (one row of sessions.jsonl), their fixed field
// order, the JSON Lines encoder, and the order rows are written in.
//
// The row contract is documented in analyzer/docs/output.md: fields are only
// ever appended, every field is always present, and "" stands for no value.
// Times are UTC throughout; an event whose time the source did not record
// has a zero Time and says how its time was (not) obtained in TimeBasis.
package timeline
