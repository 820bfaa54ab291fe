package openinterpreter

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const maxWhole = 64 << 20

// importLedger is external_agent_session_imports.json as
// codex-rs/external-agent-sessions/src/ledger.rs writes it.
type importLedger struct {
	Records []json.RawMessage `json:"records"`
}

type importRecord struct {
	SourcePath       string `json:"source_path"`
	ContentSHA256    string `json:"content_sha256"`
	ImportedThreadID string `json:"imported_thread_id"`
	ImportedAt       *int64 `json:"imported_at"`
	SourceModifiedAt *int64 `json:"source_modified_at"`
}

// sourceAgent names the agent whose session file was imported, from its
// path (the importer reads Claude Code projects and Cursor transcripts).
func sourceAgent(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	switch {
	case strings.Contains(p, "/.claude/") || strings.Contains(p, "/.claude-"):
		return "Claude Code"
	case strings.Contains(p, "/.cursor/") || strings.Contains(p, "/Cursor/"):
		return "Cursor"
	}
	return "another agent"
}

func parseImports(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "import ledger not read: "+err.Error())
		return nil
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var l importLedger
	if err := json.Unmarshal(b, &l); err != nil {
		out.Problem(0, "not an import ledger: "+parser.JSONError(err))
		return nil
	}
	for i, raw := range l.Records {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var r importRecord
		if err := json.Unmarshal(raw, &r); err != nil || r.SourcePath == "" || r.ImportedThreadID == "" {
			out.Report(n, parser.KindSkippedRecord, "import record without source_path or imported_thread_id")
			continue
		}
		text := fmt.Sprintf("session imported from %s: %s (content sha256 %s", sourceAgent(r.SourcePath), r.SourcePath, orNone(r.ContentSHA256))
		if r.SourceModifiedAt != nil && *r.SourceModifiedAt > 0 {
			text += ", source modified " + time.Unix(*r.SourceModifiedAt, 0).UTC().Format(time.RFC3339)
		}
		text += "); the imported thread's record times are the import time"
		e := timeline.Event{SessionID: r.ImportedThreadID, TurnType: timeline.System, Text: text, SourceLine: n}
		if r.ImportedAt != nil && *r.ImportedAt > 0 {
			e.Time = time.Unix(*r.ImportedAt, 0).UTC()
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}
