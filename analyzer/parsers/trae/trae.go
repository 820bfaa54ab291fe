package trae

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "trae"

// StorageKey is the ItemTable key of Trae's chat store.
const StorageKey = "memento/icube-ai-agent-storage"

// Parsers returns the Trae parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "trae/state", Agent: Agent, Version: 3,
			Targets: []string{"state"}, Names: []string{"state.vscdb"},
			Doc: "User/{globalStorage,workspaceStorage/*}/state.vscdb ItemTable memento/icube-ai-agent-storage through vscodestate.VSCodeState: chat sessions, typed prompts, replies (agent task content when the reply is empty)",
		}, parseState),
		parser.New(parser.Spec{
			ID: "trae/modular-data", Agent: Agent, Version: 2,
			Targets: []string{"modular-data"}, Names: []string{"database.db"},
			Doc: "ModularData/ai-agent/database.db, the modern builds' encrypted agent store: one \"encrypted, not read\" row naming it and its size (file mtime)",
		}, parseModularData),
	}
}

// stamp is a time given as epoch seconds or milliseconds, or RFC 3339.
type stamp struct{ raw json.RawMessage }

func (s *stamp) UnmarshalJSON(b []byte) error { s.raw = append([]byte(nil), b...); return nil }

func (s stamp) time() (time.Time, bool) {
	if len(s.raw) == 0 || string(s.raw) == "null" {
		return time.Time{}, false
	}
	var n json.Number
	if json.Unmarshal(s.raw, &n) == nil {
		if v, err := n.Int64(); err == nil {
			return parser.Epoch(v, 1e11)
		}
		if f, err := n.Float64(); err == nil {
			return parser.Epoch(int64(f), 1e11)
		}
	}
	if str, ok := parser.JSONString(s.raw); ok {
		return parser.ParseTime(str)
	}
	return time.Time{}, false
}

type message struct {
	Role      string          `json:"role"`
	Content   string          `json:"content"`
	AgentTask json.RawMessage `json:"agentTaskContent"`
	Timestamp stamp           `json:"timestamp"`
	Model     string          `json:"model"`
	TurnIndex *int            `json:"turnIndex"`
}

type session struct {
	SessionID string    `json:"sessionId"`
	Created   stamp     `json:"createdAt"`
	Updated   stamp     `json:"updatedAt"`
	Model     string    `json:"model"`
	Messages  []message `json:"messages"`
}

func parseState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	st, err := vscodestate.OpenVSCodeState(ctx, in, out)
	if err != nil {
		out.Problem(0, vscodestate.NotReadable(err))
		return nil
	}
	if st == nil {
		return nil // not a state database: CheckStore said so
	}
	r, ok, err := st.Item(ctx, StorageKey)
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	var store map[string]json.RawMessage
	if err := r.JSON(&store); err != nil {
		out.Problem(r.Rowid, r.NotObject(err))
		return nil
	}
	others := make([]string, 0, len(store))
	for k := range store {
		if k != "list" {
			others = append(others, k)
		}
	}
	sort.Strings(others)
	for _, k := range others {
		out.Report(r.Rowid, parser.KindSkippedRecord, "a member "+k+" of "+StorageKey)
	}
	var list []json.RawMessage
	if raw, ok := store["list"]; !ok {
		return nil
	} else if err := json.Unmarshal(raw, &list); err != nil {
		out.Problem(r.Rowid, StorageKey+" list is not a list: "+parser.JSONError(err))
		return nil
	}
	for i, raw := range list {
		var s session
		if err := json.Unmarshal(raw, &s); err != nil {
			out.Problem(r.Rowid, fmt.Sprintf("session %d of %s is not a session: %s", i+1, StorageKey, parser.JSONError(err)))
			continue
		}
		if strings.TrimSpace(s.SessionID) == "" {
			out.Report(r.Rowid, parser.KindSkippedRecord, fmt.Sprintf("session %d of %s has no sessionId (%d messages)", i+1, StorageKey, len(s.Messages)))
			continue
		}
		emitSession(r.Rowid, s, out)
	}
	return nil
}

