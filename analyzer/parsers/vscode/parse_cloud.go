package vscode

import (
	"context"
	"fmt"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseCloudSessions reads Copilot Chat's cloudSessions.json
// (CloudSessionIdStore: {localSessionId: {cloudSessionId, cloudTaskId}}):
// one "session synced:" row per session uploaded to the cloud, at the
// file's modification time, and the session is recorded synced.
func parseCloudSessions(ctx context.Context, in *parser.Input, out parser.Sink) error {
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
	m := obj(v)
	if err != nil || m == nil {
		out.Problem(0, parser.NotJSONObject("", nil))
		return nil
	}
	ft, fb := fileTime(in)
	for i, sid := range sortedKeys(m) {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := obj(m[sid])
		if e == nil {
			out.Problem(int64(i+1), "entry "+sid+" is not an object")
			continue
		}
		out.Event(timeline.Event{Time: ft, TimeBasis: fb, SessionID: sid, TurnType: timeline.System, SourceLine: int64(i + 1), RecordID: "cloudSessions:" + sid,
			Text: fmt.Sprintf("session synced: cloud session %s task %s (from %s, file mtime)", str(e["cloudSessionId"]), str(e["cloudTaskId"]), in.Path)})
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Synced: "yes"})
	}
	return nil
}
