package hermes

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// localSources are session sources that are not a messaging platform:
// a session of any other source (telegram, discord, slack, whatsapp,
// signal, email, ...) was relayed through that platform.
var localSources = map[string]bool{"cli": true, "tui": true, "acp": true, "api": true, "api_server": true, "cron": true, "desktop": true, "dashboard": true, "web": true, "tool": true, "batch": true, "subagent": true, "delegate": true, "local": true, "serve": true}

type sessInfo struct {
	model, cwd, parent string
	inactive           int
	lastInactive       timeline.Event
	rewinds            string
}

// parseStateDB reads state.db (hermes_state.py SessionDB, SCHEMA_SQL in
// hermes_state_common.py), columns by name so older schema versions read
// too. A quick snapshot (state-snapshots/<id>/state.db) is read the same
// way with every row secondary.
func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	if empty, err := parser.EmptyStore(ctx, db, stateStore.Name, out); err != nil || empty {
		return err
	}
	tables, err := parser.Tables(ctx, db)
	if err != nil {
		return err
	}
	if !tables["sessions"] || !tables["messages"] {
		out.Problem(0, "no sessions and messages tables: not a Hermes state database")
		return nil
	}
	readable, err := parser.CheckStore(ctx, db, stateStore, out)
	if err != nil {
		return err
	}
	p := slash(in.Path)
	snapshot := ""
	if d := path.Dir(p); path.Base(path.Dir(d)) == "state-snapshots" {
		snapshot = path.Base(d)
	}
	sec := snapshot != ""
	if sec {
		e := parser.SettingEvent(&in.File)
		e.Text, e.Secondary = "state snapshot "+snapshot+": a quick copy of state.db, read as a secondary source (file mtime)", true
		out.Event(e)
	}
	sessions := map[string]*sessInfo{}
	readSessions := func() error {
		return parser.EachTableRow(ctx, db, "sessions", func(r parser.Row) error {
			id := r.Get("id")
			si := &sessInfo{model: r.Get("model"), cwd: r.Get("cwd"), parent: r.Get("parent_session_id"), rewinds: r.Get("rewind_count")}
			sessions[id] = si
			e := timeline.Event{SessionID: id, ProjectPath: si.cwd, TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "session:" + id, ParentSessionID: si.parent, Secondary: sec}
			setUnix(&e, r.Vals["started_at"])
			src := r.Get("source")
			var parts []string
			if t := r.Get("title"); t != "" {
				parts = append(parts, "title: "+t)
			}
			parts = append(parts, "source "+src)
			if si.model != "" {
				parts = append(parts, "model "+si.model)
			}
			if si.cwd != "" {
				parts = append(parts, "cwd "+si.cwd)
			}
			if pr := r.Get("profile_name"); pr != "" {
				parts = append(parts, "profile "+pr)
			}
			st := timeline.SessionState{Key: timeline.SessionKey{Agent: agentName, SessionID: id}, Relayed: "no", ParentSessionID: si.parent}
			if !localSources[src] && src != "" {
				st.Relayed = "yes"
				who := r.Get("display_name")
				if who == "" {
					who = r.Get("user_id")
				}
				parts = append(parts, fmt.Sprintf("relayed through %s chat %s (%s %s)", src, r.Get("chat_id"), r.Get("chat_type"), who))
			}
			var mc map[string]any
			_ = json.Unmarshal([]byte(r.Get("model_config")), &mc)
			switch {
			case si.parent == "":
			case mc["_branched_from"] != nil:
				st.ForkedFrom = fmt.Sprint(mc["_branched_from"])
				parts = append(parts, "branched from "+st.ForkedFrom)
			case mc["_delegate_from"] != nil:
				parts = append(parts, "subagent "+id+" of "+si.parent)
			case mc["_reset_from"] != nil:
				parts = append(parts, "reset from "+si.parent)
			default:
				parts = append(parts, "continues "+si.parent+" (compression or subagent)")
			}
			if r.Get("archived") == "1" {
				parts = append(parts, "archived")
			}
			if r.Get("hidden") == "1" {
				parts = append(parts, "hidden")
			}
			e.Text = "session: " + strings.Join(parts, "; ")
			out.Event(e)
			out.Session(st)
			if _, ok := unixTime(r.Vals["ended_at"]); ok {
				end := e
				setUnix(&end, r.Vals["ended_at"])
				end.RecordID, end.Text = "session:"+id+"#end", "session ended: "+r.Get("end_reason")
				out.Event(end)
			}
			return nil
		})
	}
	names := map[string]string{}
	readMessages := func() error {
		return parser.EachTableRow(ctx, db, "messages", func(r parser.Row) error {
			sid := r.Get("session_id")
			si := sessions[sid]
			if si == nil {
				si = &sessInfo{}
				sessions[sid] = si
				out.Report(r.Rowid, parser.KindOrphanRecord, "message of session "+parser.Shown(sid)+" whose sessions row is gone: its rows are kept")
			}
			id := strconv.FormatInt(r.Rowid, 10)
			base := timeline.Event{SessionID: sid, ProjectPath: si.cwd, ParentSessionID: si.parent, SourceLine: r.Rowid, Secondary: sec}
			setUnix(&base, r.Vals["timestamp"])
			mark := ""
			if r.Has("active") && r.Get("active") == "0" {
				mark = "[rewound] "
				if r.Get("compacted") == "1" {
					mark = "[compacted] "
				}
			}
			n := 0
			emit := func(tt timeline.TurnType, text, rec string) timeline.Event {
				e := base
				e.TurnType, e.Text, e.RecordID = tt, mark+text, rec
				if tt == timeline.Assistant || tt == timeline.Thinking || tt == timeline.ToolUse {
					e.Model = si.model
				}
				n++
				return e
			}
			content := r.Get("content")
			role := r.Get("role")
			hidden := r.Get("display_kind") == "hidden"
			switch {
			case role == "user" && !hidden:
				out.Event(emit(timeline.User, content, "msg:"+id))
			case role == "assistant":
				th := r.Get("reasoning_content")
				if th == "" {
					th = r.Get("reasoning")
				}
				if strings.TrimSpace(th) != "" {
					out.Event(emit(timeline.Thinking, th, "msg:"+id+"#reasoning"))
				}
				if strings.TrimSpace(content) != "" {
					out.Event(emit(timeline.Assistant, content, "msg:"+id))
				}
				var calls []toolCall
				if tc := r.Get("tool_calls"); tc != "" {
					if err := json.Unmarshal([]byte(tc), &calls); err != nil {
						out.Report(r.Rowid, parser.KindParse, "tool_calls not readable: "+parser.JSONError(err))
					}
				}
				for k, c := range calls {
					args := argsJSON(c.Function.Arguments)
					e := emit(timeline.ToolUse, callText(c.Function.Name, args), "")
					e.ToolName, e.ToolUseID, e.ToolInput = c.Function.Name, c.ID, args
					e.RecordID = c.ID
					if c.ID == "" {
						e.RecordID = fmt.Sprintf("msg:%s#call%d", id, k)
					}
					names[c.ID] = c.Function.Name
					out.Event(e)
				}
			case role == "tool":
				e := emit(timeline.ToolResult, content, "msg:"+id)
				e.ToolUseID = r.Get("tool_call_id")
				e.ToolName = r.Get("tool_name")
				if e.ToolName == "" {
					e.ToolName = names[e.ToolUseID]
				}
				if e.ToolUseID != "" {
					e.RecordID = e.ToolUseID + "#output"
				}
				e.IsError = "false"
				out.Event(e)
			default:
				label := role
				if hidden {
					label += " (hidden context)"
				}
				out.Event(emit(timeline.System, label+": "+content, "msg:"+id))
			}
			if n == 0 {
				out.Skip(r.Rowid, "no_evidence:empty_"+role)
			}
			if mark != "" {
				si.inactive++
				si.lastInactive = base
			}
			return nil
		})
	}
	err = parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "sessions", Read: readSessions},
		parser.TableRead{Table: "messages", Read: readMessages})
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(sessions))
	for sid := range sessions {
		ids = append(ids, sid)
	}
	sort.Strings(ids)
	for _, sid := range ids {
		si := sessions[sid]
		if si.inactive == 0 {
			continue
		}
		e := si.lastInactive
		e.TurnType, e.RecordID, e.Model = timeline.System, "session:"+sid+"#rewound", ""
		e.Text = fmt.Sprintf("rewound or compacted: %d record(s) are no longer active (kept above with their mark)", si.inactive)
		if si.rewinds != "" && si.rewinds != "0" {
			e.Text += "; session rewind_count " + si.rewinds
		}
		out.Event(e)
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "session_model_usage", Read: func() error { return modelUsage(ctx, db, out, sec) }},
		parser.TableRead{Table: "state_meta", Read: func() error { return stateMeta(ctx, db, out, sec) }},
		parser.TableRead{Table: "conversation_generations", Read: func() error {
			return parser.EachTableRow(ctx, db, "conversation_generations", func(r parser.Row) error {
				out.Event(timeline.Event{TurnType: timeline.System, TimeBasis: timeline.TimeNone, SourceLine: r.Rowid, Secondary: sec,
					Text: fmt.Sprintf("conversation generation %s on %s %s (a counter never reset, even when the sessions behind it are deleted)", r.Get("generation"), r.Get("source"), r.Get("session_key"))})
				return nil
			})
		}})
}

