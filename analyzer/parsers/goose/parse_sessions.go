package goose

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type dbSession struct {
	id, workdir, model string
	modelShown, sub    bool
}

func parseSessionsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	sessions := map[string]*dbSession{}
	if ok, err := parser.HasTable(ctx, db, "sessions"); err != nil {
		return err
	} else if ok {
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM sessions ORDER BY rowid", func(m map[string]any) {
			s := &dbSession{id: parser.SQLText(m["id"]), workdir: parser.SQLText(m["working_dir"])}
			var mc struct {
				ModelName string `json:"model_name"`
			}
			_ = json.Unmarshal([]byte(parser.SQLText(m["model_config_json"])), &mc)
			s.model = mc.ModelName
			s.sub = parser.SQLText(m["parent_session_id"]) != "" || parser.SQLText(m["session_type"]) == "sub_agent"
			if p := parser.SQLText(m["provider_name"]); p != "" && s.model != "" {
				s.model = p + "/" + s.model
			}
			sessions[s.id] = s
			sessionRows(m, s, out)
		})
		if err != nil {
			return fmt.Errorf("read sessions in %s: %w", in.Path, err)
		}
	}
	if ok, err := parser.HasTable(ctx, db, "messages"); err != nil {
		return err
	} else if ok {
		q := "SELECT rowid AS rowid_, * FROM messages ORDER BY session_id, created_timestamp, rowid"
		err := parser.EachRow(ctx, db, q, func(m map[string]any) {
			rowid := num(m["rowid_"])
			sid := parser.SQLText(m["session_id"])
			s := sessions[sid]
			if s == nil {
				s = &dbSession{id: sid}
				sessions[sid] = s
			}
			msg := message{ID: parser.SQLText(m["message_id"]), Role: parser.SQLText(m["role"]), Created: num(m["created_timestamp"])}
			if err := json.Unmarshal([]byte(parser.SQLText(m["content_json"])), &msg.Content); err != nil {
				out.Problem(rowid, "content_json is not a JSON array: "+err.Error())
				return
			}
			if md := parser.SQLText(m["metadata_json"]); md != "" {
				msg.Metadata = &metadata{}
				_ = json.Unmarshal([]byte(md), msg.Metadata)
			}
			base := timeline.Event{SessionID: sid, ProjectPath: s.workdir, SourceLine: rowid}
			if t, ok := epoch(msg.Created); ok {
				base.Time = t
			} else {
				base.TimeBasis = timeline.TimeNone
			}
			if msg.Role == "assistant" && s.model != "" && !s.modelShown {
				e := base
				e.TurnType, e.Text = timeline.System, "model: "+s.model
				out.Event(e)
				s.modelShown = true
			}
			emitMessage(out, base, &msg, s.model, rowid, s.sub)
		})
		if err != nil {
			return fmt.Errorf("read messages in %s: %w", in.Path, err)
		}
	}
	return legacyFiles(ctx, in, out, sessions)
}

// sessionRows gives the rows and state of one sessions row.
func sessionRows(m map[string]any, s *dbSession, out parser.Sink) {
	base := timeline.Event{SessionID: s.id, ProjectPath: s.workdir, SourceLine: num(m["rowid_"]), TurnType: timeline.System}
	if t, ok := timeOf(m["created_at"]); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	name := parser.SQLText(m["name"])
	if name == "" {
		name = parser.SQLText(m["description"])
	}
	if name != "" {
		e := base
		e.Text = "session name: " + name
		out.Event(e)
	}
	typ := parser.SQLText(m["session_type"])
	if typ != "" && typ != "user" || parser.SQLText(m["schedule_id"]) != "" {
		e := base
		e.Text = "session type: " + typ
		if typ == "" {
			e.Text += "user"
		}
		if sid := parser.SQLText(m["schedule_id"]); sid != "" {
			e.Text += " schedule_id=" + sid
		}
		out.Event(e)
	}
	if p := parser.SQLText(m["parent_session_id"]); p != "" {
		e := base
		e.Text = "subagent " + s.id + " of " + p
		out.Event(e)
	}
	if mode := parser.SQLText(m["goose_mode"]); mode != "" {
		e := base
		e.Text = "permission mode: " + mode
		out.Event(e)
	}
	if at, ok := timeOf(m["archived_at"]); ok {
		e := base
		e.Time, e.TimeBasis, e.Text = at, timeline.TimeRecorded, "session archived"
		out.Event(e)
	}
	relayed := "no"
	if typ == "gateway" {
		relayed = "yes"
	}
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: s.id}, Relayed: relayed})
}

