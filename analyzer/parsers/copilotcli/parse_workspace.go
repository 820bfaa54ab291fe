package copilotcli

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// yamlTop is the top-level scalar keys of a small YAML mapping, in order.
type yamlTop struct {
	keys []string
	vals map[string]string
	line map[string]int64
}

func (y yamlTop) get(k string) string { return y.vals[k] }

// parseYAMLTop reads the top-level "key: value" pairs of workspace.yaml
// (the runtime writes a flat mapping of scalars). Quoted scalars are
// unquoted, block scalars (| and >) are joined, nested or list values are
// kept as their raw indented text. It never fails: unknown lines are
// skipped.
func parseYAMLTop(b []byte) yamlTop {
	y := yamlTop{vals: map[string]string{}, line: map[string]int64{}}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '-' {
			continue
		}
		c := strings.Index(l, ":")
		if c <= 0 {
			continue
		}
		k := strings.TrimSpace(l[:c])
		v := strings.TrimSpace(l[c+1:])
		ln := int64(i + 1)
		if v == "" || strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
			// block: indented lines that follow
			var block []string
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t") || (lines[i+1] == "" && i+2 < len(lines) && strings.HasPrefix(lines[i+2], " "))) {
				i++
				block = append(block, strings.TrimSpace(lines[i]))
			}
			sep := "\n"
			if strings.HasPrefix(v, ">") {
				sep = " "
			}
			v = strings.Join(block, sep)
		} else {
			v = unquoteYAML(v)
		}
		if _, seen := y.vals[k]; !seen {
			y.keys = append(y.keys, k)
		}
		y.vals[k], y.line[k] = v, ln
	}
	return y
}

func unquoteYAML(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
		return v[1 : len(v)-1]
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if i := strings.Index(v, " #"); i > 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// syncKeys are the workspace.yaml keys that mark a session synced to the
// account (remote steering / Mission Control).
var syncKeys = []string{"remote_steerable", "mc_task_id", "mc_session_id", "mc_last_event_id"}

// metaSkip are keys left out of the metadata row (already named or shown
// elsewhere).
var metaSkip = map[string]bool{"id": true, "name": true, "cwd": true, "client_name": true, "created_at": true,
	"remote_steerable": true, "mc_task_id": true, "mc_session_id": true, "mc_last_event_id": true}

// parseWorkspace reads session-state/<id>/workspace.yaml: one "session
// metadata:" row at created_at, and, when any sync key is present, one
// "session synced:" row at the file's modification time with the session
// marked Synced.
func parseWorkspace(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Problem(0, "empty file")
		return nil
	}
	y := parseYAMLTop(b)
	if len(y.keys) == 0 {
		out.Problem(0, "no top-level keys")
		return nil
	}
	id := y.get("id")
	if id == "" {
		id, _ = sessionDir(in.Path)
	}
	cwd := y.get("cwd")
	var parts []string
	if v := y.get("name"); v != "" {
		parts = append(parts, "name="+strconv.Quote(v))
	}
	if v := y.get("client_name"); v != "" {
		parts = append(parts, "client="+v)
	}
	if cwd != "" {
		parts = append(parts, "cwd="+cwd)
	}
	for _, k := range y.keys {
		if metaSkip[k] || y.vals[k] == "" {
			continue
		}
		parts = append(parts, k+"="+y.vals[k])
	}
	e := timeline.Event{SessionID: id, ProjectPath: cwd, TurnType: timeline.System,
		Text: "session metadata: " + strings.Join(parts, " "), SourceLine: 1, RecordID: rid(id, "workspace")}
	if t, ok := parseTime(y.get("created_at")); ok {
		e.Time, e.SourceLine = t, y.line["created_at"]
	} else if !in.MTime.IsZero() {
		e.Time, e.TimeBasis = in.MTime.UTC(), timeline.TimeFileMTime
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)

	synced := false
	var line int64
	for _, k := range syncKeys {
		if _, ok := y.vals[k]; ok {
			synced = true
			if line == 0 {
				line = y.line[k]
			}
		}
	}
	if synced {
		dash := func(k string) string {
			if v := y.get(k); v != "" {
				return v
			}
			return "-"
		}
		s := timeline.Event{SessionID: id, ProjectPath: cwd, TurnType: timeline.System, SourceLine: line, RecordID: rid(id, "synced"),
			Text: fmt.Sprintf("session synced: remote session %s task %s last event %s remote_steerable=%s (from workspace.yaml, file mtime)",
				dash("mc_session_id"), dash("mc_task_id"), dash("mc_last_event_id"), dash("remote_steerable"))}
		s.Time, s.TimeBasis = fileTime(in)
		out.Event(s)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Synced: "yes"})
	} else if id != "" {
		// The runtime writes the sync keys into workspace.yaml when the
		// session is synced to the account; a file without any is a
		// session kept on this host only.
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, Synced: "no"})
	}
	return ctx.Err()
}

// rid is "<id>#<word>", or "" without an id.
func rid(id, word string) string {
	if id == "" {
		return ""
	}
	return id + "#" + word
}

// fileTime is the input's modification time with its basis.
func fileTime(in *parser.Input) (time.Time, timeline.TimeBasis) {
	if in.MTime.IsZero() {
		return time.Time{}, timeline.TimeNone
	}
	return in.MTime.UTC(), timeline.TimeFileMTime
}
