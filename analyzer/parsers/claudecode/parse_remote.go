package claudecode

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Remote returns the parser of the server form of Remote Control's files
// in a project's transcript folder: bridge-pointer.json (the environment
// and session `claude remote-control` serves) and a session's
// <session>.ccr-tip.json (the last remote event mirrored into the local
// transcript).
func Remote() parser.Parser {
	return parser.New(parser.Spec{
		ID:      "claude-code/remote",
		Actions: Actions,
		Agent:   Agent,
		Version: 1,
		Targets: []string{"project-files", "project"},
		Names:   []string{"bridge-pointer.json", "*.ccr-tip.json", "ccr-tip.json"},
		Doc:     "Claude Code Remote Control server files: bridge-pointer.json and <session>.ccr-tip.json in .claude/projects/<slug>/",
	}, parseRemote)
}

// bridgePointer holds the keys read from bridge-pointer.json.
type bridgePointer struct {
	EnvironmentID string `json:"environmentId"`
	SessionID     string `json:"sessionId"`
	Source        string `json:"source"`
}

// ccrTip holds the keys read from a ccr-tip.json.
type ccrTip struct {
	EventID   string `json:"eventId"`
	UpdatedAt string `json:"updatedAt"`
}

func parseRemote(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	p := strings.ReplaceAll(in.Path, `\`, "/")
	base := baseOf(p)
	mtimeRow := func(e timeline.Event) timeline.Event {
		e.Time, e.TimeBasis = in.MTime, timeline.TimeFileMTime
		if in.MTime.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		return e
	}
	dec := json.NewDecoder(rc)
	if base == "bridge-pointer.json" {
		var b bridgePointer
		if err := dec.Decode(&b); err != nil {
			out.Problem(0, parser.NotJSON("", err))
			return nil
		}
		// The pointer's sessionId is the cloud session (session_...), not
		// a local transcript: the row names it and carries no session.
		out.Event(mtimeRow(timeline.Event{TurnType: timeline.System,
			Text: "remote control: environment " + orDash(b.EnvironmentID) + " session " + orDash(b.SessionID) +
				" source=" + orDash(b.Source) + " (from bridge-pointer.json, file mtime)"}))
		return nil
	}
	var c ccrTip
	if err := dec.Decode(&c); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	// <slug>/<session>.ccr-tip.json, or <slug>/<session>/ccr-tip.json.
	session := strings.TrimSuffix(base, ".ccr-tip.json")
	if base == "ccr-tip.json" {
		session = baseOf(dirOf(p))
	}
	e := timeline.Event{SessionID: session, TurnType: timeline.System,
		Text: "session synced: remote event " + orDash(c.EventID) + " at " + orDash(c.UpdatedAt) + " (from ccr-tip.json)"}
	if tm := parseTime(c.UpdatedAt); !tm.IsZero() {
		e.Time = tm
	} else {
		e = mtimeRow(e)
	}
	out.Event(e)
	if session != "" {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: session}, Synced: "yes"})
	}
	return nil
}
