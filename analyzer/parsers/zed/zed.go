package zed

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// Agent is the catalog name of Zed.
const Agent = "zed"

// Parsers returns the Zed parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "zed/threads", Agent: Agent, Version: 6,
			Actions: actions,
			Targets: []string{"threads"},
			Names:   []string{"threads.db"},
			Doc:     "Zed threads/threads.db: agent panel threads (zstd or plain JSON): prompts, replies, thinking, tool uses and results, denied calls, sub-agents, unsent drafts",
		}, parseThreadsDB),
		parser.New(parser.Spec{
			ID: "zed/db", Agent: Agent, Version: 4,
			Actions: actions,
			Targets: []string{"db"},
			Names:   []string{"db.sqlite"},
			Doc:     "Zed db/0-<channel>/db.sqlite: sidebar threads (native and external agents), trusted worktrees, draft prompts, created and archived git worktrees, terminal threads",
		}, parseStateDB),
		parser.New(parser.Spec{
			ID: "zed/settings", Agent: Agent, Version: 3,
			Actions: actions,
			Targets: []string{"settings"},
			Names:   []string{"settings.json", "global_settings.json"},
			Doc:     "Zed settings.json and global_settings.json: agent tool permissions and the default model (file mtime)",
		}, parseSettings),
	}
}

// sqlTime reads Zed's stored times: RFC 3339 (chrono to_rfc3339) or
// SQLite CURRENT_TIMESTAMP text (UTC).
func sqlTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// identifying picks a tool call's most identifying argument (Zed's tools:
// terminal command, edit_file/read_file path, fetch url, grep regex,
// find_path glob, web_search query, copy/move source).
func identifying(raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	for _, k := range []string{"command", "path", "url", "regex", "glob", "query", "source_path", "abs_path", "pattern", "label"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// firstPath takes the first of a serialized PathList (paths joined by
// newlines).
func firstPath(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// row is one table row by column name.
type row struct{ parser.Row }

func (r row) bytes(name string) []byte {
	switch v := r.Vals[name].(type) {
	case []byte:
		return v
	case string:
		return []byte(v)
	}
	return nil
}

// eachRow runs fn over every row of table (all columns by name), in rowid
// order; a missing table is an error here (the callers report it).
func eachRow(ctx context.Context, db *sql.DB, table string, fn func(r row) error) error {
	if ok, err := parser.HasTable(ctx, db, table); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("no such table: %s", table)
	}
	return parser.EachTableRow(ctx, db, table, func(r parser.Row) error { return fn(row{r}) })
}

// draftText extracts the text of a draft prompt: a string, or ACP content
// blocks ({type:"text", text} / {type:"resource_link", uri} ...), or any JSON
// holding "text" fields.
func draftText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var parts []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				parts = append(parts, t)
				return
			}
			if u, ok := x["uri"].(string); ok {
				parts = append(parts, "["+u+"]")
				return
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(v)
	return strings.Join(parts, "")
}
