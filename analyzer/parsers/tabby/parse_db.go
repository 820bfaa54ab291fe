package tabby

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The server database (ee/tabby-db/schema/schema.sql). Only named columns
// are selected: users.auth_token and password_encrypted,
// integrations.access_token and the OAuth and LDAP credential tables are
// never read.
func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	tables, err := parser.CheckStore(ctx, db, dbStore, out)
	if err != nil {
		return err
	}
	if len(tables) == 0 {
		return nil // not a Tabby server database: CheckStore said so
	}
	r := &dbReader{ctx: ctx, db: db, in: in, out: out, secondary: isBackup(in), tables: tables, cols: map[string]map[string]bool{}}
	r.users()
	return parser.ReadTables(ctx, out, tables,
		parser.TableRead{Table: "threads", Read: r.threads},
		parser.TableRead{Table: "thread_messages", Read: r.messages},
		parser.TableRead{Table: "pages", Read: r.pages},
		parser.TableRead{Table: "page_sections", Read: r.sections},
		parser.TableRead{Table: "user_events", Read: r.userEvents},
		parser.TableRead{Table: "integrations", Read: r.integrations},
		parser.TableRead{Table: "provided_repositories", Read: r.repositories},
	)
}

// dbStore is the server database (the one SQLite policy,
// parser.CheckStore): each table parseDB reads with the columns its rows
// cannot be read without; the other columns a query names are read when
// present (dbReader.sel), since later migrations add them (code_source_id
// in 0040, attachments in 0042). users is created by migration 0002; the
// others by later migrations of ee/tabby-db/migrations (TabbyML/tabby),
// so each is Optional for the builds before its migration. A missing
// table or one lacking a column is one problem row naming it and the
// others are still read; a table failing part way is named and the next
// read; a file with none is "not a Tabby server database".
var dbStore = parser.SQLiteStore{
	Name: "a Tabby server",
	Tables: parser.SQLiteSchema{
		"users":                 {"id", "email"},
		"threads":               {"id", "user_id", "created_at"},
		"thread_messages":       {"id", "thread_id", "role", "content", "created_at"},
		"pages":                 {"id", "content", "created_at"},
		"page_sections":         {"id", "page_id", "content", "position", "created_at"},
		"user_events":           {"id", "user_id", "kind", "created_at", "payload"},
		"integrations":          {"id", "kind", "created_at"},
		"provided_repositories": {"id", "integration_id", "git_url"},
	},
	Optional: map[string]string{
		"threads":               "builds before migration 0035_add-thread-message-table",
		"thread_messages":       "builds before migration 0035_add-thread-message-table",
		"pages":                 "builds before migration 0042_page-section",
		"page_sections":         "builds before migration 0042_page-section",
		"user_events":           "builds before migration 0025_user-events",
		"integrations":          "builds before migration 0029_merged-provider-tables",
		"provided_repositories": "builds before migration 0029_merged-provider-tables",
	},
}

// sel is "SELECT <cols> FROM <table>" with NULL in place of a column the
// table lacks (one a later migration adds), so an older store reads.
func (r *dbReader) sel(table string, cols ...string) string {
	have, ok := r.cols[table]
	if !ok {
		have, _ = parser.Columns(r.ctx, r.db, table)
		r.cols[table] = have
	}
	list := make([]string, len(cols))
	for i, c := range cols {
		q := `"` + c + `"`
		if have[c] {
			list[i] = q + " AS " + q
		} else {
			list[i] = "NULL AS " + q
		}
	}
	return "SELECT " + strings.Join(list, ", ") + ` FROM "` + table + `"`
}

type dbReader struct {
	ctx       context.Context
	db        *sql.DB
	in        *parser.Input
	out       parser.Sink
	tables    map[string]bool // the tables to read (parser.CheckStore)
	cols      map[string]map[string]bool
	secondary bool
	emails    map[string]string
	owner     map[string]string // thread id -> owner email
	project   map[string]string // thread id -> attached repository
	threadIDs map[string]bool
	pageIDs   map[string]bool
	integ     map[string]string
}

func (r *dbReader) emit(e timeline.Event) {
	e.Secondary = r.secondary
	r.out.Event(e)
}

func (r *dbReader) users() {
	r.emails = map[string]string{}
	if !r.tables["users"] {
		return
	}
	err := parser.EachRow(r.ctx, r.db, r.sel("users", "id", "email"), func(m map[string]any) {
		r.emails[parser.SQLText(m["id"])] = parser.SQLText(m["email"])
	})
	if err != nil {
		r.out.Problem(0, "users: "+err.Error()+" (owners' emails after the error are not known)")
	}
}

