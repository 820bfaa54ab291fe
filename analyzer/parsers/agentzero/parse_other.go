package agentzero

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// task is one task of usr/scheduler/tasks.json (helpers/task_scheduler.py
// SchedulerTaskList: scheduled, adhoc and planned tasks).
type task struct {
	UUID       string          `json:"uuid"`
	ContextID  string          `json:"context_id"`
	State      string          `json:"state"`
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Prompt     string          `json:"prompt"`
	CreatedAt  string          `json:"created_at"`
	LastRun    string          `json:"last_run"`
	LastResult *string         `json:"last_result"`
	Schedule   json.RawMessage `json:"schedule"`
}

func parseScheduler(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "tasks.json not read: "+err.Error())
		return nil
	}
	var l struct {
		Tasks []json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		out.Problem(0, "not a scheduler task list: "+parser.JSONError(err))
		return nil
	}
	for i, raw := range l.Tasks {
		n := int64(i + 1)
		var t task
		if err := json.Unmarshal(raw, &t); err != nil || t.UUID == "" {
			out.Report(n, parser.KindSkippedRecord, "not a scheduler task")
			continue
		}
		sid := t.ContextID
		if sid == "" {
			sid = t.UUID
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.System, SourceLine: n, Secondary: true, RecordID: "task:" + t.UUID}
		setPy(&e, t.CreatedAt)
		e.Text = fmt.Sprintf("scheduled task %q (%s, state %s", t.Name, t.Type, t.State)
		if s := parser.CompactJSON(t.Schedule); s != "" {
			e.Text += ", schedule " + s
		}
		e.Text += "): prompt: " + t.Prompt
		out.Event(e)
		if t.LastResult != nil && strings.TrimSpace(*t.LastResult) != "" {
			r := timeline.Event{SessionID: sid, TurnType: timeline.Assistant, Text: *t.LastResult, SourceLine: n, Secondary: true, RecordID: "task:" + t.UUID + "#last_result"}
			setPy(&r, t.LastRun)
			out.Event(r)
		}
	}
	return nil
}

func setPy(e *timeline.Event, s string) {
	if t, basis, ok := pyTime(s); ok {
		e.Time, e.TimeBasis = t, basis
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

// parseTelegramState reads the Telegram plugin's state.json {"chats":
// {"<bot>:<user id>:<chat id>": "<ctxid>"}}: one row per mapped chat, in
// that chat's session; a mapped chat whose chat.json is not among the
// collected files was deleted.
func parseTelegramState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "state.json not read: "+err.Error())
		return nil
	}
	var st struct {
		Chats map[string]string `json:"chats"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		out.Problem(0, "not a Telegram plugin state: "+parser.JSONError(err))
		return nil
	}
	p := slash(in.Path)
	usr := p
	if i := strings.LastIndex(p, "/usr/"); i >= 0 {
		usr = p[:i+len("/usr")]
	} else if i := strings.Index(p, "/plugins/"); i >= 0 {
		usr = p[:i]
	}
	keys := make([]string, 0, len(st.Chats))
	for k := range st.Chats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ctxid := st.Chats[k]
		parts := strings.SplitN(k, ":", 3)
		text := "Telegram chat mapped to this chat: " + k
		if len(parts) == 3 {
			text = fmt.Sprintf("Telegram chat mapped to this chat: bot %s, user %s, chat %s", parts[0], parts[1], parts[2])
		}
		if in.ListFunc != nil && len(in.List(parser.GlobEscape(usr)+"/chats/"+parser.GlobEscape(ctxid)+"/chat.json")) == 0 {
			text = "session deleted: " + text + " (its chat.json is not among the collected files)"
		}
		e := timeline.Event{SessionID: ctxid, TurnType: timeline.System, Text: text, SourceLine: lineOf(b, k), Secondary: true, TimeBasis: timeline.TimeNone}
		out.Event(e)
	}
	return nil
}

func lineOf(data []byte, s string) int64 {
	q, _ := json.Marshal(s)
	i := bytes.Index(data, q)
	if i < 0 {
		return 0
	}
	return int64(bytes.Count(data[:i], []byte("\n")) + 1)
}

// parsePluginState reads a plugin's config.json (each top-level key a
// permission setting row) or its .toggle-0 / .toggle-1 switch (the plugin
// disabled or enabled at that scope: usr/plugins, a project, an agent
// profile).
func parsePluginState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := slash(in.Path)
	dir := path.Dir(p)
	plugin := path.Base(dir)
	scope := scopeOf(path.Dir(dir))
	file := parser.DisplayFile(&in.File)
	e := parser.SettingEvent(&in.File)
	switch b := base(p); b {
	case ".toggle-0", ".toggle-1":
		state := "disabled"
		if b == ".toggle-1" {
			state = "enabled"
		}
		e.Text = fmt.Sprintf("permission setting: plugin %s %s at %s (from %s, file mtime)", plugin, state, scope, file)
		out.Event(e)
		return nil
	case "config.json":
	default:
		return nil
	}
	data, err := parser.ReadWhole(in, maxSmall)
	if err != nil {
		out.Problem(0, "config.json not read: "+err.Error())
		return nil
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(data, &cfg); err != nil {
		out.Problem(0, parser.NotJSONObject("plugin config", err))
		return nil
	}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r := e
		r.SourceLine = lineOf(data, k)
		r.Text = fmt.Sprintf("permission setting: %s.%s=%s at %s (from %s, file mtime)", plugin, k, parser.RedactSecrets(parser.CompactJSON(cfg[k])), scope, file)
		out.Event(r)
	}
	return nil
}

// scopeOf names where a plugin setting lives: the global usr/plugins, a
// project's or an agent profile's plugin folder.
func scopeOf(dir string) string {
	d := slash(dir)
	if i := strings.LastIndex(d, "/usr/"); i >= 0 {
		d = d[i+len("/usr/"):]
	} else if strings.HasSuffix(d, "/usr") {
		d = ""
	}
	switch {
	case d == "plugins" || d == "":
		return "global scope"
	case strings.HasPrefix(d, "projects/"):
		return "project " + strings.SplitN(strings.TrimPrefix(d, "projects/"), "/", 2)[0]
	case strings.HasPrefix(d, "agents/"):
		return "agent profile " + strings.SplitN(strings.TrimPrefix(d, "agents/"), "/", 2)[0]
	}
	return "scope " + d
}
