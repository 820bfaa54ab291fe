package parser

import "github.com/doubleagent/doubleagent/analyzer/timeline"

// recSink records what a parser function writes, for this package's tests.
type recSink struct {
	events []timeline.Event
	states []timeline.SessionState
	probs  []string
}

func (s *recSink) Event(e timeline.Event)             { s.events = append(s.events, e) }
func (s *recSink) Session(st timeline.SessionState)   { s.states = append(s.states, st) }
func (s *recSink) Problem(_ int64, m string)          { s.probs = append(s.probs, m) }
func (s *recSink) Report(_ int64, _ string, m string) { s.probs = append(s.probs, m) }
func (s *recSink) Skip(_ int64, _ string)             {}
