package kimicli

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/kimiwire"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func parseWorkDirs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "kimi.json not read: "+err.Error())
		return nil
	}
	var m kimiwire.Metadata
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, "not Kimi CLI metadata (kimi.json): "+parser.JSONError(err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	for i, wd := range m.WorkDirs {
		e := parser.SettingEvent(&in.File)
		e.SourceLine, e.ProjectPath = int64(i+1), wd.Path
		t := fmt.Sprintf("work directory: %s (sessions/%s)", wd.Path, kimiwire.MD5Dir(wd))
		if wd.LastSessionID != nil && *wd.LastSessionID != "" {
			e.SessionID = *wd.LastSessionID
			t += ", last session " + *wd.LastSessionID
		}
		e.Text = t + " (from " + file + ", file mtime)"
		out.Event(e)
	}
	return nil
}

// sessionState is state.json (src/kimi_cli/session_state.py, version 1).
type sessionState struct {
	Version  int `json:"version"`
	Approval struct {
		Yolo               bool     `json:"yolo"`
		AFK                bool     `json:"afk"`
		AutoApproveActions []string `json:"auto_approve_actions"`
	} `json:"approval"`
	AdditionalDirs []string `json:"additional_dirs"`
	CustomTitle    *string  `json:"custom_title"`
	PlanMode       bool     `json:"plan_mode"`
	PlanSlug       *string  `json:"plan_slug"`
	Archived       bool     `json:"archived"`
	ArchivedAt     *float64 `json:"archived_at"`
	Todos          []struct {
		Title  string `json:"title"`
		Status string `json:"status"`
	} `json:"todos"`
}

func parseState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "state.json not read: "+err.Error())
		return nil
	}
	var s sessionState
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(0, "not a Kimi CLI session state: "+parser.JSONError(err))
		return nil
	}
	share, md5dir, session, _ := kimiwire.SessionParts(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")) + "/wire.jsonl")
	project := ""
	if share != "" {
		project = kimiwire.WorkDirs(in, share)[md5dir]
	}
	file := parser.DisplayFile(&in.File)
	emit := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.ProjectPath, e.SourceLine = session, project, 1
		e.Text = text + " (from " + file + ", file mtime)"
		out.Event(e)
	}
	a := s.Approval
	actions := "none"
	if len(a.AutoApproveActions) > 0 {
		actions = strings.Join(a.AutoApproveActions, ", ")
	}
	emit(fmt.Sprintf("permission setting: yolo (approve every action)=%t, afk=%t, actions approved for the session: %s", a.Yolo, a.AFK, actions))
	if s.CustomTitle != nil && *s.CustomTitle != "" {
		emit("session title: " + *s.CustomTitle)
	}
	if s.PlanMode {
		slug := ""
		if s.PlanSlug != nil {
			slug = " (" + *s.PlanSlug + ")"
		}
		emit("plan mode: on" + slug)
	}
	for _, d := range s.AdditionalDirs {
		emit("permission setting: additional directory the agent may use: " + d)
	}
	if s.Archived {
		t := "session archived"
		if s.ArchivedAt != nil {
			if at := kimiwire.Epoch(*s.ArchivedAt); !at.IsZero() {
				t += " at " + at.Format("2006-01-02T15:04:05.000Z")
			}
		}
		emit(t)
	}
	if len(s.Todos) > 0 {
		var ts []string
		for _, td := range s.Todos {
			ts = append(ts, "["+td.Status+"] "+td.Title)
		}
		emit("to-do list: " + strings.Join(ts, "; "))
	}
	return nil
}

// parseUserHistory reads user-history/<md5 of the work dir>.jsonl: one
// {"content": "..."} line per prompt submitted in the shell, no time.
func parseUserHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	project := ""
	if i := strings.LastIndex(p, "/user-history/"); i >= 0 {
		key := strings.TrimSuffix(path.Base(p), ".jsonl")
		if project = kimiwire.WorkDirs(in, p[:i])[key]; project == "" {
			// Kimi Code names the file by md5 of the work directory too;
			// its workspaces.json lists the roots.
			project = codeWorkDirs(in, p[:i])[key]
		}
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var h struct {
			Content *string `json:"content"`
		}
		if err := json.Unmarshal(line, &h); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if h.Content == nil {
			out.Report(n, parser.KindSkippedRecord, "history entry without content")
			return nil
		}
		if len(bytes.TrimSpace([]byte(*h.Content))) == 0 {
			out.Skip(n, "no_evidence:empty_prompt")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.User, Text: *h.Content, ProjectPath: project, SourceLine: n, TimeBasis: timeline.TimeNone, Secondary: true})
		return nil
	})
}
