package codexhome

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"math"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// historyLine is one line of history.jsonl (codex-rs message_history.rs):
// {"session_id": "<uuid>", "ts": <unix seconds>, "text": "<prompt>"}.
type historyLine struct {
	SessionID string   `json:"session_id"`
	TS        *float64 `json:"ts"`
	Text      *string  `json:"text"`
}

func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	err := walkRecords(ctx, in, out, func(n int64, raw []byte, kept int) {
		if raw == nil {
			out.Problem(n, parser.BadJSONLine(nil))
			return
		}
		if kept > 0 {
			out.Report(n, parser.KindGlued, parser.GluedProblem(kept, true))
		}
		var h historyLine
		if err := json.Unmarshal(raw, &h); err != nil {
			out.Problem(n, "not a history record: "+parser.JSONError(err))
			return
		}
		if h.Text == nil {
			out.Problem(n, "history record without text")
			return
		}
		e := timeline.Event{SessionID: h.SessionID, TurnType: timeline.User, Text: *h.Text, SourceLine: n, Secondary: true}
		if h.TS != nil && *h.TS > 0 && !math.IsInf(*h.TS, 0) {
			sec, frac := math.Modf(*h.TS)
			e.Time = time.Unix(int64(sec), int64(frac*1e9)).UTC()
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
