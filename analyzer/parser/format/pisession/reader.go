package pisession

import (
	"bytes"
	"context"
	"errors"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"slices"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Options adapt the session reader to an agent whose transcripts are pi
// session entries: Letta Code's local backend (messages.jsonl) and
// OpenClaw (one entry per transcript_events row). pi's own parser uses
// Options{Agent: "pi", LittleCoder: true}, which is its behaviour before
// the reader was exported.
type Options struct {
	// Agent is the catalog name the session states carry.
	Agent string
	// LittleCoder turns on little-coder detection (pi's own files).
	LittleCoder bool
	// Contract brings the rows to the parser contract: every row carries a
	// RecordID (the entry id; "<id>#<n>" for the n-th content block of a
	// message, "<id>#model", "#error", "#decision" for derived rows) and
	// every entry gives rows, a Skip or a problem.
	Contract bool
	// QualifyIDs prefixes each RecordID with "<session id>/" (Letta's
	// 8-hex entry ids repeat across conversations).
	QualifyIDs bool
	// Harness reports a user message's text block the harness wrote
	// (system reminders): such a block is a system row, never user.
	Harness func(text string) bool
	// UserOrigin classifies a whole user message by its raw JSON: "" for
	// text a person typed, else the prefix of the system row the message
	// becomes (a message another session or an internal tool wrote).
	UserOrigin func(raw []byte) string
	// ToolResultNote reads a tool result message (its raw entry) and returns
	// the text of a system row to write after it ("" for none): a
	// permission decision the agent records only in the result's details.
	ToolResultNote func(raw []byte) string
	// Custom handles an entry of type "custom" and reports whether it did
	// (gave rows or a Skip). In contract mode an entry it leaves is a
	// system row "<customType>: <data>".
	Custom func(s *Session, n int64, c CustomEntry) bool
	// Extra handles an entry of a type the reader does not know (a fork's
	// own entry types: OhMyPi's title slot and model_usage, Prime Agent's
	// child_usage_attributed) and reports whether it did (gave rows, a
	// Skip or a problem); an entry it leaves is an "unknown entry type"
	// problem.
	Extra func(s *Session, n int64, typ string, raw []byte) bool
	// Leading names entry types that may come before the session header
	// (OhMyPi's fixed-width title slot line) without a "no session header"
	// problem.
	Leading []string
	// ParentID gives the parent session id of a header's parentSession
	// when no collected parent file names it (OhMyPi records the id
	// itself, Prime Agent a path that may be another machine's); nil reads
	// the id from a pi file name <time>_<id>.jsonl.
	ParentID func(in *parser.Input, parentSession string) string
}

// CustomEntry is an extension's custom entry (no model context).
type CustomEntry struct {
	ID, Type string
	Time     time.Time
	Data     json.RawMessage
}

// Session reads the entries of one pi-format session.
type Session struct{ st *sessionState }

// NewSession returns a reader writing to out. in gives related files
// (a fork's parent, little-coder checkpoints).
func NewSession(in *parser.Input, out parser.Sink, o Options) *Session {
	st := &sessionState{out: out, opt: o, in: in}
	if o.LittleCoder {
		// little-coder keeps pre-edit copies under a directory named for
		// the session file.
		if home := HomeOf(in.Path); home != "" && len(in.List(parser.GlobEscape(home+"/.little-coder/checkpoints/"+path.Base(in.Path))+"/*")) > 0 {
			st.lcPending = "pre-edit checkpoints in .little-coder/checkpoints/" + path.Base(in.Path)
		}
	}
	return &Session{st: st}
}

// SetID sets the session id used until a header names one.
func (s *Session) SetID(id string) { s.st.sid = id }

// ID returns the session id.
func (s *Session) ID() string { return s.st.sid }

// Cwd returns the session header's working directory.
func (s *Session) Cwd() string { return s.st.cwd }

// Model returns the model in use.
func (s *Session) Model() string { return s.st.model }

// SetModel records the model in use without a row.
func (s *Session) SetModel(m string) { s.st.model = m }

// Skip accounts for an entry without a row (contract mode).
func (s *Session) Skip(n int64, reason string) { s.st.skip(n, reason) }

// Emit writes a row of the session for entry id (a suffix "#..." keeps
// one entry's rows apart).
func (s *Session) Emit(t time.Time, tt timeline.TurnType, text string, n int64, id string) {
	s.st.emitID(t, tt, text, n, id)
}

// Out returns the sink rows go to.
func (s *Session) Out() parser.Sink { return s.st.out }

// Event returns a row of the session (time inherited from the header
// when t is zero) with its record id.
func (s *Session) Event(t time.Time, tt timeline.TurnType, text string, n int64, id string) timeline.Event {
	e := s.st.event(t, tt, text, n)
	e.RecordID = s.st.rid(id)
	return e
}

// ReadLines reads a JSON Lines session file: each line one entry (glued
// entries split), the first a session header.
func (s *Session) ReadLines(ctx context.Context, r io.Reader) error {
	first := true
	return parser.Lines(ctx, r, s.st.out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				s.st.out.Problem(n, parser.BadJSONLine(nil))
			} else {
				s.st.out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
			}
		}
		for _, o := range objs {
			var e entry
			dec := json.NewDecoder(bytes.NewReader(o))
			dec.UseNumber()
			if err := dec.Decode(&e); err != nil {
				s.st.out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			if first && slices.Contains(s.st.opt.Leading, e.Type) {
				s.st.entry(ctx, s.st.in, n, &e, o)
				continue
			}
			if first && e.Type != "session" {
				s.st.out.Problem(n, "no session header on the first line")
			}
			first = false
			s.st.entry(ctx, s.st.in, n, &e, o)
		}
		return nil
	})
}