// stateSchema is what parseStateDB requires of each table it reads
// (hermes_state_common.py SCHEMA_SQL): the columns a row cannot be read
// without. Every other column is read by name when present, so older
// schema versions (state_old.sql) read too.
// stateStore is state.db: sessions and messages in every version (checked
// above); the other three tables come with later releases.
var stateStore = parser.SQLiteStore{Name: "a Hermes state", Tables: parser.SQLiteSchema{
	"sessions":                 {"id"},
	"messages":                 {"session_id", "role", "content"},
	"session_model_usage":      {"session_id", "model"},
	"state_meta":               {"key", "value"},
	"conversation_generations": {"generation"},
}, Optional: map[string]string{
	"session_model_usage":      "releases before per-model usage",
	"state_meta":               "releases before the state_meta table",
	"conversation_generations": "releases before conversation generations",
}}

func modelUsage(ctx context.Context, db *sql.DB, out parser.Sink, sec bool) error {
	return parser.EachTableRow(ctx, db, "session_model_usage", func(r parser.Row) error {
		e := timeline.Event{SessionID: r.Get("session_id"), TurnType: timeline.System, SourceLine: r.Rowid, Secondary: sec, Model: r.Get("model")}
		setUnix(&e, r.Vals["first_seen"])
		prov := r.Get("billing_provider")
		if t := r.Get("task"); t != "" {
			prov += ", task " + t
		}
		e.Text = fmt.Sprintf("model used: %s (%s): %s api call(s), %s input / %s output tokens, last seen %s", r.Get("model"), prov, r.Get("api_call_count"), r.Get("input_tokens"), r.Get("output_tokens"), lastSeen(r.Vals["last_seen"]))
		out.Event(e)
		return nil
	})
}