func emitSession(rowid int64, s session, out parser.Sink) {
	head := timeline.Event{SessionID: s.SessionID, Model: s.Model, TurnType: timeline.System, SourceLine: rowid, TimeBasis: timeline.TimeNone, RecordID: s.SessionID + "#session"}
	created, hasCreated := s.Created.time()
	if hasCreated {
		head.Time, head.TimeBasis = created, timeline.TimeRecorded
	}
	parts := []string{"session " + s.SessionID, fmt.Sprintf("%d messages", len(s.Messages))}
	if s.Model != "" {
		parts = append(parts, "model "+s.Model)
	}
	if u, ok := s.Updated.time(); ok {
		parts = append(parts, "updated "+u.Format("2006-01-02T15:04:05.000Z"))
	}
	head.Text = strings.Join(parts, "; ")
	out.Event(head)
	for j, m := range s.Messages {
		e := timeline.Event{SessionID: s.SessionID, Model: s.Model, SourceLine: rowid, TimeBasis: timeline.TimeNone}
		if m.Model != "" {
			e.Model = m.Model
		}
		if t, ok := m.Timestamp.time(); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		} else if hasCreated {
			e.Time, e.TimeBasis = created, timeline.TimeInherited
		}
		where := fmt.Sprintf("message %d of session %s", j+1, s.SessionID)
		switch strings.ToLower(strings.TrimSpace(m.Role)) {
		case "user":
			if strings.TrimSpace(m.Content) == "" {
				out.Report(rowid, parser.KindSkippedRecord, where+": an empty user message")
				continue
			}
			e.TurnType, e.Text = timeline.User, m.Content
		case "assistant":
			e.TurnType, e.Text = timeline.Assistant, m.Content
			if strings.TrimSpace(m.Content) == "" {
				e.Text = taskText(m.AgentTask)
			}
			if strings.TrimSpace(e.Text) == "" {
				out.Report(rowid, parser.KindSkippedRecord, where+": an empty assistant message")
				continue
			}
		default:
			out.Report(rowid, parser.KindSkippedRecord, where+": a message of role "+m.Role)
			continue
		}
		out.Event(e)
	}
}

// taskText is the readable text of an agentTaskContent: a string, its
// content, text or proposal, or a plan's items; otherwise its JSON.
func taskText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, ok := parser.JSONString(raw); ok {
		return s
	}
	var obj struct {
		Content   string `json:"content"`
		Text      string `json:"text"`
		Proposal  string `json:"proposal"`
		Guideline struct {
			PlanItems []struct {
				Content string `json:"content"`
			} `json:"planItems"`
		} `json:"guideline"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		return parser.CompactJSON(raw)
	}
	for _, s := range []string{obj.Content, obj.Text, obj.Proposal} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	if len(obj.Guideline.PlanItems) > 0 {
		var items []string
		for _, it := range obj.Guideline.PlanItems {
			items = append(items, it.Content)
		}
		return "plan: " + strings.Join(items, "\n")
	}
	return parser.CompactJSON(raw)
}

var sqliteMagic = []byte("SQLite format 3\x00")

func parseModularData(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.OpenRaw()
	if err != nil {
		return err
	}
	defer rc.Close()
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(rc, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	if n == 0 || bytes.Equal(head[:n], sqliteMagic) {
		db, err := in.DB(ctx)
		if err != nil {
			return err
		}
		if empty, err := parser.EmptyStore(ctx, db, "a Trae modular-data", out); err != nil || empty {
			return err
		}
		out.Report(0, parser.KindSkippedRecord, "a plain SQLite agent store "+parser.DisplayFile(&in.File)+": its schema is not known here, not read")
		return nil
	}
	e := parser.SettingEvent(&in.File)
	e.Text = fmt.Sprintf("encrypted agent store, not read: %s, %d bytes (file mtime)", parser.DisplayFile(&in.File), in.Size)
	out.Event(e)
	return nil
}
