package hermes

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"
	"go.yaml.in/yaml/v3"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// divert is one line of a sessions/<id>.jsonl divert: a message as
// state.db's messages table holds it (role, content, tool_calls,
// tool_call_id, tool_name, timestamp as Unix seconds or an ISO time,
// reasoning_content).
type divert struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
	ToolCallID       string          `json:"tool_call_id"`
	ToolName         string          `json:"tool_name"`
	Timestamp        json.RawMessage `json:"timestamp"`
	ReasoningContent string          `json:"reasoning_content"`
	SessionID        string          `json:"session_id"`
}

func parseSessionJSONL(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	file := strings.TrimSuffix(base(in.Path), ".jsonl")
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var d divert
		if err := json.Unmarshal(line, &d); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		sid := d.SessionID
		if sid == "" {
			sid = file
		}
		e := timeline.Event{SessionID: sid, SourceLine: n, Secondary: true}
		divertTime(&e, d.Timestamp)
		text := contentText(d.Content)
		emitted := 0
		emit := func(x timeline.Event) { emitted++; out.Event(x) }
		switch d.Role {
		case "user":
			x := e
			x.TurnType, x.Text = timeline.User, text
			emit(x)
		case "assistant":
			if strings.TrimSpace(d.ReasoningContent) != "" {
				x := e
				x.TurnType, x.Text = timeline.Thinking, d.ReasoningContent
				emit(x)
			}
			if strings.TrimSpace(text) != "" {
				x := e
				x.TurnType, x.Text = timeline.Assistant, text
				emit(x)
			}
			raw := d.ToolCalls
			var s string
			if json.Unmarshal(raw, &s) == nil {
				raw = []byte(s)
			}
			var calls []toolCall
			_ = json.Unmarshal(raw, &calls)
			for _, c := range calls {
				x := e
				args := argsJSON(c.Function.Arguments)
				x.TurnType, x.ToolName, x.ToolUseID, x.ToolInput, x.Text, x.RecordID = timeline.ToolUse, c.Function.Name, c.ID, args, callText(c.Function.Name, args), c.ID
				emit(x)
			}
		case "tool":
			x := e
			x.TurnType, x.Text, x.ToolUseID, x.ToolName, x.IsError = timeline.ToolResult, text, d.ToolCallID, d.ToolName, "false"
			if d.ToolCallID != "" {
				x.RecordID = d.ToolCallID + "#output"
			}
			emit(x)
		case "system":
			x := e
			x.TurnType, x.Text = timeline.System, "system: "+text
			emit(x)
		default:
			out.Report(n, parser.KindSkippedRecord, "message without a known role: "+d.Role)
			return nil
		}
		if emitted == 0 {
			out.Skip(n, "no_evidence:empty_"+d.Role)
		}
		return nil
	})
}

func divertTime(e *timeline.Event, raw json.RawMessage) {
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		setUnix(e, f)
		return
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			e.Time = t.UTC()
			return
		}
		if t, err := time.Parse("2006-01-02T15:04:05.999999999", s); err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
			return
		}
	}
	e.TimeBasis = timeline.TimeNone
}

func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []map[string]any
	if json.Unmarshal(raw, &parts) == nil {
		var t []string
		for _, p := range parts {
			if x, ok := p["text"].(string); ok {
				t = append(t, x)
			} else if ty, ok := p["type"].(string); ok {
				t = append(t, "["+ty+"]")
			}
		}
		return strings.Join(t, "\n")
	}
	return parser.CompactJSON(raw)
}

func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.FileHistory(ctx, rc, out, func(n int64, at, text string) {
		e := timeline.Event{TurnType: timeline.User, Text: text, SourceLine: n, Secondary: true}
		if t, err := time.Parse("2006-01-02 15:04:05.999999999", at); err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	})
}

var cronNameTimes = []string{"2006-01-02_15-04-05", "2006-01-02T15-04-05", "20060102-150405", "2006-01-02_150405"}

