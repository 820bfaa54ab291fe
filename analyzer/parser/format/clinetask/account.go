package clinetask

import (
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// countingSink passes everything on and counts what a record gave (rows,
// problems, skips), so a reader can account for a record that gave nothing.
type countingSink struct {
	parser.Sink
	n int64
}

func (c *countingSink) Event(e timeline.Event)           { c.n++; c.Sink.Event(e) }
func (c *countingSink) Problem(line int64, msg string)   { c.n++; c.Sink.Problem(line, msg) }
func (c *countingSink) Report(line int64, k, msg string) { c.n++; c.Sink.Report(line, k, msg) }
func (c *countingSink) Skip(line int64, reason string)   { c.n++; c.Sink.Skip(line, reason) }

// accountFor runs fn for the record at line and, when it gave no row,
// problem or skip, accounts for it as skipped with reason.
func (c *countingSink) accountFor(line int64, reason string, fn func()) {
	before := c.n
	fn()
	if c.n == before {
		c.Skip(line, reason)
	}
}
