package localdeepresearch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "local-deep-research"

// Parsers returns the Local Deep Research parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "local-deep-research/databases", Agent: agentName, Version: 3,
			Targets: []string{"databases"}, Names: []string{"*.db"},
			Doc: "ldr_auth.db account list (usernames, created, last login), the pre-1.0 unencrypted ldr.db research_history (typed queries, status, report paths); every SQLCipher database (ldr_user_*.db, backups) an \"encrypted, not read\" row",
		}, parseDatabase),
		parser.New(parser.Spec{
			ID: "local-deep-research/reports", Agent: agentName, Version: 1,
			Targets: []string{"outputs"}, Names: []string{"*.md", "*.json", "*.pdf", "*.txt", "*.html"},
			Doc: "research_outputs/ report files: one row per report naming it, its size and its title line (file mtime)",
		}, parseReport),
	}
}

var sqliteMagic = []byte("SQLite format 3\x00")

func setTime(e *timeline.Event, v any) {
	if t, ok := parser.SQLTime(v); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func parseDatabase(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.OpenRaw()
	if err != nil {
		return err
	}
	head := make([]byte, len(sqliteMagic))
	n, _ := io.ReadFull(rc, head)
	rc.Close()
	if n > 0 && !bytes.Equal(head[:n], sqliteMagic) {
		// SQLCipher: the whole file, header included, is ciphertext keyed
		// from the user's login password (encrypted_db.py).
		e := parser.SettingEvent(&in.File)
		e.Text = fmt.Sprintf("encrypted database (SQLCipher, keyed from the login password), not read: %s, %d bytes (file mtime)", parser.DisplayFile(&in.File), in.Size)
		if u := userOf(in.Base()); u != "" {
			e.Text += "; the file name's hash stands for a user of ldr_auth.db"
		}
		out.Event(e)
		return nil
	}
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, storeOf(in.Base()), out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "users", Read: func() error {
			return parser.EachTableRow(ctx, db, "users", func(r parser.Row) error {
				e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "user:" + r.Get("id")}
				setTime(&e, r.Vals["created_at"])
				e.Text = "account: " + r.Get("username") + " (created)"
				if ll := r.Get("last_login"); ll != "" {
					if t, ok := parser.SQLTime(r.Vals["last_login"]); ok {
						e.Text += ", last login " + t.Format("2006-01-02T15:04:05.000Z")
					}
				}
				out.Event(e)
				return nil
			})
		}},
		parser.TableRead{Table: "research_history", Read: func() error {
			return parser.EachTableRow(ctx, db, "research_history", func(r parser.Row) error {
				id := r.Get("id")
				sess := "research:" + id
				base := timeline.Event{SessionID: sess, SourceLine: r.Rowid}
				setTime(&base, r.Vals["created_at"])
				if q := strings.TrimSpace(r.Get("query")); q != "" {
					e := base
					e.TurnType, e.Text, e.RecordID = timeline.User, r.Get("query"), sess
					out.Event(e)
				}
				e := base
				e.TurnType, e.RecordID = timeline.System, sess+"#status"
				e.Text = "research " + parser.Shown(id) + " (" + r.Get("mode") + "): " + r.Get("status")
				if t, ok := parser.SQLTime(r.Vals["completed_at"]); ok {
					e.Text += ", completed " + t.Format("2006-01-02T15:04:05.000Z")
				}
				if d := r.Get("duration_seconds"); d != "" {
					e.Text += ", " + d + " s"
				}
				if p := r.Get("report_path"); p != "" {
					e.Text += ", report " + p
				}
				out.Event(e)
				return nil
			})
		}})
}

// The stores parseDatabase reads, each table with the columns its rows
// need: ldr_auth.db's account list, the pre-1.0 ldr.db's research
// history, and, for any other unencrypted *.db, either. Each store reads
// both tables, the one it is not named for Optional; one with neither is
// "not a ... database".
var (
	ldrTables = parser.SQLiteSchema{"users": {"id", "username"}, "research_history": {"id", "query"}}
	authStore = parser.SQLiteStore{Name: "a Local Deep Research account", Tables: ldrTables,
		Optional: map[string]string{"research_history": "ldr_auth.db (only the pre-1.0 ldr.db holds it)"}}
	pre1Store = parser.SQLiteStore{Name: "a pre-1.0 Local Deep Research", Tables: ldrTables,
		Optional: map[string]string{"users": "ldr.db (only ldr_auth.db holds it)"}}
	anyStore = parser.SQLiteStore{Name: "a Local Deep Research", Tables: ldrTables, Optional: map[string]string{
		"users":            "every store but ldr_auth.db",
		"research_history": "every store but the pre-1.0 ldr.db",
	}}
)

// storeOf is the store a database file of this name is.
func storeOf(base string) parser.SQLiteStore {
	switch base {
	case "ldr_auth.db":
		return authStore
	case "ldr.db":
		return pre1Store
	}
	return anyStore
}

// userOf returns the hash part of ldr_user_<hash>.db ("" otherwise).
func userOf(base string) string {
	if !strings.HasPrefix(base, "ldr_user_") {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "ldr_user_"), ".db")
}

func parseReport(ctx context.Context, in *parser.Input, out parser.Sink) error {
	e := parser.SettingEvent(&in.File)
	e.Text = fmt.Sprintf("research report: %s, %d bytes (file mtime)", parser.DisplayFile(&in.File), in.Size)
	if strings.HasSuffix(in.Base(), ".md") || strings.HasSuffix(in.Base(), ".txt") {
		rc, err := in.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		b, _ := io.ReadAll(io.LimitReader(rc, 4096))
		for _, l := range strings.Split(string(b), "\n") {
			if t := strings.TrimSpace(strings.TrimLeft(l, "# ")); t != "" {
				e.Text += ": " + t
				break
			}
		}
	}
	out.Event(e)
	return nil
}