// parseCronOutput reads one cron run's output file: an assistant row in
// the job's folder name as session-less context, at the time its file
// name gives (host-local) or its mtime.
func parseCronOutput(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "cron output not read: "+err.Error())
		return nil
	}
	p := slash(in.Path)
	job := path.Base(path.Dir(p))
	stem := strings.TrimSuffix(base(p), ".md")
	e := parser.SettingEvent(&in.File)
	for _, l := range cronNameTimes {
		if t, err := time.Parse(l, stem); err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
			break
		}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Skip(1, "no_evidence:empty_output")
		return nil
	}
	e.TurnType, e.Text, e.SourceLine, e.Secondary = timeline.Assistant, "cron job "+job+" output: "+string(b), 1, true
	out.Event(e)
	return nil
}

var pasteRe = regexp.MustCompile(`https?://paste\.rs/[A-Za-z0-9._-]+`)

// parsePastes reads pastes/pending.json for the paste.rs links of debug
// share uploads (whatever its layout: every such link once).
func parsePastes(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "pending.json not read: "+err.Error())
		return nil
	}
	if !json.Valid(b) {
		out.Problem(0, parser.NotJSON("pending.json", nil))
		return nil
	}
	// Every occurrence is a row with its own identity, the byte offset
	// (the same URL twice is two entries of the file; the parser drops
	// none, the correlation pass decides).
	for _, loc := range pasteRe.FindAllIndex(b, -1) {
		u := string(b[loc[0]:loc[1]])
		e := parser.SettingEvent(&in.File)
		e.SourceLine = int64(bytes.Count(b[:loc[0]], []byte("\n")) + 1)
		e.RecordID = "pending.json@" + strconv.Itoa(loc[0]) // no id in the file: its byte offset
		e.Text = "debug share uploaded to " + u + " (hermes debug share; from " + parser.DisplayFile(&in.File) + ", file mtime)"
		out.Event(e)
	}
	return nil
}

// parseApprovals reads the standing approvals: config.yaml's
// command_allowlist (no other key) and a pairing store
// <platform>-approved.json (an object of approved user ids, or a list).
func parseApprovals(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "approvals not read: "+err.Error())
		return nil
	}
	file := parser.DisplayFile(&in.File)
	name := base(in.Path)
	emit := func(line int64, text string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine, e.Text = line, text+" (from "+file+", file mtime)"
		out.Event(e)
	}
	if name == "config.yaml" {
		var root yaml.Node
		if err := yaml.Unmarshal(b, &root); err != nil {
			out.Problem(0, "config.yaml not valid YAML: "+err.Error())
			return nil
		}
		if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
			return nil
		}
		m := root.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value != "command_allowlist" {
				continue
			}
			v := m.Content[i+1]
			if v.Kind == yaml.SequenceNode {
				for _, it := range v.Content {
					emit(int64(it.Line), "permission setting: command_allowlist="+parser.RedactSecrets(it.Value))
				}
			} else {
				emit(int64(v.Line), "permission setting: command_allowlist="+parser.RedactSecrets(v.Value))
			}
		}
		return nil
	}
	platform := strings.TrimSuffix(name, "-approved.json")
	var obj map[string]json.RawMessage
	var list []json.RawMessage
	switch {
	case json.Unmarshal(b, &obj) == nil:
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			emit(lineOf(b, k), strings.TrimSpace(fmt.Sprintf("permission setting: approved %s user %s %s", platform, k, detail(obj[k]))))
		}
	case json.Unmarshal(b, &list) == nil:
		for _, it := range list {
			var s string
			if json.Unmarshal(it, &s) != nil {
				s = parser.CompactJSON(it)
			}
			emit(lineOf(b, s), fmt.Sprintf("permission setting: approved %s user %s", platform, parser.RedactSecrets(s)))
		}
	default:
		out.Problem(0, "not a pairing store (a JSON object or list)")
	}
	return nil
}

// detail renders a pairing entry's value: its name and approval time
// when it has them.
func detail(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return "(" + parser.RedactSecrets(parser.CompactJSON(raw)) + ")"
	}
	var parts []string
	for _, k := range []string{"user_name", "username", "name", "display_name"} {
		if v, ok := m[k].(string); ok && v != "" {
			parts = append(parts, v)
			break
		}
	}
	for _, k := range []string{"approved_at", "paired_at", "created_at"} {
		if t, ok := unixTime(m[k]); ok {
			parts = append(parts, "approved "+t.Format("2006-01-02T15:04:05Z"))
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func lineOf(data []byte, s string) int64 {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 0
	}
	return int64(bytes.Count(data[:i], []byte("\n")) + 1)
}
