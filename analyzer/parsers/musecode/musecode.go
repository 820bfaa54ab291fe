package musecode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name of Muse Code.
const Agent = "muse-code"

// Parsers returns the Muse Code parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "muse-code/sessions", Agent: Agent, Version: 2,
			Targets: []string{"sessions"}, Names: []string{"session.jsonl"},
			Doc: "sessions/YYYY/MM/DD/<id>/session.jsonl and subagent/<id>/session.jsonl event envelopes at their recorded_at: one system row per event (kind and compact payload; field names of the turns are not confirmed), subagents linked to their parent session",
		}, parseSession),
		parser.New(parser.Spec{
			ID: "muse-code/tui-history", Agent: Agent, Version: 1,
			Targets: []string{"tui-history"}, Names: []string{"tui-history.jsonl"},
			Doc:       "tui-history.jsonl: the prompts typed in the TUI (secondary, no time, no session)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User}, Basis: "the seed: tui-history.jsonl holds prompts without timestamps"},
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "muse-code/trust", Agent: Agent, Version: 1,
			Targets: []string{"trust"}, Names: []string{"trust.json"},
			Doc: ".config/muse/trust.json: one permission setting row per trusted project entry (file mtime)",
		}, parseTrust),
	}
}

// sessionDirs returns a session log's own id and, for a subagent log
// (<parent>/subagent/<id>/session.jsonl), its parent's id.
func sessionDirs(p string) (id, parent string) {
	p = strings.ReplaceAll(p, "\\", "/")
	dir := path.Dir(p)
	id = path.Base(dir)
	if path.Base(path.Dir(dir)) == "subagent" {
		parent = path.Base(path.Dir(path.Dir(dir)))
	}
	return id, parent
}

// envelope is an event line: the seed names recorded_at (microsecond
// precision); the event's kind is taken from the first of type, kind,
// event, name.
type envelope map[string]json.RawMessage

func (e envelope) str(keys ...string) string {
	for _, k := range keys {
		var s string
		if json.Unmarshal(e[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func parseTime(raw json.RawMessage) (time.Time, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999Z07:00"} {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), true
			}
		}
		return time.Time{}, false
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil && f > 0 {
		switch {
		case f > 1e15: // microseconds
			return time.UnixMicro(int64(f)).UTC(), true
		case f > 1e12: // milliseconds
			return time.UnixMilli(int64(f)).UTC(), true
		default:
			return time.Unix(int64(f), int64((f-float64(int64(f)))*1e9)).UTC(), true
		}
	}
	return time.Time{}, false
}

// parseSession writes one system row per event envelope. The turn
// structure (which kinds are prompts, replies, tool calls and results,
// approvals) is not confirmed from a source or a release here, so no event
// is typed as a prompt or a reply on a guess: each row names the event's
// kind and carries its payload.
func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	id, parent := sessionDirs(in.Path)
	if parent != "" {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{SessionID: id}, ParentSessionID: parent})
	}
	first := true
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var e envelope
		if err := json.Unmarshal(line, &e); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		ev := timeline.Event{TurnType: timeline.System, SessionID: id, ParentSessionID: parent, SourceLine: n}
		if t, ok := parseTime(e["recorded_at"]); ok {
			ev.Time = t
		} else {
			ev.TimeBasis = timeline.TimeNone
		}
		if first && parent != "" {
			first = false
			x := ev
			x.Text = "subagent " + parser.Shown(id) + " of " + parser.Shown(parent)
			out.Event(x)
		}
		first = false
		kind := e.str("type", "kind", "event", "name")
		if kind == "" {
			kind = "event"
		}
		if cid := e.str("call_id"); cid != "" {
			ev.ToolUseID = cid
		}
		if rid := e.str("id", "event_id"); rid != "" {
			ev.RecordID = rid
		}
		keys := make([]string, 0, len(e))
		for k := range e {
			if k != "recorded_at" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+parser.CompactJSON(e[k]))
		}
		ev.Text = "event " + kind + ": " + strings.Join(parts, " ")
		out.Event(ev)
		return nil
	})
}

// parseHistory reads tui-history.jsonl: each line a prompt, a JSON string
// or an object whose text is under one of the usual keys.
func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		text := ""
		var s string
		if json.Unmarshal(line, &s) == nil {
			text = s
		} else {
			var e envelope
			if err := json.Unmarshal(line, &e); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				return nil
			}
			text = e.str("text", "prompt", "input", "content", "display", "entry", "value", "message")
			if text == "" {
				out.Report(n, parser.KindSkippedRecord, "history entry without a known text key")
				return nil
			}
		}
		if strings.TrimSpace(text) == "" {
			out.Skip(n, "no_evidence:empty-history-entry")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.User, Text: text, SourceLine: n, TimeBasis: timeline.TimeNone, Secondary: true})
		return nil
	})
}

// parseTrust writes one permission setting row per leaf of trust.json
// (the trusted projects), at the file's mtime.
func parseTrust(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 8<<20))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var top json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSON("trust.json", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	clinetask.Flatten("trust", top, func(key, value string) {
		e := parser.SettingEvent(&in.File)
		e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, file)
		out.Event(e)
	})
	return nil
}
