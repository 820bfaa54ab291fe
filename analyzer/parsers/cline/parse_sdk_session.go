package cline

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/clinetask"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// sdkSession is an SDK session record: sessions/<id>/<id>.json, and the
// same fields as a row of db/sessions.db's sessions table.
type sdkSession struct {
	SessionID       string          `json:"session_id"`
	Source          string          `json:"source"`
	PID             num             `json:"pid"`
	StartedAt       string          `json:"started_at"`
	EndedAt         string          `json:"ended_at"`
	ExitCode        *num            `json:"exit_code"`
	Status          string          `json:"status"`
	Interactive     *bool           `json:"interactive"`
	Provider        string          `json:"provider"`
	Model           string          `json:"model"`
	Cwd             string          `json:"cwd"`
	WorkspaceRoot   string          `json:"workspace_root"`
	ParentSessionID string          `json:"parent_session_id"`
	ParentAgentID   string          `json:"parent_agent_id"`
	AgentID         string          `json:"agent_id"`
	IsSubagent      bool            `json:"is_subagent"`
	Prompt          string          `json:"prompt"`
	Metadata        json.RawMessage `json:"metadata"`
}

// sdkMeta is what the rows take from a session's metadata (the same object
// in the record file and in sessions.db metadata_json; the record file's
// long strings may differ, none of them is read).
type sdkMeta struct {
	HistoryOrigin *struct {
		Mode    string `json:"mode"`
		Version string `json:"version"`
		Trigger string `json:"trigger"`
	} `json:"sessionHistoryOrigin"`
	Mode             string `json:"mode"`
	AutoApproveTools *bool  `json:"autoApproveTools"`
	Checkpoint       *struct {
		History []struct {
			Ref       string `json:"ref"`
			CreatedAt num    `json:"createdAt"`
			RunCount  num    `json:"runCount"`
			Kind      string `json:"kind"`
		} `json:"history"`
	} `json:"checkpoint"`
	TerminalMarker       string `json:"terminal_marker"`
	TerminalMarkerAt     string `json:"terminal_marker_at"`
	TerminalMarkerPID    num    `json:"terminal_marker_pid"`
	TerminalMarkerSource string `json:"terminal_marker_source"`
	ImportedFrom         *struct {
		Tool            string `json:"tool"`
		SourceSessionID string `json:"sourceSessionId"`
		SourcePath      string `json:"sourcePath"`
		ImportedAt      string `json:"importedAt"`
		SourceProvider  string `json:"sourceProvider"`
		SourceModel     string `json:"sourceModel"`
	} `json:"importedFrom"`
	BlobUpload *struct {
		Storage struct {
			Bucket      string `json:"bucket"`
			AdapterType string `json:"adapterType"`
			Region      string `json:"region"`
			Endpoint    string `json:"endpoint"`
		} `json:"storage"`
		KeyPrefix      string `json:"keyPrefix"`
		UserDistinctID string `json:"userDistinctId"`
	} `json:"enterprise.blobUpload"`
	ExecutionTarget string `json:"executionTarget"`
	CloudStatus     string `json:"cloudStatus"`
	RepoURL         string `json:"repoUrl"`
}

// parseSDKSession reads a session record, sessions/<id>/<id>.json. A
// messages file reaching it (a bundle collected before the catalog had the
// sdk-messages target) is read as a messages file.
func parseSDKSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if strings.HasSuffix(in.Base(), ".messages.json") {
		return parseSDKMessages(ctx, in, out)
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxSmall))
	if err != nil {
		return err
	}
	var s sdkSession
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(1, parser.NotJSON("session record", err))
		return nil
	}
	if s.SessionID == "" {
		_, s.SessionID = clinetask.TaskDir(in.Path)
	}
	sdkSessionRows(out, s, 1)
	return nil
}

