package letta

import (
	"context"
	"path"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// conversationRecord is conversations/<key>/conversation.json
// (LocalStore's StoredConversation).
type conversationRecord struct {
	ID            string   `json:"id"`
	AgentID       string   `json:"agent_id"`
	Archived      bool     `json:"archived"`
	ArchivedAt    *string  `json:"archived_at"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
	LastMessageAt *string  `json:"last_message_at"`
	Summary       *string  `json:"summary"`
	InContext     []string `json:"in_context_message_ids"`
}

// manifestRecord is conversations/<key>/manifest.json
// (LocalTranscriptManifest).
type manifestRecord struct {
	SchemaVersion json.Number `json:"schema_version"`
	MessageFormat string      `json:"message_format"`
	CreatedAt     string      `json:"created_at"`
	MigratedFrom  string      `json:"migrated_from"`
	MigratedAt    string      `json:"migrated_at"`
	BackupPath    string      `json:"backup_path"`
}

// systemPromptRecord is conversations/<key>/system-prompt.json.
type systemPromptRecord struct {
	CompiledAt    string `json:"compiledAt"`
	Content       string `json:"content"`
	CoreMemory    string `json:"coreMemory"`
	MemfsRevision string `json:"memfsRevision"`
	RawSystemHash string `json:"rawSystemHash"`
}

func parseConversationMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	conv, agent := conversationOf(in.Path)
	switch path.Base(in.Path) {
	case "conversation.json":
		var c conversationRecord
		if !decodeDoc(in, out, &c) {
			return nil
		}
		if c.ID == "" {
			c.ID = conv
		}
		if c.AgentID == "" {
			c.AgentID = agent
		}
		sid := c.ID
		if sid == "default" && c.AgentID != "" {
			sid = "default:" + c.AgentID // every agent has a conversation "default"
		}
		created, _ := isoTime(c.CreatedAt)
		e := recorded(in, created)
		e.SessionID = sid
		parts := []string{"conversation " + c.ID + " of agent " + c.AgentID + " created"}
		if c.LastMessageAt != nil && *c.LastMessageAt != "" {
			parts = append(parts, "last message "+*c.LastMessageAt)
		}
		parts = append(parts, strconv.Itoa(len(c.InContext))+" message(s) in context")
		e.Text = strings.Join(parts, "; ")
		e.RecordID = sid + "#conversation"
		e.SourceLine = 1
		out.Event(e)
		if c.Archived || (c.ArchivedAt != nil && *c.ArchivedAt != "") {
			at := ""
			if c.ArchivedAt != nil {
				at = *c.ArchivedAt
			}
			t, _ := isoTime(at)
			a := recorded(in, t)
			a.SessionID, a.SourceLine, a.RecordID = sid, 1, sid+"#archived"
			a.Text = "conversation " + parser.Shown(c.ID) + " archived"
			if at != "" {
				a.Text += " at " + at
			}
			out.Event(a)
		}
		if c.Summary != nil && strings.TrimSpace(*c.Summary) != "" {
			t, _ := isoTime(c.UpdatedAt)
			s := recorded(in, t)
			s.SessionID, s.SourceLine, s.RecordID = sid, 1, sid+"#summary"
			s.Text = "conversation summary: " + *c.Summary
			out.Event(s)
		}
	case "manifest.json":
		var m manifestRecord
		if !decodeDoc(in, out, &m) {
			return nil
		}
		if m.MigratedFrom == "" && m.BackupPath == "" {
			out.Skip(1, "state_only")
			return nil
		}
		t, _ := isoTime(m.MigratedAt)
		e := recorded(in, t)
		e.SessionID, e.SourceLine, e.RecordID = conv, 1, conv+"#migrated"
		e.Text = "transcript migrated from " + m.MigratedFrom + " to " + m.MessageFormat
		if m.BackupPath != "" {
			e.Text += " (backup " + m.BackupPath + ")"
		}
		out.Event(e)
	case "system-prompt.json":
		var sp systemPromptRecord
		if !decodeDoc(in, out, &sp) {
			return nil
		}
		t, _ := isoTime(sp.CompiledAt)
		e := recorded(in, t)
		e.SessionID, e.SourceLine = conv, 1
		if conv == "" && agent != "" {
			e.SessionID = "default:" + agent
		}
		e.RecordID = e.SessionID + "#system-prompt"
		e.Text = "system prompt compiled (" + strconv.Itoa(len(sp.Content)) + " chars, memory revision " + sp.MemfsRevision + ")"
		if strings.TrimSpace(sp.CoreMemory) != "" {
			e.Text += "; core memory in context:\n" + sp.CoreMemory
		}
		out.Event(e)
	default:
		out.Skip(1, "no_evidence:"+path.Base(in.Path))
	}
	return ctx.Err()
}

// agentRecord is agents/<key>.json (LocalAgentRecord).
type agentRecord struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description *string  `json:"description"`
	System      string   `json:"system"`
	Tags        []string `json:"tags"`
	Model       string   `json:"model"`
	Hidden      *bool    `json:"hidden"`
}

func parseAgentRecord(_ context.Context, in *parser.Input, out parser.Sink) error {
	var a agentRecord
	if !decodeDoc(in, out, &a) {
		return nil
	}
	if a.ID == "" {
		a.ID, _ = keyOf(strings.TrimSuffix(path.Base(in.Path), ".json"))
	}
	e := parser.SettingEvent(&in.File)
	e.SourceLine, e.RecordID = 1, a.ID+"#agent"
	parts := []string{"local agent " + a.ID + " " + strconv.Quote(a.Name)}
	for _, t := range a.Tags {
		if t == "role:subagent" {
			parts[0] = "local subagent " + a.ID + " " + strconv.Quote(a.Name)
		}
	}
	if a.Model != "" {
		parts = append(parts, "model "+a.Model)
	}
	if len(a.Tags) > 0 {
		parts = append(parts, "tags "+strings.Join(a.Tags, ","))
	}
	if a.Description != nil && *a.Description != "" {
		parts = append(parts, *a.Description)
	}
	if a.Hidden != nil && *a.Hidden {
		parts = append(parts, "hidden")
	}
	parts = append(parts, "system prompt "+strconv.Itoa(len(a.System))+" chars")
	e.Text = strings.Join(parts, "; ") + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
	out.Event(e)
	return nil
}
