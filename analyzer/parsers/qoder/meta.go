package qoder

import (
	"context"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxMeta bounds a meta file read whole: a few hundred bytes are written.
const maxMeta = 1 << 20

// parseMeta reads a <session>-session.json (the session's title, working
// directory and the session it was forked from or continues) or an
// agent-<id>.meta.json (a subagent's type, task and the call that started
// it) into one system row at the file's mtime.
func parseMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxMeta+1))
	if err != nil {
		return err
	}
	if len(b) > maxMeta {
		out.Report(0, parser.KindSkippedRecord, "meta file larger than "+strconv.Itoa(maxMeta)+" bytes, not read")
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		if json.Valid(b) {
			out.Problem(0, parser.NotJSONObject("", err))
		} else {
			out.Problem(0, parser.NotJSON("", err))
		}
		return nil
	}
	p := strings.ReplaceAll(in.Path, `\`, "/")
	base, dir := path.Base(p), path.Dir(p)
	e := parser.SettingEvent(&in.File)
	e.SourceLine = 1
	str := func(k string) string {
		var s string
		if raw, ok := m[k]; ok && json.Unmarshal(raw, &s) == nil {
			delete(m, k)
			return s
		}
		return ""
	}
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+" "+strconv.Quote(v))
		}
	}
	var what string
	if stem, ok := strings.CutSuffix(base, "-session.json"); ok {
		what = "session metadata"
		e.SessionID = stem
		add("title", str("title"))
		wd := str("working_dir")
		add("working dir", wd)
		e.ProjectPath = wd
		fork, parent := str("fork_from"), str("parent_session_id")
		add("forked from", fork)
		add("parent session", parent)
		e.ParentSessionID = fork
		if e.ParentSessionID == "" {
			e.ParentSessionID = parent
		}
	} else {
		id := strings.TrimSuffix(strings.TrimPrefix(base, "agent-"), ".meta.json")
		what = "subagent metadata"
		e.SessionID = id
		if path.Base(dir) == "subagents" {
			e.ParentSessionID = path.Base(path.Dir(dir))
		}
		add("type", str("agentType"))
		add("task", str("description"))
		if id := str("toolUseId"); id != "" {
			e.ToolUseID = id
			add("started by tool call", id)
		}
	}
	if len(m) > 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts = append(parts, "other members: "+strings.Join(keys, ", "))
	}
	if len(parts) == 0 {
		out.Skip(1, "no_evidence:empty_meta")
		return nil
	}
	e.TurnType = timeline.System
	e.Text = what + " (" + base + "): " + strings.Join(parts, ", ")
	out.Event(e)
	return nil
}
