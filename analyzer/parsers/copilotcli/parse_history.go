package copilotcli

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// readJSONFile reads a small whole-file JSON document.
func readJSONFile(in *parser.Input, out parser.Sink) (json.RawMessage, bool, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, false, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", in.Path, err)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		out.Problem(0, "empty file")
		return nil, false, nil
	}
	if !json.Valid(b) {
		out.Problem(0, parser.NotJSON("", nil))
		return nil, false, nil
	}
	return b, true, nil
}

// firstArray returns raw itself when it is an array, else the first
// member (by the preferred names, then any) of an object that is one.
func firstArray(raw json.RawMessage, names ...string) []json.RawMessage {
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) == nil {
		return arr
	}
	m := obj(raw)
	for _, n := range names {
		if json.Unmarshal(m[n], &arr) == nil && arr != nil {
			return arr
		}
	}
	for _, k := range sortedKeys(m) {
		if json.Unmarshal(m[k], &arr) == nil && arr != nil {
			return arr
		}
		if sub := obj(m[k]); sub != nil {
			if a := firstArray(m[k], names...); a != nil {
				return a
			}
		}
	}
	return nil
}

// pick returns the first non-empty member named.
func pick(m map[string]json.RawMessage, names ...string) string {
	for _, n := range names {
		if s := parser.JSONText(m[n]); s != "" {
			return s
		}
	}
	return ""
}

// parseCommandHistory reads command-history-state.json, the prompt
// history: one secondary user row per entry, with no time, session or
// cwd (SourceLine the 1-based position).
func parseCommandHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	raw, ok, err := readJSONFile(in, out)
	if !ok {
		return err
	}
	arr := firstArray(raw, "commandHistory", "history", "commands", "entries", "items")
	for i, a := range arr {
		if err := ctx.Err(); err != nil {
			return err
		}
		text := parser.JSONText(a)
		if m := obj(a); m != nil {
			text = pick(m, "text", "prompt", "command", "value", "input", "content")
		}
		if strings.TrimSpace(text) == "" {
			out.Skip(int64(i+1), "empty_prompt")
			continue
		}
		out.Event(timeline.Event{TurnType: timeline.User, TimeBasis: timeline.TimeNone, Text: text,
			SourceLine: int64(i + 1), Secondary: true})
	}
	return nil
}

// parseRewindIndex reads session-state/<id>/rewind-file-snapshots/
// index.json: per snapshot (one per turn) a secondary user row with the
// turn's prompt and a secondary "rewind snapshot: ..." system row naming
// the changed files, at the snapshot's time (SourceLine the 1-based
// position).
func parseRewindIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	raw, ok, err := readJSONFile(in, out)
	if !ok {
		return err
	}
	sid, sdir := sessionDir(in.Path)
	cwd := ""
	if sdir != "" {
		if b, ok := in.ReadRelated(sdir+"/workspace.yaml", maxSmall); ok {
			cwd = parseYAMLTop(b).get("cwd")
		}
	}
	if cwd == "" {
		cwd = sidebarProject(in, copilotDir(in.Path), sid, out)
	}
	arr := firstArray(raw, "snapshots", "entries", "turns", "checkpoints")
	for i, a := range arr {
		if err := ctx.Err(); err != nil {
			return err
		}
		m := obj(a)
		if m == nil {
			out.Problem(int64(i+1), "snapshot is not an object")
			continue
		}
		e := timeline.Event{SessionID: sid, ProjectPath: cwd, SourceLine: int64(i + 1), Secondary: true}
		if t, ok := parseDBTime(pick(m, "timestamp", "createdAt", "created_at", "time")); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		// The prompt is the user.message event eventId names: the same
		// record, so it carries that event's id and the identity merge
		// writes it once (this copy stands for it when events.jsonl lost it).
		if p := pick(m, "userMessage", "prompt", "message", "userPrompt", "content"); strings.TrimSpace(p) != "" {
			u := e
			u.TurnType, u.Text, u.RecordID = timeline.User, p, pick(m, "eventId")
			out.Event(u)
		}
		files := snapshotFiles(m)
		s := e
		s.TurnType = timeline.System
		s.RecordID = pick(m, "snapshotId")
		s.Text = strings.TrimSpace("rewind snapshot: " + kv(m, "snapshotId", "id", "eventId", "turnId", "commit") + " files " + strings.Join(files, ", "))
		out.Event(s)
	}
	return nil
}

// snapshotFiles lists the paths a snapshot names: object keys or array
// entries (strings, or objects with a path).
func snapshotFiles(m map[string]json.RawMessage) []string {
	var files []string
	for _, k := range []string{"files", "changedFiles", "fileSnapshots", "snapshots", "paths"} {
		raw := m[k]
		if len(raw) == 0 {
			continue
		}
		if sub := obj(raw); sub != nil {
			// 1.0.102: keyed by a hash of the path, each {path, preimage,
			// postimage, ...}; older shapes keyed by the path itself.
			for _, k := range sortedKeys(sub) {
				if p := pick(obj(sub[k]), "path", "filePath", "file"); p != "" {
					files = append(files, p)
				} else {
					files = append(files, k)
				}
			}
			continue
		}
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) == nil {
			for _, a := range arr {
				if am := obj(a); am != nil {
					files = append(files, pick(am, "path", "filePath", "file", "name"))
				} else {
					files = append(files, parser.JSONText(a))
				}
			}
		}
	}
	return files
}