func (r *dbReader) threads() error {
	r.owner, r.project, r.threadIDs = map[string]string{}, map[string]string{}, map[string]bool{}
	if !r.tables["threads"] {
		return nil
	}
	// the repository a thread is about: the first code attachment's git_url
	if r.tables["thread_messages"] {
		err := parser.EachRow(r.ctx, r.db, r.sel("thread_messages", "thread_id", "attachment")+" ORDER BY id", func(m map[string]any) {
			tid := parser.SQLText(m["thread_id"])
			if r.project[tid] != "" {
				return
			}
			var a attachment
			if json.Unmarshal([]byte(parser.SQLText(m["attachment"])), &a) == nil {
				for _, c := range a.Code {
					if c.GitURL != "" {
						r.project[tid] = c.GitURL
						return
					}
				}
			}
		})
		if err != nil {
			r.out.Problem(0, "thread_messages attachments: "+err.Error()+" (projects after the error are not known)")
		}
	}
	return parser.EachRow(r.ctx, r.db, r.sel("threads", "id", "is_ephemeral", "user_id", "created_at", "relevant_questions")+" ORDER BY id", func(m map[string]any) {
		id := parser.SQLText(m["id"])
		r.threadIDs[id] = true
		r.owner[id] = r.emails[parser.SQLText(m["user_id"])]
		e := timeline.Event{TurnType: timeline.System, SessionID: "thread-" + id, ProjectPath: r.project[id], SourceLine: rowid(m), RecordID: "thread-" + id + "#thread"}
		stamp(&e, parser.SQLText(m["created_at"]))
		owner := r.owner[id]
		if owner == "" {
			owner = "user " + parser.SQLText(m["user_id"])
		}
		e.Text = fmt.Sprintf("thread %s: owner=%s ephemeral=%s", id, owner, boolText(m["is_ephemeral"]))
		if r.secondary {
			e.Text += " (from the pre-migration backup " + r.in.Base() + ")"
		}
		r.emit(e)
		if q := parser.SQLText(m["relevant_questions"]); q != "" && q != "[]" {
			var qs []string
			if json.Unmarshal([]byte(q), &qs) == nil && len(qs) > 0 {
				e.Text, e.RecordID = "suggested follow-up questions: "+strings.Join(qs, " | "), "thread-"+id+"#questions"
				r.emit(e)
			}
		}
	})
}

func rowid(m map[string]any) int64 {
	if v, ok := m["id"].(int64); ok {
		return v
	}
	return 0
}

func boolText(v any) string {
	switch parser.SQLText(v) {
	case "1", "true":
		return "true"
	}
	return "false"
}

// attachment is ee/tabby-db/src/attachment.rs Attachment.
type attachment struct {
	Code []struct {
		GitURL    string `json:"git_url"`
		Commit    string `json:"commit"`
		Filepath  string `json:"filepath"`
		StartLine *int   `json:"start_line"`
	} `json:"code"`
	ClientCode []struct {
		Filepath  string `json:"filepath"`
		StartLine *int   `json:"start_line"`
	} `json:"client_code"`
	Doc []struct {
		Title    string `json:"title"`
		Link     string `json:"link"`
		PageLink string `json:"page_link"`
		Sha      string `json:"sha"`
	} `json:"doc"`
	CodeFileList *struct {
		FileList  []string `json:"file_list"`
		Truncated bool     `json:"truncated"`
	} `json:"code_file_list"`
}

