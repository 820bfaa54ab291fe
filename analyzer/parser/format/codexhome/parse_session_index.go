package codexhome

import (
	"context"
	"fmt"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sessionIndexLine is one line of session_index.jsonl (openai/codex@3186b17
// codex-rs/core/src/rollout/session_index.rs SessionIndexEntry): appended,
// never rewritten, each time a thread is named (append_thread_name), the
// newest line for an id winning: {"id": "<thread uuid>", "thread_name":
// "<name>", "updated_at": "<RFC 3339 UTC, or \"unknown\">"}.
type sessionIndexLine struct {
	ID         string  `json:"id"`
	ThreadName *string `json:"thread_name"`
	UpdatedAt  string  `json:"updated_at"`
}

// SessionIndex returns the reader of the flavor's session_index.jsonl
// (catalog target "session-index"). It only names sessions
// (parser.Spec.Trace): a thread the index names whose rollout is gone
// reads recovered trace.
func SessionIndex(f Flavor) parser.Parser {
	return parser.New(parser.Spec{
		ID: f.Agent + "/session-index", Agent: f.Agent, Version: 2, Trace: true,
		Actions: Actions,
		Secondary: &parser.Secondary{Window: 10 * time.Minute, TurnTypes: []timeline.TurnType{timeline.System},
			Basis: "session_index.jsonl stamps a thread name when it is set (updated_at, now_utc), the rollout's thread_name_updated event the same moment"},
		Targets: []string{"session-index"},
		Names:   []string{"session_index.jsonl"},
		Doc:     f.Who + " session_index.jsonl: every name given to a thread, with its id and time (secondary source; names threads whose rollout may be gone)",
	}, parseSessionIndex)
}

// parseSessionIndex gives one system row "thread name: <name>" per line,
// in the thread's session, at updated_at ("unknown", or any time that is
// not RFC 3339, reads time_basis none). The rollout's thread_name_updated
// event gives the same row, so a live thread's index line pairs with it.
func parseSessionIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	err := walkRecords(ctx, in, out, func(n int64, raw []byte, kept int) {
		if raw == nil {
			out.Problem(n, parser.BadJSONLine(nil))
			return
		}
		if kept > 0 {
			out.Report(n, parser.KindGlued, parser.GluedProblem(kept, true))
		}
		var s sessionIndexLine
		if err := json.Unmarshal(raw, &s); err != nil {
			out.Problem(n, "not a session index record: "+parser.JSONError(err))
			return
		}
		if strings.TrimSpace(s.ID) == "" || s.ThreadName == nil {
			out.Problem(n, "session index record without id or thread_name")
			return
		}
		e := timeline.Event{SessionID: s.ID, TurnType: timeline.System, Text: "thread name: " + *s.ThreadName, SourceLine: n, Secondary: true}
		if t, ok := parser.ParseTime(s.UpdatedAt); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}
