package vscode

import (
	"context"
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ModifiedFileEntryState values (chatEditingService.ts).
var entryStates = map[int]string{0: "modified", 1: "accepted", 2: "rejected"}

// parseChatEditing reads workspaceStorage/<hash>/chatEditingSessions/<id>/state.json,
// the chat editing session a chat left behind (it survives the chat's
// deletion): one secondary "chat edited file: <path> state=<accepted|
// rejected|modified> request=<id>" row per file of the most recent
// snapshot (storage versions 1 and 2), and one "chat edited file: <path>
// request=<id> (baseline kept)" row per file baseline of the timeline
// (versions 3 and later, which keep the entries' states elsewhere). File
// contents are never printed. Rows are at the file's modification time.
func parseChatEditing(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if !strings.Contains(in.Path, "/chatEditingSessions/") {
		return nil
	}
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := readAllLimited(rc)
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	if strings.TrimSpace(string(b)) == "" {
		out.Problem(0, "empty file")
		return nil
	}
	v, err := decodeBytes(b)
	root := obj(v)
	if err != nil || root == nil {
		out.Problem(0, parser.NotJSONObject("", nil))
		return nil
	}
	sid := str(root["sessionId"])
	if sid == "" {
		sid = base(strings.TrimSuffix(in.Path, "/state.json"))
	}
	project := ""
	if d := storageDir(in.Path); d != "" {
		project = workspaceProject(in, d)
	}
	ft, fb := fileTime(in)
	var n int64
	emit := func(s, rid string) {
		n++
		out.Event(timeline.Event{Time: ft, TimeBasis: fb, SessionID: sid, ProjectPath: project, TurnType: timeline.System, Secondary: true, SourceLine: n, Text: s, RecordID: rid})
	}
	// A file's entry in the recent and in the pending snapshot is one
	// record (the session's entry for that file): both rows carry its id,
	// "<session>#edited:<file>", and the correlate stage keeps one when they
	// say the same and both, with a duplicate_id problem, when they differ.
	for _, snap := range []any{root["recentSnapshot"], root["pendingSnapshot"]} {
		for _, e := range arr(get(snap, "entries")) {
			em := obj(e)
			if em == nil {
				continue
			}
			res := uriValue(em["resource"])
			if res == "" {
				continue
			}
			st := str(em["state"])
			if f, ok := num(em["state"]); ok {
				if s, ok := entryStates[int(f)]; ok {
					st = s
				}
			}
			txt := "chat edited file: " + res + " state=" + st
			if r := str(get(em, "telemetryInfo", "requestId")); r != "" {
				txt += " request=" + r
			}
			if m := str(get(em, "telemetryInfo", "modelId")); m != "" {
				txt += " model=" + m
			}
			emit(txt, sid+"#edited:"+res)
		}
	}
	for _, fbase := range arr(get(root, "timeline", "fileBaselines")) {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		pair := arr(fbase)
		if len(pair) != 2 {
			continue
		}
		bl := obj(pair[1])
		res := uriValue(bl["uri"])
		if res == "" {
			res = str(pair[0])
		}
		txt := "chat edited file: " + res
		if r := str(bl["requestId"]); r != "" {
			txt += " request=" + r
		}
		emit(txt+" (baseline kept)", "")
	}
	return nil
}
