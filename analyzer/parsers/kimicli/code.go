package kimicli

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Kimi Code (~/.kimi-code, the TypeScript CLI of MoonshotAI/kimi-code): the
// session journals, each session's state.json, the session index and the
// workspace list. See doc.go.

func parseCodeWire(ctx context.Context, in *parser.Input, out parser.Sink) error {
	return kimiwire.ParseCode(ctx, in, out)
}

func stamp(e *timeline.Event, ms *float64) bool {
	if ms == nil {
		return false
	}
	t := kimiwire.Millis(*ms)
	if t.IsZero() {
		return false
	}
	e.Time, e.TimeBasis = t, ""
	return true
}

// parseCodeState reads sessions/<workDirKey>/<session>/state.json: the
// session's creation (at createdAt), its last update (at updatedAt, with
// the title, the last turn's outcome, archive and fork origin) and one row
// per subagent instance it lists.
func parseCodeState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "state.json not read: "+err.Error())
		return nil
	}
	var s kimiwire.CodeState
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(0, "not a Kimi Code session state: "+parser.JSONError(err))
		return nil
	}
	session := s.ID
	if session == "" {
		session = path.Base(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")))
	}
	file := parser.DisplayFile(&in.File)
	row := func(ms *float64, text string) {
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.ProjectPath, e.SourceLine = session, s.Cwd, 1
		if stamp(&e, ms) {
			e.Text = text + " (from " + file + ")"
		} else {
			e.Text = text + " (from " + file + ", file mtime)"
		}
		out.Event(e)
	}
	row(s.CreatedAt, "session created in "+s.Cwd)
	var parts []string
	if s.Title != "" {
		t := "title " + s.Title
		if s.IsCustomTitle {
			t += " (set by the user)"
		}
		parts = append(parts, t)
	}
	if s.LastTurnReason != "" {
		parts = append(parts, "last turn "+s.LastTurnReason)
	}
	if s.Archived {
		parts = append(parts, "archived")
	}
	if s.ForkedFrom != nil {
		fb, _ := json.Marshal(s.ForkedFrom)
		parts = append(parts, "forked from "+parser.CompactJSON(fb))
	}
	if s.LastPrompt != "" {
		// A copy of the last typed prompt, which the wire holds as a user row.
		parts = append(parts, "last prompt (a copy): "+s.LastPrompt)
	}
	t := "session last updated"
	if len(parts) > 0 {
		t += ": " + strings.Join(parts, "; ")
	}
	row(s.UpdatedAt, t)
	ids := make([]string, 0, len(s.Agents))
	for id := range s.Agents {
		if id != "main" {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		a := s.Agents[id]
		t := "subagent instance " + id + " (" + a.Type
		if a.Parent != "" {
			t += ", parent " + a.Parent
		}
		row(s.UpdatedAt, t+")")
	}
	return nil
}

// parseCodeIndex reads session_index.jsonl: one {sessionId, sessionDir,
// workDir} line per session the CLI indexed, no time (rows at the file's
// mtime).
func parseCodeIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	file := parser.DisplayFile(&in.File)
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r struct {
			SessionID  string `json:"sessionId"`
			SessionDir string `json:"sessionDir"`
			WorkDir    string `json:"workDir"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if r.SessionID == "" {
			out.Report(n, parser.KindSkippedRecord, "session index line without a sessionId")
			return nil
		}
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.ProjectPath, e.SourceLine = r.SessionID, r.WorkDir, n
		e.Text = fmt.Sprintf("session indexed: %s in %s (%s) (from %s, file mtime)", r.SessionID, r.WorkDir, r.SessionDir, file)
		out.Event(e)
		return nil
	})
}

// codeWorkspaces is workspaces.json (version 1).
type codeWorkspaces struct {
	Version    int `json:"version"`
	Workspaces map[string]struct {
		Root         string `json:"root"`
		Name         string `json:"name"`
		CreatedAt    string `json:"created_at"`
		LastOpenedAt string `json:"last_opened_at"`
	} `json:"workspaces"`
	Deleted []string `json:"deleted_workspace_ids"`
}

// parseCodeWorkspaces reads workspaces.json: each workspace's creation and
// last opening at their recorded times, and each deleted workspace id (no
// time: the file's mtime).
func parseCodeWorkspaces(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "workspaces.json not read: "+err.Error())
		return nil
	}
	var w codeWorkspaces
	if err := json.Unmarshal(b, &w); err != nil {
		out.Problem(0, "not a Kimi Code workspace list: "+parser.JSONError(err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	ids := make([]string, 0, len(w.Workspaces))
	for id := range w.Workspaces {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	row := func(root, at, text string) {
		e := parser.SettingEvent(&in.File)
		e.ProjectPath, e.SourceLine = root, 1
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil && at != "" {
			e.Time, e.TimeBasis = t.UTC(), ""
			e.Text = text + " (from " + file + ")"
		} else {
			e.Text = text + " (from " + file + ", file mtime)"
		}
		out.Event(e)
	}
	for _, id := range ids {
		ws := w.Workspaces[id]
		row(ws.Root, ws.CreatedAt, "workspace created: "+ws.Root+" ("+id+")")
		row(ws.Root, ws.LastOpenedAt, "workspace last opened: "+ws.Root+" ("+id+")")
	}
	for _, id := range w.Deleted {
		row("", "", "workspace deleted: "+id)
	}
	return nil
}

// codeWorkDirs maps md5(root) to root for every workspace of the
// workspaces.json beside a Kimi Code home's user-history folder (the
// history file is named by md5 of the work directory).
func codeWorkDirs(in *parser.Input, home string) map[string]string {
	b, ok := in.ReadRelated(home+"/workspaces.json", maxWhole)
	if !ok {
		return nil
	}
	var w codeWorkspaces
	if json.Unmarshal(b, &w) != nil {
		return nil
	}
	m := map[string]string{}
	for _, ws := range w.Workspaces {
		sum := md5.Sum([]byte(ws.Root))
		m[hex.EncodeToString(sum[:])] = ws.Root
	}
	return m
}

// parseCodeTrust reads workspace-trust/<workspace id>
// (agent-core-v2 src/workspace/workspaceTrust/trustRecord.ts: {root,
// trustedAt}): the person's answer to "Trust this folder?", which enables
// the folder's project MCP servers.
func parseCodeTrust(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "workspace trust record not read: "+err.Error())
		return nil
	}
	var r struct {
		Root      string   `json:"root"`
		TrustedAt *float64 `json:"trustedAt"`
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Root == "" {
		msg := "no root"
		if err != nil {
			msg = parser.JSONError(err)
		}
		out.Problem(0, "not a Kimi Code workspace trust record: "+msg)
		return nil
	}
	e := parser.SettingEvent(&in.File)
	e.ProjectPath, e.SourceLine = r.Root, 1
	file := parser.DisplayFile(&in.File)
	t := "permission setting: folder trusted (its project MCP servers may start): " + r.Root + " (workspace " + path.Base(strings.ReplaceAll(in.Path, "\\", "/")) + ")"
	if stamp(&e, r.TrustedAt) {
		e.Text = t + " (from " + file + ")"
	} else {
		e.Text = t + " (from " + file + ", file mtime)"
	}
	out.Event(e)
	return nil
}