// sdkSessionRows writes a session's rows (its record file or its
// sessions.db row; the record ids are the same, so the engine keeps one
// of each): "session started: ..." at started_at, the prompt as a
// secondary user row (a subagent's as "subagent task: ..."), each
// checkpoint, the standing approval setting, an enterprise upload as
// "session synced: ...", and "session ended: ..." at ended_at. line is
// the rows' SourceLine.
func sdkSessionRows(out parser.Sink, s sdkSession, line int64) {
	var m sdkMeta
	if len(s.Metadata) > 0 {
		if err := json.Unmarshal(s.Metadata, &m); err != nil {
			out.Problem(line, parser.NotJSON("session metadata", err))
		}
	}
	sid := s.SessionID
	if s.IsSubagent && s.ParentSessionID == "" {
		if i := strings.Index(sid, "__"); i > 0 {
			s.ParentSessionID = sid[:i]
		}
	}
	start := isoTime(s.StartedAt)
	ev := func(tm, fallback time.Time, turn timeline.TurnType, text, id string) timeline.Event {
		basis := timeline.TimeRecorded
		if tm.IsZero() {
			tm, basis = fallback, timeline.TimeInherited
		}
		if tm.IsZero() {
			basis = timeline.TimeNone
		}
		return timeline.Event{Time: tm, TimeBasis: basis, Agent: Agent, SessionID: sid, ParentSessionID: s.ParentSessionID,
			ProjectPath: s.Cwd, TurnType: turn, Text: text, SourceLine: line, RecordID: sid + "#" + id, Model: s.Model}
	}
	st := start
	var b strings.Builder
	b.WriteString("session started:")
	kv := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, " %s=%s", k, v)
		}
	}
	kv("source", s.Source)
	if s.PID != 0 {
		kv("pid", strconv.FormatInt(int64(s.PID), 10))
	}
	if s.Interactive != nil {
		kv("interactive", strconv.FormatBool(*s.Interactive))
	}
	kv("provider", s.Provider)
	kv("model", s.Model)
	if s.ParentSessionID != "" {
		kv("subagent_of", s.ParentSessionID)
		kv("agent", s.AgentID)
	}
	if o := m.HistoryOrigin; o != nil {
		if o.Mode != "user" {
			kv("history_origin", o.Mode)
		}
		kv("trigger", o.Trigger)
		kv("version", o.Version)
	}
	if m.ExecutionTarget != "" {
		kv("execution_target", m.ExecutionTarget)
		kv("repo", m.RepoURL)
	}
	if im := m.ImportedFrom; im != nil {
		kv("imported_from", im.Tool)
		kv("source_session", im.SourceSessionID)
		kv("source_path", im.SourcePath)
		if im.SourceModel != "" {
			kv("source_model", strings.Trim(im.SourceProvider+"/"+im.SourceModel, "/"))
		}
		kv("imported_at", im.ImportedAt)
	}
	out.Event(ev(st, st, timeline.System, b.String(), "start"))

	if p := strings.TrimSpace(s.Prompt); p != "" {
		if typed, _, _, ok := unwrapUserInput(p); ok {
			p = typed
		}
		if s.ParentSessionID != "" {
			e := ev(st, st, timeline.System, "subagent task: "+p, "prompt")
			e.Secondary = true
			out.Event(e)
		} else {
			e := ev(st, st, timeline.User, p, "prompt")
			e.Secondary = true
			out.Event(e)
		}
	}
	if m.AutoApproveTools != nil || m.Mode != "" {
		var sb []string
		if m.AutoApproveTools != nil {
			sb = append(sb, "autoApproveTools="+strconv.FormatBool(*m.AutoApproveTools))
		}
		if m.Mode != "" {
			sb = append(sb, "mode="+m.Mode)
		}
		out.Event(ev(st, st, timeline.System, "permission setting: "+strings.Join(sb, " ")+" (session metadata)", "settings"))
	}
	if m.Checkpoint != nil {
		for _, c := range m.Checkpoint.History {
			text := fmt.Sprintf("checkpoint: %s %s (run %d)", firstNonEmpty(c.Kind, "commit"), c.Ref, int64(c.RunCount))
			out.Event(ev(msTime(float64(c.CreatedAt)), st, timeline.System, text, "checkpoint-"+c.Ref))
		}
	}
	synced := "no"
	if bu := m.BlobUpload; bu != nil {
		synced = "yes"
		obj := "sessions/" + firstNonEmpty(bu.UserDistinctID, "unknown") + "/" + sid + "/messages.json"
		if p := strings.Trim(bu.KeyPrefix, "/"); p != "" {
			obj = p + "/" + obj
		}
		text := fmt.Sprintf("session synced: enterprise blob upload adapter=%s bucket=%s object=%s", firstNonEmpty(bu.Storage.AdapterType, "unknown"), bu.Storage.Bucket, obj)
		if bu.Storage.Endpoint != "" {
			text += " endpoint=" + bu.Storage.Endpoint
		}
		end := isoTime(s.EndedAt)
		out.Event(ev(end, st, timeline.System, text, "synced"))
	}
	origin := "local"
	if m.ExecutionTarget == "cloud" {
		origin = "remote"
	}
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Origin: origin, Synced: synced, ParentSessionID: s.ParentSessionID})

	if end := isoTime(s.EndedAt); !end.IsZero() || (s.Status != "" && s.Status != "running" && s.Status != "pending" && s.Status != "idle") {
		var eb strings.Builder
		eb.WriteString("session ended: status=" + firstNonEmpty(s.Status, "unknown"))
		if s.ExitCode != nil {
			fmt.Fprintf(&eb, " exit_code=%d", int64(*s.ExitCode))
		}
		if m.TerminalMarker != "" {
			fmt.Fprintf(&eb, " marker=%s by=%s at=%s", m.TerminalMarker, m.TerminalMarkerSource, m.TerminalMarkerAt)
			if m.TerminalMarkerPID != 0 {
				fmt.Fprintf(&eb, " pid=%d", int64(m.TerminalMarkerPID))
			}
		}
		out.Event(ev(end, st, timeline.System, eb.String(), "end"))
	} else if s.Status != "" {
		out.Event(ev(time.Time{}, st, timeline.System, "session status: "+s.Status+" (no end recorded)", "end"))
	}
}
