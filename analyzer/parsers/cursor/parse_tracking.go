package cursor

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// pick returns the first non-empty column among names.
func pick(m map[string]any, names ...string) string {
	for _, n := range names {
		if v := strings.TrimSpace(parser.SQLText(m[n])); v != "" {
			return v
		}
	}
	return ""
}

// pickTime returns the first column among names that holds a time (epoch
// s or ms, or ISO text).
func pickTime(m map[string]any, names ...string) (time.Time, bool) {
	for _, n := range names {
		switch v := m[n].(type) {
		case int64, float64:
			if t, ok := msTime(num(v)); ok {
				return t, true
			}
		case string, []byte:
			s := parser.SQLText(v)
			if t, ok := jsonTime([]byte(`"` + strings.ReplaceAll(s, `"`, ``) + `"`)); ok {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

var rowTimeCols = []string{"timestamp", "createdAt", "created_at", "updatedAt", "updated_at", "deletedAt", "deleted_at", "scoredAt", "scored_at", "commitDate", "commit_date", "date"}

func stamp(e *timeline.Event, m map[string]any, cols ...string) {
	if len(cols) == 0 {
		cols = rowTimeCols
	}
	if t, ok := pickTime(m, cols...); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

// parseTracking reads .cursor/ai-tracking/ai-code-tracking.db.
func parseTracking(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	tables := []struct {
		name string
		fn   func(m map[string]any) timeline.Event
	}{
		{"ai_code_hashes", func(m map[string]any) timeline.Event {
			e := timeline.Event{SessionID: pick(m, "conversationId", "conversation_id", "composerId")}
			stamp(&e, m, "timestamp", "createdAt", "created_at")
			e.Text = "ai code: " + firstNonEmpty(pick(m, "fileName", "file_name", "filePath"), "(no file)")
			if v := pick(m, "source"); v != "" {
				e.Text += " source=" + v
			}
			if v := pick(m, "model"); v != "" {
				e.Text += " model=" + v
			}
			if v := pick(m, "hash"); v != "" {
				e.Text += " hash=" + v
			}
			return e
		}},
		{"conversation_summaries", func(m map[string]any) timeline.Event {
			e := timeline.Event{SessionID: pick(m, "conversationId", "conversation_id", "composerId", "id")}
			stamp(&e, m)
			e.Text = "conversation summary: " + pick(m, "summary", "tldr", "overview", "title", "text")
			return e
		}},
		{"ai_deleted_files", func(m map[string]any) timeline.Event {
			e := timeline.Event{SessionID: pick(m, "conversationId", "conversation_id", "composerId")}
			stamp(&e, m)
			e.Text = "file deleted by agent: " + pick(m, "filePath", "file_path", "fileName", "file_name", "path", "uri")
			return e
		}},
		{"scored_commits", func(m map[string]any) timeline.Event {
			e := timeline.Event{}
			stamp(&e, m)
			e.Text = "scored commit: " + pick(m, "commitHash", "commit_hash", "hash", "sha")
			if v := pick(m, "branchName", "branch_name", "branch"); v != "" {
				e.Text += " branch=" + v
			}
			var ks []string
			for k := range m {
				if linesColRe.MatchString(k) {
					ks = append(ks, k)
				}
			}
			sort.Strings(ks)
			for _, k := range ks {
				if v := parser.SQLText(m[k]); v != "" {
					e.Text += " " + k + "=" + v
				}
			}
			if v := pick(m, "commitMessage", "commit_message", "message"); v != "" {
				e.Text += " message=" + v
			}
			return e
		}},
	}
	readable, err := parser.CheckStore(ctx, db, trackingStore, out)
	if err != nil {
		return err
	}
	reads := make([]parser.TableRead, 0, len(tables))
	for _, tb := range tables {
		reads = append(reads, parser.TableRead{Table: tb.name, Read: func() error {
			return parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM "+tb.name+" ORDER BY rowid", func(m map[string]any) {
				e := tb.fn(m)
				e.TurnType, e.SourceLine = timeline.System, num(m["rowid_"])
				out.Event(e)
			})
		}})
	}
	return parser.ReadTables(ctx, out, readable, reads...)
}

// trackingStore is ai-code-tracking.db (the one SQLite policy,
// parser.CheckStore): the four tables parseTracking reads. Only
// ai_code_hashes has a column every install seen writes (hash, its key);
// the other three were empty wherever seen, so their columns are read by
// several spellings and none is required. No version is known to lack a
// table, so none is Optional.
var trackingStore = parser.SQLiteStore{Name: "a Cursor AI code tracking", Tables: parser.SQLiteSchema{
	"ai_code_hashes":         {"hash"},
	"conversation_summaries": nil,
	"ai_deleted_files":       nil,
	"scored_commits":         nil,
}}

var linesColRe = regexp.MustCompile(`(?i)lines|percent`)

// parseSearchDB reads User/globalStorage/conversation-search.db: one
// "conversation index:" row per row of each plain table that names a
// conversation (full-text index shadow tables are skipped).
func parseSearchDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	if empty, err := parser.EmptyStore(ctx, db, "a Cursor conversation-search", out); err != nil || empty {
		return err
	}
	var tables []string
	err = parser.EachRow(ctx, db, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name", func(m map[string]any) {
		n := parser.SQLText(m["name"])
		if strings.HasPrefix(n, "sqlite_") || strings.Contains(strings.ToLower(n), "fts") {
			return
		}
		tables = append(tables, n)
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	for _, tb := range tables {
		q := `SELECT rowid AS rowid_, * FROM "` + strings.ReplaceAll(tb, `"`, `""`) + `" ORDER BY rowid`
		err := parser.EachRow(ctx, db, q, func(m map[string]any) {
			id := pick(m, "conversationId", "conversation_id", "composerId", "composer_id")
			if id == "" {
				return
			}
			e := timeline.Event{SessionID: id, TurnType: timeline.System, SourceLine: num(m["rowid_"])}
			stamp(&e, m, "updatedAt", "updated_at", "lastUpdatedAt", "createdAt", "created_at", "timestamp", "indexedAt", "indexed_at")
			e.Text = "conversation index: " + firstNonEmpty(pick(m, "title", "name"), id)
			if v := pick(m, "workspacePath", "workspace_path", "workspace", "folder"); v != "" {
				e.ProjectPath = v
			}
			if v := pick(m, "source", "origin", "type", "kind"); v != "" {
				e.Text += " source=" + v
			}
			out.Event(e)
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			out.Problem(0, tb+": "+err.Error())
		}
	}
	return nil
}

var cliKeyRe = regexp.MustCompile(`(?i)^(permissions|approvalmode|approval_mode|sandbox|autorun|.*allowlist|.*denylist)$`)

// parseCLIConfig reads .cursor/cli-config.json (the Agent CLI) and
// .cursor/permissions.json (editor and CLI allowlists): one "permission
// setting:" row per entry, at the file's modification time. authInfo and
// any other secret-looking key is never read out.
func parseCLIConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	r, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer r.Close()
	obj, err := decodeJSONC(r)
	if err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	keep := obj
	if in.Base() == "cli-config.json" || in.Base() == "cli.json" {
		keep = map[string]jsonRaw{}
		for k, v := range obj {
			if cliKeyRe.MatchString(k) {
				keep[k] = v
			}
		}
	}
	project := ""
	if in.Target == "project" {
		project = path.Dir(path.Dir(slash(in.Path)))
	}
	file := parser.DisplayFile(&in.File)
	for _, kv := range flattenSettings(strings.TrimSuffix(in.Base(), ".json"), keep, false) {
		e := parser.SettingEvent(&in.File)
		e.ProjectPath = project
		e.Text = "permission setting: " + kv + " (from " + file + ", file mtime)"
		out.Event(e)
	}
	return nil
}