func (a *attachment) describe() string {
	var parts []string
	for _, c := range a.Code {
		s := "code " + c.GitURL + " " + c.Filepath
		if c.StartLine != nil {
			s += fmt.Sprintf(":%d", *c.StartLine)
		}
		parts = append(parts, strings.TrimSpace(s))
	}
	for _, c := range a.ClientCode {
		s := "client code " + c.Filepath
		if c.StartLine != nil {
			s += fmt.Sprintf(":%d", *c.StartLine)
		}
		parts = append(parts, strings.TrimSpace(s))
	}
	for _, d := range a.Doc {
		link := d.Link
		if link == "" {
			link = d.PageLink
		}
		if d.Sha != "" {
			link = "commit " + d.Sha
		}
		parts = append(parts, strings.TrimSpace("doc "+d.Title+" "+link))
	}
	if a.CodeFileList != nil && len(a.CodeFileList.FileList) > 0 {
		s := fmt.Sprintf("file list of %d files", len(a.CodeFileList.FileList))
		if a.CodeFileList.Truncated {
			s += " (truncated)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func (r *dbReader) messages() error {
	if !r.tables["thread_messages"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("thread_messages", "id", "thread_id", "role", "content", "created_at", "code_source_id", "attachment")+" ORDER BY id", func(m map[string]any) {
		id, tid := parser.SQLText(m["id"]), parser.SQLText(m["thread_id"])
		base := timeline.Event{SessionID: "thread-" + tid, ProjectPath: r.project[tid], SourceLine: rowid(m)}
		stamp(&base, parser.SQLText(m["created_at"]))
		if !r.threadIDs[tid] {
			e := base
			e.TurnType, e.RecordID = timeline.System, "message-"+id+"#orphan"
			e.Text = "message of thread " + parser.Shown(tid) + ", whose thread row is gone"
			r.emit(e)
			r.out.Report(rowid(m), parser.KindOrphanRecord, "thread_messages "+parser.Shown(id)+": thread "+parser.Shown(tid)+" not in threads")
		}
		e := base
		e.Text, e.RecordID = parser.SQLText(m["content"]), "message-"+id
		switch parser.SQLText(m["role"]) {
		case "user":
			e.TurnType = timeline.User
		case "assistant":
			e.TurnType = timeline.Assistant
		default:
			e.TurnType = timeline.System
			e.Text = parser.SQLText(m["role"]) + ": " + e.Text
		}
		if e.Text != "" {
			r.emit(e)
		} else {
			r.out.Skip(rowid(m), "no_evidence:empty-message")
		}
		var a attachment
		if raw := parser.SQLText(m["attachment"]); raw != "" && raw != "{}" {
			if err := json.Unmarshal([]byte(raw), &a); err != nil {
				r.out.Problem(rowid(m), "thread_messages "+parser.Shown(id)+": attachment: "+parser.JSONError(err))
			} else if d := a.describe(); d != "" {
				x := base
				x.TurnType, x.RecordID, x.Text = timeline.System, "message-"+id+"#attachment", "attachments: "+d
				r.emit(x)
			}
		}
		if cs := parser.SQLText(m["code_source_id"]); cs != "" {
			x := base
			x.TurnType, x.RecordID, x.Text = timeline.System, "message-"+id+"#source", "code source: "+cs
			r.emit(x)
		}
	})
}

func (r *dbReader) pages() error {
	r.pageIDs = map[string]bool{}
	if !r.tables["pages"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("pages", "id", "author_id", "title", "content", "created_at", "code_source_id")+" ORDER BY id", func(m map[string]any) {
		id := parser.SQLText(m["id"])
		r.pageIDs[id] = true
		e := timeline.Event{SessionID: "page-" + id, SourceLine: rowid(m), TurnType: timeline.System, RecordID: "page-" + id + "#page"}
		stamp(&e, parser.SQLText(m["created_at"]))
		author := r.emails[parser.SQLText(m["author_id"])]
		if author == "" {
			author = "user " + parser.SQLText(m["author_id"])
		}
		e.Text = fmt.Sprintf("page %s: %s (author=%s)", id, parser.SQLText(m["title"]), author)
		if cs := parser.SQLText(m["code_source_id"]); cs != "" {
			e.Text += " code source: " + cs
		}
		r.emit(e)
		if c := parser.SQLText(m["content"]); c != "" {
			e.TurnType, e.Text, e.RecordID = timeline.Assistant, c, "page-"+id
			r.emit(e)
		}
	})
}

func (r *dbReader) sections() error {
	if !r.tables["page_sections"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("page_sections", "id", "page_id", "title", "content", "position", "created_at")+` ORDER BY page_id, "position", id`, func(m map[string]any) {
		id, pid := parser.SQLText(m["id"]), parser.SQLText(m["page_id"])
		e := timeline.Event{SessionID: "page-" + pid, SourceLine: rowid(m), TurnType: timeline.Assistant, RecordID: "section-" + id}
		stamp(&e, parser.SQLText(m["created_at"]))
		e.Text = "## " + parser.SQLText(m["title"])
		if c := parser.SQLText(m["content"]); c != "" {
			e.Text += "\n" + c
		}
		if !r.pageIDs[pid] {
			r.out.Report(rowid(m), parser.KindOrphanRecord, "page_sections "+parser.Shown(id)+": page "+parser.Shown(pid)+" not in pages")
		}
		r.emit(e)
	})
}

func (r *dbReader) userEvents() error {
	if !r.tables["user_events"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("user_events", "id", "user_id", "kind", "created_at", "payload")+" ORDER BY id", func(m map[string]any) {
		base := timeline.Event{SourceLine: rowid(m)}
		stamp(&base, parser.SQLText(m["created_at"]))
		var ev map[string]json.RawMessage
		if err := json.Unmarshal([]byte(parser.SQLText(m["payload"])), &ev); err != nil {
			r.out.Problem(rowid(m), "user_events: payload: "+parser.JSONError(err))
			return
		}
		n := eventRows(ev, base, func(e timeline.Event) { r.emit(e) })
		if n == 0 {
			r.out.Report(rowid(m), parser.KindSkippedRecord, "user_events: unknown event kind "+quote(parser.SQLText(m["kind"])))
		}
	})
}

func (r *dbReader) integrations() error {
	r.integ = map[string]string{}
	if !r.tables["integrations"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("integrations", "id", "kind", "display_name", "api_base", "error", "created_at", "synced")+" ORDER BY id", func(m map[string]any) {
		id := parser.SQLText(m["id"])
		r.integ[id] = parser.SQLText(m["display_name"])
		e := timeline.Event{TurnType: timeline.System, SourceLine: rowid(m), RecordID: "integration-" + id}
		stamp(&e, parser.SQLText(m["created_at"]))
		e.Text = fmt.Sprintf("source host integration: kind=%s name=%s api_base=%s synced=%s", parser.SQLText(m["kind"]), parser.SQLText(m["display_name"]), parser.SQLText(m["api_base"]), boolText(m["synced"]))
		if x := parser.SQLText(m["error"]); x != "" {
			e.Text += " error=" + x
		}
		r.emit(e)
	})
}

func (r *dbReader) repositories() error {
	if !r.tables["provided_repositories"] {
		return nil
	}
	return parser.EachRow(r.ctx, r.db, r.sel("provided_repositories", "id", "integration_id", "name", "git_url", "active", "created_at")+" ORDER BY id", func(m map[string]any) {
		id := parser.SQLText(m["id"])
		e := timeline.Event{TurnType: timeline.System, SourceLine: rowid(m), RecordID: "provided-repository-" + id}
		stamp(&e, parser.SQLText(m["created_at"]))
		e.Text = fmt.Sprintf("provided repository: %s %s active=%s (integration %s)", parser.SQLText(m["name"]), parser.SQLText(m["git_url"]), boolText(m["active"]), r.integ[parser.SQLText(m["integration_id"])])
		r.emit(e)
	})
}

// eventRows renders one Event (crates/tabby-common/src/api/event.rs,
// externally tagged, snake_case) as rows; the same rendering serves
// user_events payloads and the event log, so their rows pair.
func eventRows(ev map[string]json.RawMessage, base timeline.Event, emit func(timeline.Event)) int {
	kinds := make([]string, 0, len(ev))
	for k := range ev {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	n := 0
	for _, kind := range kinds {
		var f struct {
			CompletionID string `json:"completion_id"`
			ChoiceIndex  *int   `json:"choice_index"`
			ViewID       string `json:"view_id"`
			Elapsed      *int   `json:"elapsed"`
			Kind         string `json:"kind"`
			Language     string `json:"language"`
			Prompt       string `json:"prompt"`
			Segments     *struct {
				Filepath string `json:"filepath"`
				GitURL   string `json:"git_url"`
			} `json:"segments"`
			Choices []struct {
				Index int    `json:"index"`
				Text  string `json:"text"`
			} `json:"choices"`
			UserAgent string `json:"user_agent"`
		}
		if json.Unmarshal(ev[kind], &f) != nil {
			continue
		}
		e := base
		e.TurnType = timeline.System
		switch kind {
		case "view", "select", "dismiss":
			e.Text = fmt.Sprintf("completion %s %s", f.CompletionID, kind)
			if f.ChoiceIndex != nil {
				e.Text += fmt.Sprintf(" choice=%d", *f.ChoiceIndex)
			}
			if f.Kind != "" {
				e.Text += " kind=" + f.Kind
			}
			if f.Elapsed != nil {
				e.Text += fmt.Sprintf(" elapsed=%dms", *f.Elapsed)
			}
			e.RecordID = f.CompletionID + "#" + kind
			emit(e)
			n++
		case "completion":
			e.Text = fmt.Sprintf("completion request %s language=%s", f.CompletionID, f.Language)
			if f.Segments != nil {
				if f.Segments.Filepath != "" {
					e.Text += " file=" + f.Segments.Filepath
				}
				if f.Segments.GitURL != "" {
					e.ProjectPath = f.Segments.GitURL
				}
			}
			if f.UserAgent != "" {
				e.Text += " client=" + f.UserAgent
			}
			e.Text += "\n" + f.Prompt
			e.RecordID = f.CompletionID + "#request"
			emit(e)
			n++
			for _, c := range f.Choices {
				x := e
				x.TurnType, x.Text, x.RecordID = timeline.Assistant, c.Text, fmt.Sprintf("%s#%d", f.CompletionID, c.Index)
				emit(x)
			}
		case "chat_completion":
			e.Text, e.RecordID = "chat completion", ""
			emit(e)
			n++
		}
	}
	return n
}
