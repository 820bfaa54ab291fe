package claudedesktop

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/claudetranscript"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// RemoteSessionSpaces returns the parser of
// local-agent-mode-sessions/<acct>/<org>/remote-session-spaces.json, the
// folders granted to remote Cowork sessions.
func RemoteSessionSpaces() parser.Parser {
	return newFiltered(parser.Spec{
		ID:      "claude-desktop/remote-session-spaces",
		Actions: claudetranscript.Actions,
		Agent:   Agent,
		Version: 4,
		Targets: recordTargets,
		Names:   []string{"remote-session-spaces.json"},
		Doc:     "Claude desktop remote-session-spaces.json: one permission setting row per folder granted to a remote Cowork session",
	}, parseSpaces, func(p string) bool { return storeKind(p) == "cowork" })
}

// AppState returns the parser of scheduled-tasks.json and git-worktrees.json
// in the app-data directory.
func AppState() parser.Parser {
	return newFiltered(parser.Spec{
		ID:      "claude-desktop/app-state",
		Actions: claudetranscript.Actions,
		Agent:   Agent,
		Version: 4,
		Targets: appStateTargets,
		Names:   []string{"scheduled-tasks.json", "git-worktrees.json"},
		Doc:     "Claude desktop scheduled-tasks.json (one row per task) and git-worktrees.json (one row per worktree)",
	}, parseAppState, func(string) bool { return true })
}

func decodeWhole(in *parser.Input, out parser.Sink) (json.RawMessage, bool, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(rc).Decode(&raw); err != nil {
		out.Problem(1, parser.NotJSON("", err))
		return nil, false, nil
	}
	return raw, true, nil
}

func parseSpaces(ctx context.Context, in *parser.Input, out parser.Sink) error {
	raw, ok, err := decodeWhole(in, out)
	if !ok {
		return err
	}
	var doc struct {
		Entries map[string]json.RawMessage `json:"entries"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		out.Problem(1, "remote-session-spaces.json: no entries object")
		return nil
	}
	file := baseOf(slash(in.Path))
	ids := make([]string, 0, len(doc.Entries))
	for id := range doc.Entries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for i, id := range ids {
		var ent struct {
			Folders []json.RawMessage `json:"folders"`
		}
		if json.Unmarshal(doc.Entries[id], &ent) != nil {
			out.Problem(1, "entries."+id+" is not an object")
			continue
		}
		if len(ent.Folders) == 0 {
			out.Skip(int64(i+1), "no_evidence:no_folders")
		}
		for _, f := range ent.Folders {
			folder := parser.StringValue(f)
			if folder == "" {
				var o map[string]json.RawMessage
				if json.Unmarshal(f, &o) == nil {
					folder = parser.StringValue(o["path"])
				}
			}
			if folder == "" {
				folder = parser.CompactJSON(f)
			}
			e := timeline.Event{SessionID: id, ProjectPath: folder, TurnType: timeline.System, SourceLine: int64(i + 1),
				Text: "permission setting: entries." + id + ".folders=" + folder + " (from " + file + ", file mtime)"}
			fileTime(in, &e)
			out.Event(e)
		}
	}
	return nil
}

func parseAppState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	raw, ok, err := decodeWhole(in, out)
	if !ok {
		return err
	}
	name := baseOf(slash(in.Path))
	items := elements(raw, "tasks", "scheduledTasks", "worktrees", "entries")
	for i, it := range items {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var m record
		if json.Unmarshal(it.val, &m) != nil {
			out.Problem(int64(i+1), "element is not an object, skipped")
			continue
		}
		e := timeline.Event{TurnType: timeline.System, SourceLine: int64(i + 1)}
		if name == "scheduled-tasks.json" {
			scheduledTask(m, it.key, &e)
			if id := firstOf(m, "id", "taskId"); id != "" {
				e.RecordID = "scheduled-task/" + id
			} else if it.key != "" {
				e.RecordID = "scheduled-task/" + it.key
			}
		} else {
			worktree(m, it.key, &e)
		}
		if t := rawTime(m["createdAt"]); !t.IsZero() {
			e.Time = t
		} else {
			fileTime(in, &e)
		}
		out.Event(e)
	}
	return nil
}

// element is one item of a list or of a map keyed by id or path.
type element struct {
	key string
	val json.RawMessage
}

// elements returns the items of a top-level array, of an object's array
// (or map) under one of keys, or of a top-level map.
func elements(raw json.RawMessage, keys ...string) []element {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var out []element
		for _, v := range list(raw) {
			out = append(out, element{val: v})
		}
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return elements(v)
		}
	}
	var out []element
	for _, k := range sortedKeys(m) {
		v := bytes.TrimSpace(m[k])
		if len(v) > 0 && v[0] == '{' {
			out = append(out, element{key: k, val: v})
		}
	}
	return out
}

func firstOf(m record, keys ...string) string {
	for _, k := range keys {
		if s := m.str(k); s != "" {
			return s
		}
	}
	return ""
}

// scheduledTask renders one scheduled task, ending permission_mode=<mode>
// model=<model>.
func scheduledTask(m record, key string, e *timeline.Event) {
	id := firstOf(m, "id", "taskId")
	if id == "" {
		id = key
	}
	parts := []string{"scheduled task: " + orDash(id)}
	if n := firstOf(m, "name", "title"); n != "" {
		parts = append(parts, "name="+n)
	}
	if s := firstOf(m, "cronExpression", "cron", "schedule", "rrule", "interval"); s != "" {
		parts = append(parts, "schedule="+s)
	} else if v := parser.CompactJSON(m["schedule"]); v != "" {
		parts = append(parts, "schedule="+v)
	}
	if v, ok := m["enabled"]; ok {
		parts = append(parts, "enabled="+parser.JSONText(v))
	}
	if t := rawTime(m["lastRunAt"]); !t.IsZero() {
		parts = append(parts, "last_run="+timeText(t))
	}
	if t := rawTime(m["nextRunAt"]); !t.IsZero() {
		parts = append(parts, "next_run="+timeText(t))
	}
	if p := firstOf(m, "prompt", "message", "description"); p != "" {
		parts = append(parts, "prompt="+p)
	}
	parts = append(parts, "permission_mode="+orDash(m.str("permissionMode")), "model="+orDash(m.str("model")))
	e.Text = strings.Join(parts, " ")
	e.SessionID = firstOf(m, "lastSessionId", "sessionId")
	e.ProjectPath = m.project()
	if e.ProjectPath == "" {
		e.ProjectPath = firstOf(m, "folder", "workingDirectory")
	}
}

// worktree renders one git worktree the app made for a session.
func worktree(m record, key string, e *timeline.Event) {
	path := firstOf(m, "worktreePath", "path")
	if path == "" {
		path = key
	}
	parts := []string{"git worktree: " + orDash(path)}
	repo := firstOf(m, "repoPath", "sourceRepo", "repositoryPath", "originalPath", "gitRoot", "repo")
	if repo != "" {
		parts = append(parts, "repo="+repo)
	}
	if b := firstOf(m, "branch", "branchName"); b != "" {
		parts = append(parts, "branch="+b)
	}
	if b := firstOf(m, "baseBranch", "baseRef"); b != "" {
		parts = append(parts, "base="+b)
	}
	sid := firstOf(m, "sessionId", "localSessionId")
	if sid != "" {
		parts = append(parts, "session="+sid)
	}
	e.Text = strings.Join(parts, " ")
	e.SessionID = sid
	e.ProjectPath = repo
}