func lastSeen(v any) string {
	if t, ok := unixTime(v); ok {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return "not recorded"
}

// stateMeta reads the state_meta rows that are evidence: recurring
// heartbeats (heartbeat:<id>, JSON with the prompt) and deletion fences
// (keys naming a deletion); the other keys are index and migration
// bookkeeping (Skip "state_only").
func stateMeta(ctx context.Context, db *sql.DB, out parser.Sink, sec bool) error {
	return parser.EachTableRow(ctx, db, "state_meta", func(r parser.Row) error {
		key, val := r.Get("key"), r.Get("value")
		e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, Secondary: sec, TimeBasis: timeline.TimeNone}
		switch {
		case strings.HasPrefix(key, "heartbeat:"):
			var hb map[string]any
			_ = json.Unmarshal([]byte(val), &hb)
			if t, ok := unixTime(hb["created_at"]); ok {
				e.Time, e.TimeBasis = t, timeline.TimeRecorded
			}
			e.Text = fmt.Sprintf("heartbeat %s: status %v, every %v s, fired %v time(s), prompt: %v", strings.TrimPrefix(key, "heartbeat:"), hb["status"], hb["interval_seconds"], hb["fire_count"], hb["prompt"])
		case strings.Contains(strings.ToLower(key), "delet"):
			e.Text = "deletion fence: " + key + " = " + parser.RedactSecrets(val)
		default:
			out.Skip(r.Rowid, "state_only")
			return nil
		}
		out.Event(e)
		return nil
	})
}