// Entry reads one entry (a JSON object) at position n (a line or a rowid).
func (s *Session) Entry(ctx context.Context, n int64, raw []byte) {
	var e entry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&e); err != nil {
		s.st.out.Problem(n, parser.NotJSONObject("entry", err))
		return
	}
	s.st.entry(ctx, s.st.in, n, &e, raw)
}

// rid is the RecordID of an entry id (with its suffix) in contract mode.
func (st *sessionState) rid(id string) string {
	if !st.opt.Contract || id == "" || id[0] == '#' {
		return ""
	}
	if st.opt.QualifyIDs && st.sid != "" {
		return st.sid + "/" + id
	}
	return id
}

// skip accounts for an entry without a row, in contract mode.
func (st *sessionState) skip(n int64, reason string) {
	if st.opt.Contract {
		st.out.Skip(n, reason)
	}
}

// MainArg is a tool call's most identifying argument (the command, path,
// URL, pattern or query): the text of the tool_use rows the reader writes,
// for a parser that writes a secondary copy of a call.
func MainArg(args json.RawMessage) string { return mainArg(args) }

// ContentText joins the text blocks of a string or block-list content as
// the reader does (images named, not inlined).
func ContentText(content json.RawMessage) string { return contentText(content) }

// Header is the part of a session file's first line (its SessionHeader)
// that names the session: type "session", the id and the cwd.
type Header struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Cwd  string `json:"cwd"`
}

// SetParent makes the session a subagent of psid before its entries are
// read: its rows carry the parent (a header's parentSession still wins).
// The caller links the two with a session state once the id is known.
func (s *Session) SetParent(psid string) { s.st.parentSID = psid }

// HeaderID reads the session id of the collected session file p from its
// header (a leading title slot line skipped): "", false when p was not
// collected or has no header.
func HeaderID(ctx context.Context, in *parser.Input, p string) (string, bool) {
	rc, err := in.OpenRelated(p)
	if err != nil {
		return "", false
	}
	defer rc.Close()
	id, ok := "", false
	stop := errors.New("stop")
	_ = parser.Lines(ctx, rc, nil, func(_ int64, line []byte) error {
		var e struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(line, &e) != nil {
			return stop
		}
		if e.Type == "title" {
			return nil
		}
		id, ok = e.ID, e.Type == "session"
		return stop
	})
	return id, ok
}

// SessionIDOfPath is the id in a pi session file name <time>_<id>.jsonl
// ("" when the name has no "_").
func SessionIDOfPath(p string) string { return sessionIDOfPath(p) }
