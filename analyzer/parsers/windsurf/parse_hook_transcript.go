package windsurf

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// toolSteps are the step types read as tool calls: code_action (the
// documented example), the tool-like types git-ai's Windsurf reader maps
// to tool calls, and mcp_tool.
var toolSteps = map[string]bool{
	"code_action": true, "view_file": true, "run_command": true, "find": true,
	"grep_search": true, "list_directory": true, "list_resources": true, "mcp_tool": true,
}

// identifyingKeys, in order of preference, name a tool step's most
// identifying argument.
var identifyingKeys = []string{
	"command_line", "command", "commandLine", "query", "pattern", "path", "file_path", "absolute_path",
	"absolute_path_uri", "uri", "url", "directory_path", "search_path", "search_directory", "tool_name",
}

// outputKeys hold what a tool step produced; they form the tool_result
// row and are left out of ToolInput.
var outputKeys = []string{"output", "stdout", "combined_output", "stderr", "result", "error", "exit_code"}

// hookState turns the steps of one transcript into rows.
type hookState struct {
	out     parser.Sink
	session string
	last    time.Time // time of the last step that recorded one
	steps   int       // steps read
	inputs  int       // user_input steps with text
	line    int64     // the line of the rows being written
	k       int       // rows written for that line
}

func parseHookTranscript(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	st := &hookState{out: out, session: strings.TrimSuffix(path.Base(strings.ReplaceAll(in.Path, `\`, "/")), ".jsonl")}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		switch {
		case lost && len(objs) == 0:
			out.Problem(n, parser.BadJSONLine(nil))
		case lost:
			out.Report(n, parser.KindGlued, parser.GluedProblem(len(objs), true))
		}
		for _, o := range objs {
			st.step(n, o)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The hook rewrites the file after each response: its mtime is when
	// the latest response completed, the one time the file surely holds.
	e := timeline.Event{Time: in.MTime, TimeBasis: timeline.TimeFileMTime, SessionID: st.session, TurnType: timeline.System,
		Text: fmt.Sprintf("cascade hook transcript: %d steps, %d user inputs (file mtime: written after the latest response)", st.steps, st.inputs)}
	if in.MTime.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
	return nil
}

// emit stamps a row with the line's time (or none) and sends it. The
// transcript keeps no record ids and is rewritten from its start after
// each response: a row's RecordID is "<trajectory>:<line>#<k>", the k-th
// row of that step, the same in every rewrite.
func (s *hookState) emit(n int64, t time.Time, basis timeline.TimeBasis, e timeline.Event) {
	if n != s.line {
		s.line, s.k = n, 0
	}
	e.Time, e.TimeBasis, e.SessionID, e.SourceLine = t, basis, s.session, n
	e.RecordID = fmt.Sprintf("%s:%d#%d", s.session, n, s.k)
	s.k++
	s.out.Event(e)
}

func (s *hookState) step(n int64, line []byte) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		s.out.Problem(n, parser.NotJSONObject("step", err))
		return
	}
	typ, status := parser.StringValue(m["type"]), parser.StringValue(m["status"])
	if typ == "" {
		s.out.Problem(n, "step has no type")
		return
	}
	s.steps++
	// The documented steps carry no time; take one when a step has it.
	t, basis := time.Time{}, timeline.TimeNone
	if ts, ok := parser.ParseTime(parser.StringValue(m["timestamp"])); ok {
		t, basis, s.last = ts, timeline.TimeRecorded, ts
	} else if ts, ok := parser.ParseTime(parser.StringValue(m["created_at"])); ok {
		t, basis, s.last = ts, timeline.TimeRecorded, ts
	} else if !s.last.IsZero() {
		t, basis = s.last, timeline.TimeInherited
	}
	emit := func(e timeline.Event) { s.emit(n, t, basis, e) }
	inner := m[typ]
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(inner, &obj)
	switch {
	case typ == "user_input" && parser.StringValue(obj["user_response"]) != "":
		s.inputs++
		emit(timeline.Event{TurnType: timeline.User, Text: parser.StringValue(obj["user_response"])})
		if r := rulesText(obj["rules_applied"]); r != "" {
			emit(timeline.Event{TurnType: timeline.System, Text: "rules applied: " + r})
		}
		return
	case typ == "planner_response" && (parser.StringValue(obj["response"]) != "" || parser.StringValue(obj["thinking"]) != ""):
		if th := parser.StringValue(obj["thinking"]); th != "" {
			emit(timeline.Event{TurnType: timeline.Thinking, Text: th})
		}
		if r := parser.StringValue(obj["response"]); r != "" {
			emit(timeline.Event{TurnType: timeline.Assistant, Text: r})
		}
		return
	case toolSteps[typ] && obj != nil:
		s.tool(n, typ, status, obj, emit)
		return
	}
	text := "step " + typ
	if status != "" {
		text += " (status " + status + ")"
	}
	if len(bytes.TrimSpace(inner)) > 0 && string(bytes.TrimSpace(inner)) != "null" {
		text += ": " + parser.CompactJSON(inner)
	}
	emit(timeline.Event{TurnType: timeline.System, Text: text})
}

// tool gives a tool step's tool_use row and, once its status is final,
// its tool_result row. The transcript records no call id: the call and
// its outcome are one step, so both rows carry "line:<n>".
func (s *hookState) tool(n int64, typ, status string, obj map[string]json.RawMessage, emit func(timeline.Event)) {
	use := timeline.Event{TurnType: timeline.ToolUse, ToolName: typ}
	input := map[string]json.RawMessage{}
	for k, v := range obj {
		if !contains(outputKeys, k) {
			input[k] = v
		}
	}
	if typ == "mcp_tool" {
		name := parser.StringValue(obj["tool_name"])
		if srv := firstStr(obj, "server_name", "mcp_server_name"); srv != "" && name != "" {
			name = srv + "/" + name
		}
		use.Text = name
		if args := parser.StringValue(obj["arguments"]); args != "" && json.Valid([]byte(args)) {
			use.ToolInput = parser.CompactJSON([]byte(args))
		}
	}
	if use.Text == "" {
		use.Text = firstStr(obj, identifyingKeys...)
	}
	if use.ToolInput == "" {
		b, _ := json.Marshal(input) // sorted keys
		use.ToolInput = string(b)
	}
	use.ToolUseID = fmt.Sprintf("line:%d", n)
	res := timeline.Event{TurnType: timeline.ToolResult, ToolName: use.ToolName, ToolUseID: use.ToolUseID}
	switch strings.ToLower(status) {
	case "done", "completed", "complete", "success":
		res.IsError = "false"
		if parser.JSONText(obj["error"]) != "" {
			res.IsError = "true"
		}
	case "error", "errored", "failed", "failure", "cancelled", "canceled", "rejected", "denied":
		res.IsError = "true"
	}
	if res.IsError == "" {
		emit(use)
		return
	}
	var parts []string
	for _, k := range outputKeys {
		v, ok := obj[k]
		if !ok {
			continue
		}
		if k == "exit_code" {
			parts = append(parts, "exit code "+parser.JSONText(v))
			continue
		}
		if t := parser.JSONText(v); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "status: "+status)
	}
	res.Text = strings.Join(parts, "\n")
	emit(use)
	emit(res)
}

// rulesText renders rules_applied {kind: [rule files]} as
// "always_on=a.md, b.md; glob=c.md".
func rulesText(raw json.RawMessage) string {
	var m map[string][]string
	if json.Unmarshal(raw, &m) != nil || len(m) == 0 {
		return ""
	}
	kinds := make([]string, 0, len(m))
	for k := range m {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, k+"="+strings.Join(m[k], ", "))
	}
	return strings.Join(parts, "; ")
}

func firstStr(obj map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		if s := parser.StringValue(obj[k]); s != "" {
			return s
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
