package sqlitecarve

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// deletedStore is a real opencode 1.18.33 store with session
// ses_dccb67667ffedFiHCx5a9BYKVb deleted by `opencode session delete`
// and the WAL checkpointed (scripts/gen-carve-fixture.sh).
const deletedStore = "../../../fixtures/roots/opencode-deleted/home/examiner3/.local/share/opencode/opencode.db"

const deletedSession = "ses_dccb67667ffedFiHCx5a9BYKVb"

// carveFile carves a copy of the store at path (and its -wal), so the
// driver's -shm never lands beside a fixture.
func carveFile(t *testing.T, orig string) *Result {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(orig))
	for _, sfx := range []string{"", "-wal"} {
		b, err := os.ReadFile(orig + sfx)
		if err != nil {
			if sfx == "" {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path+sfx, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tabs, err := Schema(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	var wal *os.File
	var walSize int64
	if w, err := os.Open(path + "-wal"); err == nil {
		defer w.Close()
		wi, _ := w.Stat()
		wal, walSize = w, wi.Size()
	}
	var r *Result
	if wal != nil {
		r, err = Carve(context.Background(), f, st.Size(), wal, walSize, tabs, Options{})
	} else {
		r, err = Carve(context.Background(), f, st.Size(), nil, 0, tabs, Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func byTable(r *Result, table string) []Record {
	var out []Record
	for _, x := range r.Records {
		if x.Table == table {
			out = append(out, x)
		}
	}
	return out
}

// TestDeletedOpencodeSession: every row opencode's own delete removed
// (the session, its 3 messages, its 8 parts) comes back from the
// freeblocks of the live leaves, with exact ids and text; the kept
// session's live rows are not carved as recovered.
func TestDeletedOpencodeSession(t *testing.T) {
	r := carveFile(t, deletedStore)
	if len(r.Problems) != 0 || r.WAL.Present || r.Pages != 72 {
		t.Fatalf("problems %v, WAL %v, pages %d", r.Problems, r.WAL.Present, r.Pages)
	}
	sess := byTable(r, "session")
	if len(sess) != 1 {
		t.Fatalf("sessions %d", len(sess))
	}
	s := sess[0]
	row := s.Row()
	if row["id"] != deletedSession || row["slug"] != "jolly-harbor" || row["directory"] != "/home/examiner3/demo" || row["time_created"] != int64(1796156787096) || row["version"] != "1.18.33" || s.Partial || s.RowidKnown ||
		s.Provenance() != "freeblock on page 35 at offset 3689" {
		t.Fatalf("session %v %q", row, s.Provenance())
	}
	msgs := byTable(r, "message")
	var ids []string
	for _, m := range msgs {
		if m.Row()["session_id"] != deletedSession || m.Source != SrcFreeblock || m.Page != 25 {
			t.Errorf("message %v from %s", m.Row()["id"], m.Provenance())
		}
		ids = append(ids, m.Row()["id"].(string))
	}
	if strings.Join(ids, " ") != "msg_23349ac3d001ZNlcb121ng4NeX msg_233498ae9001FrnVosl1qqwj9L msg_2334993d7001IFQykSHdXdK7uF" {
		t.Fatalf("messages %v", ids)
	}
	parts := byTable(r, "part")
	if len(parts) != 8 {
		t.Fatalf("parts %d", len(parts))
	}
	user := parts[7].Row()
	if user["id"] != "prt_233498b130017NpEVRZLhwcfjr" || user["message_id"] != "msg_233498ae9001FrnVosl1qqwj9L" ||
		!strings.Contains(user["data"].(string), "Run the shell command `echo doubleagent-carve-deleted-marker` and tell me what it printed.") ||
		parts[7].Provenance() != "freeblock on page 70 at offset 3864" {
		t.Fatalf("user part %v %s", user, parts[7].Provenance())
	}
	for _, p := range parts {
		if p.Row()["session_id"] != deletedSession || p.Partial {
			t.Errorf("part %v: %s", p.Row()["id"], p.Provenance())
		}
	}
	// the live session's rows never come back as recovered
	for _, x := range r.Records {
		for _, v := range x.Values {
			if s, ok := v.(string); ok && strings.Contains(s, "ses_dccb6215bffempodh0GeJHTBdp") && x.Table != "event" {
				t.Errorf("a record of the kept session carved: %s %v", x.Table, x.Row()["id"])
			}
		}
	}
}

// TestNotSQLite: a file that is no database is an error, not a panic.
func TestNotSQLite(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("hello"), append([]byte("SQLite format 3\x00"), make([]byte, 84)...)} {
		if _, err := Carve(context.Background(), bytes.NewReader(b), int64(len(b)), nil, 0, nil, Options{}); err == nil {
			t.Errorf("%q: no error", b)
		}
	}
}
