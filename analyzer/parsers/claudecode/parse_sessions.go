package claudecode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Sessions returns the parser of the per-process registry,
// .claude/sessions/<pid>.json.
func Sessions() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/sessions",
		Actions: Actions,
		Trace:   true,
		Agent:   Agent,
		Version: 2,
		Targets: []string{"sessions"},
		Names:   []string{"*.json"},
		Doc:     "Claude Code process registry (.claude/sessions/<pid>.json): one row per running process",
	}, parseSessions)
}

// processEntry holds the keys read from sessions/<pid>.json.
type processEntry struct {
	PID             json.RawMessage `json:"pid"`
	SessionID       string          `json:"sessionId"`
	Cwd             string          `json:"cwd"`
	StartedAt       json.RawMessage `json:"startedAt"`
	Kind            string          `json:"kind"`
	Status          string          `json:"status"`
	Entrypoint      string          `json:"entrypoint"`
	BridgeSessionID string          `json:"bridgeSessionId"`
	HostSessionID   string          `json:"hostSessionId"`
}

func parseSessions(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var p processEntry
	if err := json.NewDecoder(rc).Decode(&p); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	pid := parser.JSONText(p.PID)
	if pid == "" {
		pid = strings.TrimSuffix(in.Base(), ".json")
	}
	none := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	e := timeline.Event{
		Time:        epochMillis(p.StartedAt),
		SessionID:   p.SessionID,
		ProjectPath: p.Cwd,
		TurnType:    timeline.System,
		Text: "claude-code process " + pid + " " + orDash(p.Kind) + " status=" + orDash(p.Status) +
			" entrypoint=" + orDash(p.Entrypoint) + " bridge=" + none(p.BridgeSessionID) +
			" host_session=" + none(p.HostSessionID),
	}
	if e.Time.IsZero() {
		e.Time, e.TimeBasis = in.MTime, timeline.TimeFileMTime
		if in.MTime.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
	}
	out.Event(e)
	if p.BridgeSessionID != "" && p.SessionID != "" {
		s := timeline.Event{Time: in.MTime, TimeBasis: timeline.TimeFileMTime, SessionID: p.SessionID,
			ProjectPath: p.Cwd, TurnType: timeline.System,
			Text: "session synced: remote control bridge " + p.BridgeSessionID + " url - (from " + in.Path + ", file mtime)"}
		if in.MTime.IsZero() {
			s.TimeBasis = timeline.TimeNone
		}
		out.Event(s)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: p.SessionID},
			Synced: "yes"})
	}
	return nil
}
