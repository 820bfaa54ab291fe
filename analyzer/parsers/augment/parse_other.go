package augment

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func readJSON(in *parser.Input, v any) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return err
	}
	return json.Unmarshal(parser.StandardJSON(b), v)
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func settingRow(in *parser.Input, out parser.Sink, sid, text string, line int64) {
	e := parser.SettingEvent(&in.File)
	e.SessionID, e.SourceLine = sid, line
	e.Text = parser.RedactSecrets(text) + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	out.Event(e)
}

// parsePromptHistory reads prompt-history.jsonl: {"message": text} lines
// the interactive TUI appends (no time, no session).
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r struct {
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if r.Message == nil {
			out.Report(n, parser.KindSkippedRecord, "prompt history line without a message")
			return nil
		}
		if strings.TrimSpace(*r.Message) == "" {
			out.Skip(n, "empty_prompt")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.User, TimeBasis: timeline.TimeNone, Text: *r.Message, SourceLine: n, Secondary: true})
		return nil
	})
}

// parseSettings reads settings.json: toolPermissions (tool name, policy,
// shell-input pattern), the default model and the indexing switches.
func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "settings: "+err.Error())
		return nil
	}
	perms, _ := doc["toolPermissions"].([]any)
	for i, p := range perms {
		m, _ := p.(map[string]any)
		if m == nil {
			continue
		}
		text := "permission setting: tool " + scalar(m["toolName"])
		if pm, ok := m["permission"].(map[string]any); ok {
			text += " " + scalar(pm["type"])
		} else if v, ok := m["permission"]; ok {
			text += " " + scalar(v)
		}
		if v, ok := m["shellInputRegex"]; ok {
			text += " shellInputRegex=" + scalar(v)
		}
		settingRow(in, out, "", text, int64(i+1))
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		if k != "toolPermissions" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		lk := strings.ToLower(k)
		if strings.Contains(lk, "token") || strings.Contains(lk, "key") || strings.Contains(lk, "secret") {
			continue
		}
		kind := "setting"
		if strings.Contains(lk, "model") {
			kind = "model setting"
		} else if strings.Contains(lk, "permission") || strings.Contains(lk, "allow") || strings.Contains(lk, "deny") {
			kind = "permission setting"
		}
		v := scalar(doc[k])
		if len(v) > 500 {
			v = v[:500] + "..."
		}
		settingRow(in, out, "", kind+": "+k+"="+v, 0)
	}
	return nil
}

// parseState reads .auggie.json: when auggie was last used and how many
// sessions it has started (anonId is an install id, kept out of the row).
func parseState(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc struct {
		LastUsed     string      `json:"lastUsed"`
		SessionCount json.Number `json:"sessionCount"`
	}
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, ".auggie.json: "+err.Error())
		return nil
	}
	e := timeline.Event{TurnType: timeline.System, Time: parseTime(doc.LastUsed),
		Text: fmt.Sprintf("auggie last used %s, %s session(s) started on this account", doc.LastUsed, doc.SessionCount)}
	if e.Time.IsZero() {
		e = parser.SettingEvent(&in.File)
		e.Text = fmt.Sprintf("auggie state: %s session(s) started (from %s, file mtime)", doc.SessionCount, parser.DisplayFile(&in.File))
	}
	out.Event(e)
	return nil
}

var rootTaskRx = regexp.MustCompile(`conversation ([0-9a-fA-F-]{36})`)

// parseTasks reads task-storage: tasks/<uuid> (a conversation's root task
// list: name, description "Root task for conversation <id>", state,
// subTasks, lastUpdated ms) and manifest/manifest (every task's state).
func parseTasks(_ context.Context, in *parser.Input, out parser.Sink) error {
	var doc map[string]any
	if err := readJSON(in, &doc); err != nil {
		out.Problem(0, "task storage: "+err.Error())
		return nil
	}
	row := func(m map[string]any, line int64, where string) {
		e := timeline.Event{TurnType: timeline.System, SourceLine: line}
		if v, ok := m["lastUpdated"].(float64); ok {
			e.Time = ms(int64(v))
		}
		if e.Time.IsZero() {
			e = parser.SettingEvent(&in.File)
			e.SourceLine = line
		}
		desc := scalar(m["description"])
		if r := rootTaskRx.FindStringSubmatch(desc); r != nil {
			e.SessionID = r[1]
		}
		e.RecordID = scalar(m["uuid"]) + where
		subs, _ := m["subTasks"].([]any)
		e.Text = fmt.Sprintf("task %s %q state=%s sub-tasks=%d", scalar(m["uuid"]), scalar(m["name"]), scalar(m["state"]), len(subs))
		if m["description"] != nil && desc != "" {
			e.Text += " description=" + desc
		}
		out.Event(e)
	}
	if tasks, ok := doc["tasks"].(map[string]any); ok && path.Base(in.Path) == "manifest" {
		ids := make([]string, 0, len(tasks))
		for id := range tasks {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		// The manifest repeats each task file's state: a row only for a task
		// whose own file is not among the collected files.
		have := map[string]bool{}
		for _, f := range in.List("**/.augment/task-storage/tasks/*") {
			have[path.Base(f.Path)] = true
		}
		for i, id := range ids {
			m, ok := tasks[id].(map[string]any)
			switch {
			case !ok:
				out.Report(int64(i+1), parser.KindSkippedRecord, "manifest entry is not an object")
			case have[id]:
				out.Skip(int64(i+1), "task_file_collected")
			default:
				row(m, int64(i+1), "#manifest")
			}
		}
		return nil
	}
	if _, ok := doc["uuid"]; !ok {
		out.Report(0, parser.KindSkippedRecord, "task storage file of an unknown shape")
		return nil
	}
	row(doc, 0, "")
	return nil
}
