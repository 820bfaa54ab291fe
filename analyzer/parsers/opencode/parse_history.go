package opencode

import (
	"context"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parsePromptHistory reads the terminal UI's prompt-history.jsonl (one
// {input, parts, mode} per prompt typed, newest last, no time and no
// session) as secondary user rows, and prompt-stash.jsonl (drafts put
// aside with {input, parts, timestamp}) as secondary "prompt stashed:"
// system rows.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if baseName(in.Path) == "session.json" {
		return parseTUISession(in, out)
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	stash := strings.HasPrefix(baseName(in.Path), "prompt-stash")
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var v struct {
			Input     string `json:"input"`
			Mode      string `json:"mode"`
			Timestamp num    `json:"timestamp"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if strings.TrimSpace(v.Input) == "" {
			out.Skip(n, "empty_prompt")
			return nil
		}
		ev := timeline.Event{SourceLine: n, Secondary: true, Text: v.Input, TurnType: timeline.User}
		if t := msTime(int64(v.Timestamp)); !t.IsZero() {
			ev.Time = t
		} else {
			ev.TimeBasis = timeline.TimeNone
		}
		if v.Mode == "shell" {
			ev.Text = "!" + v.Input
		}
		if stash {
			ev.TurnType, ev.Text = timeline.System, "prompt stashed: "+ev.Text
		}
		out.Event(ev)
		return nil
	})
}

// parseTUISession reads the terminal UI's session.json (Global.Path.state):
// {pinned: [session ids]} in Kilo and OpenCode, with dismissedRecent and
// recentOrder (the sessions last opened, newest first) in later OpenCode
// builds. OpenCode prunes a deleted session from the lists, so an id here
// is a session the TUI still knew. Each entry is a secondary system row of
// that session at the file's mtime: "session pinned in the TUI",
// "session dismissed from the TUI's recent list", "session opened in the
// TUI: rank <n> of <total> in the recent list".
func parseTUISession(in *parser.Input, out parser.Sink) error {
	var v struct {
		Pinned          []string `json:"pinned"`
		DismissedRecent []string `json:"dismissedRecent"`
		RecentOrder     []string `json:"recentOrder"`
	}
	if err := decodeFile(in.Open, &v); err != nil {
		out.Problem(1, "session.json: "+err.Error())
		return nil
	}
	n := 0
	row := func(sid, text string) {
		if strings.TrimSpace(sid) == "" {
			return
		}
		n++
		ev := timeline.Event{SessionID: sid, SourceLine: 1, Secondary: true, TurnType: timeline.System,
			Text: text + " (from session.json, file mtime)"}
		if in.MTime.IsZero() {
			ev.TimeBasis = timeline.TimeNone
		} else {
			ev.Time, ev.TimeBasis = in.MTime, timeline.TimeFileMTime
		}
		out.Event(ev)
	}
	for _, id := range v.Pinned {
		row(id, "session pinned in the TUI")
	}
	for _, id := range v.DismissedRecent {
		row(id, "session dismissed from the TUI's recent list")
	}
	for i, id := range v.RecentOrder {
		row(id, "session opened in the TUI: rank "+itoa(int64(i+1))+" of "+itoa(int64(len(v.RecentOrder)))+" in the recent list")
	}
	if n == 0 {
		out.Skip(1, "state_only:no session listed")
	}
	return nil
}