// legacyFiles parses the legacy sessions/<id>.jsonl files collected beside
// sessions.db whose id the database does not hold: goose imports them once
// when it creates the database, so a file whose id is in the database
// repeats it and is skipped (the database copy is primary), while a file
// the database lacks (a session deleted after the import, or never
// imported) is the only record and is read in full.
func legacyFiles(ctx context.Context, in *parser.Input, out parser.Sink, sessions map[string]*dbSession) error {
	dir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	files := in.List(parser.GlobEscape(dir) + "/*.jsonl")
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		id := strings.TrimSuffix(path.Base(f.Path), ".jsonl")
		if _, ok := sessions[id]; ok {
			continue
		}
		rc, err := in.OpenRelated(f.Path)
		if err != nil {
			out.Problem(0, "open "+path.Base(f.Path)+": "+err.Error())
			continue
		}
		err = readJSONL(ctx, rc, f.Path, id, prefixSink{out, path.Base(f.Path) + ": "})
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// prefixSink names the legacy file in problems reported against the
// database input.
type prefixSink struct {
	parser.Sink
	prefix string
}

func (p prefixSink) Problem(line int64, msg string) { p.Sink.Problem(line, p.prefix+msg) }

// parseSessionJSONL reads a legacy session file on its own when no
// sessions.db was collected beside it (otherwise goose/sessions-db reads
// it, or skips it when the database holds the same session).
func parseSessionJSONL(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	if len(in.List(parser.GlobEscape(path.Dir(p)+"/sessions.db"))) > 0 {
		return nil
	}
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	return readJSONL(ctx, rc, "", strings.TrimSuffix(path.Base(p), ".jsonl"), out)
}

// readJSONL reads a legacy session file (session/legacy.rs): line 1 is the
// session metadata {working_dir, description, schedule_id, ...} (read as a
// message when it is one), then one Message per line. sourceFile is set on
// the rows when the file is not the parser's input.
func readJSONL(ctx context.Context, r io.Reader, sourceFile, id string, out parser.Sink) error {
	var workdir string
	// The metadata line has no time: its rows take the first message's.
	var pending []timeline.Event
	defer func() {
		for _, p := range pending {
			out.Event(p)
		}
	}()
	return parser.Lines(ctx, r, out, func(n int64, line []byte) error {
		objs, lost := parser.SplitGlued(line)
		if lost {
			if len(objs) == 0 {
				out.Problem(n, "not a JSON record (cut short?): skipped")
				return nil
			}
			out.Problem(n, "cut record with the next record glued on: the cut part is skipped")
		}
		for _, o := range objs {
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(o, &probe); err != nil {
				out.Problem(n, "not a JSON object: skipped")
				continue
			}
			_, hasRole := probe["role"]
			if !hasRole {
				if n == 1 {
					var meta struct {
						WorkingDir  string `json:"working_dir"`
						Description string `json:"description"`
						ScheduleID  string `json:"schedule_id"`
					}
					_ = json.Unmarshal(o, &meta)
					workdir = meta.WorkingDir
					e := timeline.Event{SessionID: id, ProjectPath: workdir, SourceFile: sourceFile, SourceLine: n, TurnType: timeline.System, TimeBasis: timeline.TimeNone}
					if meta.Description != "" {
						e.Text = "session name: " + meta.Description
						pending = append(pending, e)
					}
					if meta.ScheduleID != "" {
						e.Text = "session type: scheduled schedule_id=" + meta.ScheduleID
						pending = append(pending, e)
					}
					continue
				}
				out.Problem(n, "record without a role: skipped")
				continue
			}
			var msg message
			if err := json.Unmarshal(o, &msg); err != nil {
				out.Problem(n, "not a goose message: "+err.Error())
				continue
			}
			base := timeline.Event{SessionID: id, ProjectPath: workdir, SourceFile: sourceFile, SourceLine: n}
			if t, ok := epoch(msg.Created); ok {
				base.Time = t
			} else {
				base.TimeBasis = timeline.TimeNone
			}
			for _, p := range pending {
				if !base.Time.IsZero() {
					p.Time, p.TimeBasis = base.Time, timeline.TimeInherited
				}
				out.Event(p)
			}
			pending = nil
			emitMessage(out, base, &msg, "", n, false)
		}
		return nil
	})
}

// timeOf reads a TIMESTAMP column, which the driver may hand over as a
// time.Time or as text.
func timeOf(v any) (time.Time, bool) {
	if t, ok := v.(time.Time); ok {
		if t.IsZero() {
			return t, false
		}
		return t.UTC(), true
	}
	return sqlTime(parser.SQLText(v))
}

// num is parser.SQLInt, 0 when the value is no integer.
func num(v any) int64 { n, _ := parser.SQLInt(v); return n }
