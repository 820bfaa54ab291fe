package pi

import (
	"context"
	"fmt"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// secondarySink marks every row it passes on as secondary.
type secondarySink struct{ parser.Sink }

func (s secondarySink) Event(e timeline.Event) {
	e.Secondary = true
	s.Sink.Event(e)
}

// debugSection is the part of pi-debug.log being read.
type debugSection int

const (
	debugHeader debugSection = iota
	debugRendered
	debugMessages
)

// parseDebugLog reads ~/.pi/agent/pi-debug.log, which /debug overwrites
// with one snapshot: a header ("Debug output at <ISO time>", "Terminal:
// <w>x<h>", "Total lines: <n>"), "=== All rendered lines with visible
// widths ===" (the TUI's rendered lines, "[i] (w=..) <JSON string>"), and
// "=== Agent messages (JSONL) ===" (the session's messages as sent to the
// model, one JSON AgentMessage a line). PI_DEBUG_REDRAW=1 appends
// "[<ISO time>] fullRender: ..." lines to the same file.
//
// Rows: "debug snapshot at <time>: terminal <w>x<h>, <n> rendered
// line(s), <m> message(s)" at the header's time; each message through the
// session reader (user, assistant, thinking, tool_use, tool_result ...),
// secondary, at the message's own timestamp, with no session (the
// snapshot does not name one). Rendered lines and redraw lines are skips
// (the messages hold the conversation the screen shows).
func parseDebugLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sess := newSession(in, secondarySink{out}, sessionOptions{Agent: Agent, Contract: true})
	var (
		section  = debugHeader
		head     int64
		headText string
		terminal string
		total    string
		messages int
	)
	flush := func() {
		if head == 0 {
			return
		}
		t, ok := parser.ParseTime(headText)
		e := timeline.Event{Time: t, TurnType: timeline.System, SourceLine: head,
			Text: fmt.Sprintf("debug snapshot at %s: terminal %s, %s rendered line(s), %d message(s)", orDash(headText), orDash(terminal), orDash(total), messages)}
		if !ok {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
		head = 0
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		s := strings.TrimRight(string(line), " ")
		switch {
		case strings.HasPrefix(s, "Debug output at "):
			flush()
			section, head, headText, terminal, total, messages = debugHeader, n, strings.TrimPrefix(s, "Debug output at "), "", "", 0
			return nil
		case strings.HasPrefix(s, "=== All rendered lines"):
			section = debugRendered
			out.Skip(n, "state_only")
			return nil
		case strings.HasPrefix(s, "=== Agent messages"):
			section = debugMessages
			out.Skip(n, "state_only")
			return nil
		case strings.HasPrefix(s, "[") && strings.Contains(s, "] fullRender: "):
			out.Skip(n, "no_evidence:redraw_log")
			return nil
		}
		switch section {
		case debugHeader:
			switch {
			case strings.HasPrefix(s, "Terminal: "):
				terminal = strings.TrimPrefix(s, "Terminal: ")
				out.Skip(n, "state_only")
			case strings.HasPrefix(s, "Total lines: "):
				total = strings.TrimPrefix(s, "Total lines: ")
				out.Skip(n, "state_only")
			default:
				out.Problem(n, "not a pi-debug.log line")
			}
		case debugRendered:
			out.Skip(n, "no_evidence:rendered_tui_line")
		case debugMessages:
			var probe struct {
				Role string `json:"role"`
			}
			if err := json.Unmarshal(line, &probe); err != nil {
				out.Problem(n, parser.BadJSONLine(err))
				return nil
			}
			if probe.Role == "" {
				out.Problem(n, "agent message line has no role")
				return nil
			}
			messages++
			b, _ := json.Marshal(map[string]json.RawMessage{"type": json.RawMessage(`"message"`), "message": json.RawMessage(line)})
			sess.Entry(ctx, n, b)
		}
		return nil
	})
	flush()
	return err
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// parseExperimentalMeta reads ~/.pi/agent/experimental/sessions/<id>/
// meta.json, the experimental server's record of one durable session (its
// id, creation time and working directory; the pi-durable store
// session.sqlite beside it is not parsed): one system row "experimental
// session <id>: cwd=<cwd> storage=<...>" at the creation time, session id
// the record's (else the directory name), project path its cwd.
func parseExperimentalMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 1<<20)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(1, parser.NotJSONObject("meta.json", err))
		return nil
	}
	str := func(keys ...string) string {
		for _, k := range keys {
			if s := parser.StringValue(m[k]); s != "" {
				return s
			}
		}
		return ""
	}
	dir := in.Path[:strings.LastIndexByte(in.Path, '/')]
	id := str("id", "sessionId")
	if id == "" {
		id = dir[strings.LastIndexByte(dir, '/')+1:]
	}
	cwd := str("cwd", "workingDirectory", "workdir")
	e := timeline.Event{SessionID: id, ProjectPath: cwd, TurnType: timeline.System, SourceLine: 1, RecordID: id + "#meta"}
	created := false
	for _, k := range []string{"createdAt", "created_at", "created", "createdAtMs", "timestamp"} {
		raw := m[k]
		if len(raw) == 0 {
			continue
		}
		if t, ok := parser.ParseTime(parser.StringValue(raw)); ok {
			e.Time, created = t, true
			break
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			if t, ok := msTime(n); ok {
				e.Time, created = t, true
				break
			}
		}
	}
	if !created {
		if in.MTime.IsZero() {
			e.TimeBasis = timeline.TimeNone
		} else {
			e.Time, e.TimeBasis = in.MTime.UTC(), timeline.TimeFileMTime
		}
	}
	storage := "session.sqlite not collected"
	if len(in.List(parser.GlobEscape(dir)+"/session.sqlite")) > 0 {
		storage = "session.sqlite collected, not parsed"
	}
	var extra []string
	for _, k := range sortedKeys(m) {
		switch k {
		case "id", "sessionId", "cwd", "workingDirectory", "workdir", "createdAt", "created_at", "created", "createdAtMs", "timestamp":
			continue
		}
		extra = append(extra, k+"="+parser.JSONText(m[k]))
	}
	text := "experimental session " + id + ": cwd=" + orDash(cwd)
	if len(extra) > 0 {
		text += " " + strings.Join(extra, " ")
	}
	e.Text = text + " (" + storage + ")"
	out.Event(e)
	return ctx.Err()
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
