package letta

import (
	"context"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sessionOptions read a local-backend transcript through pi's session
// reader: Letta writes pi session entries ("pi-session-entry-jsonl").
var sessionOptions = pisession.Options{
	Agent:      Agent,
	Contract:   true,
	QualifyIDs: true, // entry ids are 8 hex digits, unique only within a file
	Harness:    isReminder,
}

// isReminder reports a user text block Letta Code writes around the typed
// prompt: the environment, agent and permission-mode reminders.
func isReminder(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), "<system-reminder>")
}

// lineHead is what the reader needs of a line before pi's reader takes it.
type lineHead struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Message *struct {
		ID string `json:"id"`
	} `json:"message"`
	Timestamp string `json:"timestamp"`
}

func parseConversation(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	s := pisession.NewSession(in, out, sessionOptions)
	conv, _ := conversationOf(in.Path)
	s.SetID(conv)
	// Letta rewrites a message by appending a new entry with the same
	// message id (an append-only replacement snapshot); both copies stay,
	// and a system row says the later one replaced the earlier. This map
	// drops no record: every entry goes to the session reader above and
	// is a row under its own entry id, so a second copy of one entry (the
	// same entry id) reaches the correlate stage, which writes it once or
	// names the conflict. The map only derives the "rewritten" row, once
	// per new entry, never for a copy of the same entry.
	type held struct {
		line  int64
		entry string
	}
	seen := map[string]held{}
	first := true
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		switch {
		case len(objs) == 0:
			out.Problem(n, parser.BadJSONLine(nil))
			return nil
		case lost || len(objs) > 1:
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), lost))
		}
		for _, o := range objs {
			var h lineHead
			if err := json.Unmarshal(o, &h); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				continue
			}
			if first && h.Type != "session" {
				out.Problem(n, "no session header on the first line")
			}
			first = false
			s.Entry(ctx, n, o)
			if h.Message == nil || h.Message.ID == "" {
				continue
			}
			prev, ok := seen[h.Message.ID]
			if ok && prev.entry == h.ID {
				continue // a copy of the entry itself, not a rewrite
			}
			if ok {
				t, _ := isoTime(h.Timestamp)
				e := s.Event(t, timeline.System, "message "+h.Message.ID+" rewritten: entry "+h.ID+" replaces the copy at line "+strconv.FormatInt(prev.line, 10), n, h.ID+"#replaces")
				out.Event(e)
			}
			seen[h.Message.ID] = held{line: n, entry: h.ID}
		}
		return nil
	})
}
