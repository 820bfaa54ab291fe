package cline

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseSessionsDB reads db/sessions.db: every row of the sessions table
// (the SDK's store of record for the session list) gives the same rows as
// the session's record file, with the same record ids, so a session whose
// folder is gone still has them. SourceLine is the rowid.
func parseSessionsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, sessionsStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "sessions", Read: func() error { return readSessionsTable(ctx, db, out) }})
}

// The SDK's SQLite stores (the one SQLite policy, parser.CheckStore), each
// the one table its parser reads with the columns a row cannot be read
// without (the others are read by name when present), as the real
// stores of fixtures/roots/real-agents-3 have them. A store without its
// table, or a table lacking a column, is one problem row naming it.
var (
	sessionsStore = parser.SQLiteStore{Name: "a Cline SDK sessions", Tables: parser.SQLiteSchema{
		"sessions": {"session_id"},
	}}
	searchStore = parser.SQLiteStore{Name: "a Cline SDK session-search", Tables: parser.SQLiteSchema{
		"session_search": {"session_id", "ordinal", "content"},
	}}
	hubStore = parser.SQLiteStore{Name: "a Cline hub events", Tables: parser.SQLiteSchema{
		"hub_events": {"event", "envelope_json"},
	}}
)

func readSessionsTable(ctx context.Context, db *sql.DB, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "sessions", func(r parser.Row) error {
		s := sdkSession{SessionID: r.Get("session_id"), Source: r.Get("source"), StartedAt: r.Get("started_at"),
			EndedAt: r.Get("ended_at"), Status: r.Get("status"), Provider: r.Get("provider"), Model: r.Get("model"),
			Cwd: r.Get("cwd"), WorkspaceRoot: r.Get("workspace_root"), ParentSessionID: r.Get("parent_session_id"),
			ParentAgentID: r.Get("parent_agent_id"), AgentID: r.Get("agent_id"), Prompt: r.Get("prompt"),
			IsSubagent: r.Get("is_subagent") == "1"}
		if s.SessionID == "" {
			out.Report(r.Rowid, parser.KindSkippedRecord, "sessions row without session_id")
			return nil
		}
		if v, err := strconv.ParseFloat(r.Get("pid"), 64); err == nil {
			s.PID = num(v)
		}
		if v, err := strconv.ParseFloat(r.Get("exit_code"), 64); err == nil {
			n := num(v)
			s.ExitCode = &n
		}
		if v := r.Get("interactive"); v != "" {
			b := v == "1" || v == "true"
			s.Interactive = &b
		}
		if m := strings.TrimSpace(r.Get("metadata_json")); m != "" {
			s.Metadata = json.RawMessage(m)
		}
		sdkSessionRows(out, s, r.Rowid)
		return nil
	})
}

// parseSessionSearchDB reads db/session-search.db, the hub's full-text
// index (secondary, no time of its own). Each session's metadata document
// gives "session indexed: <title>" at the session's start and its prompt
// (the same record id as the session record's prompt row); each message
// document, when the session's messages file is not collected or holds
// fewer messages than the index (deleted, rewritten), gives one undated
// row: the typed prompt of a user document, else "indexed <role> message
// <n>: <content>" (the SDK flattens every string of the message, one a
// line). A message document the collected transcript still holds is
// accounted as a copy.
func parseSessionSearchDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	dataDir := path.Dir(path.Dir(slash(in.Path))) // .../.cline/data
	counts := map[string]int64{}
	prompts := map[string]string{} // session -> its metadata document's prompt
	count := func(session string) int64 {
		if n, ok := counts[session]; ok {
			return n
		}
		root, agent := session, ""
		if i := strings.Index(session, "__"); i > 0 {
			root, agent = session[:i], session[i+2:]
		}
		name := root
		if agent != "" {
			name = agent
		}
		n := int64(-1)
		if rc, err := in.OpenRelated(dataDir + "/sessions/" + root + "/" + name + ".messages.json"); err == nil {
			m, _ := streamObject(ctx, rc, "messages", func(string, jsontext.Value) {}, func(int64, json.RawMessage) {})
			rc.Close()
			n = m
		}
		counts[session] = n
		return n
	}
	readable, err := parser.CheckStore(ctx, db, searchStore, out)
	if err != nil {
		return err
	}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "session_search", Read: func() error {
		return readSearchTable(ctx, db, dataDir, count, prompts, out)
	}})
}

func readSearchTable(ctx context.Context, db *sql.DB, dataDir string, count func(string) int64, prompts map[string]string, out parser.Sink) error {
	return parser.EachTableRow(ctx, db, "session_search", func(r parser.Row) error {
		sid := r.Get("session_id")
		ord, err := strconv.ParseInt(r.Get("ordinal"), 10, 64)
		if sid == "" || err != nil {
			out.Report(r.Rowid, parser.KindSkippedRecord, "session_search row without session_id or ordinal")
			return nil
		}
		parent := ""
		if i := strings.Index(sid, "__"); i > 0 {
			parent = sid[:i]
		}
		ev := timeline.Event{Agent: Agent, SessionID: sid, ParentSessionID: parent, ProjectPath: r.Get("workspace_root"),
			SourceLine: r.Rowid, Secondary: true, TimeBasis: timeline.TimeNone}
		content := r.Get("content")
		if ord < 0 {
			start := isoTime(r.Get("started_at"))
			ev.Time, ev.TimeBasis = start, timeline.TimeRecorded
			if start.IsZero() {
				ev.TimeBasis = timeline.TimeNone
			}
			sys := ev
			sys.TurnType, sys.Text, sys.RecordID = timeline.System, "session indexed: "+r.Get("title"), sid+"#indexed"
			out.Event(sys)
			if p := strings.TrimSpace(content); p != "" {
				if typed, _, _, ok := unwrapUserInput(p); ok {
					p = typed
				}
				prompts[sid] = p
				u := ev
				u.TurnType, u.Text, u.RecordID = timeline.User, p, sid+"#prompt"
				if parent != "" {
					u.TurnType, u.Text = timeline.System, "subagent task: "+p
				}
				out.Event(u)
			}
			return nil
		}
		if n := count(sid); n > ord {
			out.Skip(r.Rowid, "copy_of_transcript")
			return nil
		}
		role := r.Get("role")
		body := strings.TrimPrefix(content, "text\n")
		if typed, _, _, ok := unwrapUserInput(body); ok && role == "user" && strings.HasPrefix(content, "text\n") {
			if typed == prompts[sid] {
				out.Skip(r.Rowid, "same_as_indexed_prompt")
				return nil
			}
			ev.TurnType, ev.Text = timeline.User, typed
		} else {
			ev.TurnType, ev.Text = timeline.System, fmt.Sprintf("indexed %s message %d: %s", role, ord, content)
		}
		out.Event(ev)
		return nil
	})
}

// hubEnvelope is one row of the hub's event log (hub_events.envelope_json).
type hubEnvelope struct {
	Event     string `json:"event"`
	SessionID string `json:"sessionId"`
	Timestamp num    `json:"timestamp"`
	Payload   struct {
		ToolCallID string          `json:"toolCallId"`
		ToolName   string          `json:"toolName"`
		Input      json.RawMessage `json:"input"`
		Output     json.RawMessage `json:"output"`
		Error      string          `json:"error"`
		Reason     string          `json:"reason"`
		Result     struct {
			Messages []json.RawMessage `json:"messages"`
		} `json:"result"`
		Session struct {
			Cwd           string `json:"cwd"`
			WorkspaceRoot string `json:"workspaceRoot"`
		} `json:"session"`
	} `json:"payload"`
}

// parseHubEventsDB reads db/hub-events-<hub>.db, the hub daemon's event
// log (secondary: a mirror of what the session files hold). Each
// run.completed event carries the run's messages with their ids: they give
// the same rows, with the same record ids, as the messages file (the
// engine keeps the file's), so a deleted session's runs stay. tool.started
// and tool.finished give a tool_use and a tool_result row when no
// run.completed event holds that call (a run the hub never finished); a
// run.failed, run.aborted or run.cancelled event gives "hub <event>:
// <reason>". Every other event (streaming deltas, capability calls, usage,
// session snapshots) is accounted as the hub's own bookkeeping.
func parseHubEventsDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, hubStore, out)
	if err != nil {
		return err
	}
	// The calls that a run.completed event holds (a first pass), then
	// every event.
	inRun := map[string]bool{}
	return parser.ReadTables(ctx, out, readable, parser.TableRead{Table: "hub_events", Read: func() error {
		err := parser.EachRow(ctx, db, `SELECT envelope_json FROM hub_events WHERE event = 'run.completed'`, func(m map[string]any) {
			var env hubEnvelope
			if json.Unmarshal([]byte(parser.SQLText(m["envelope_json"])), &env) != nil {
				return
			}
			for _, raw := range env.Payload.Result.Messages {
				var msg struct {
					Content []sdkBlock `json:"content"`
				}
				_ = json.Unmarshal(raw, &msg)
				for _, b := range msg.Content {
					if b.ID != "" {
						inRun[env.SessionID+"\x00"+b.ID] = true
					}
					if b.ToolUseID != "" {
						inRun[env.SessionID+"\x00"+b.ToolUseID] = true
					}
				}
			}
		})
		if err != nil {
			return err
		}
		return readHubEvents(ctx, db, inRun, out)
	}})
}

func readHubEvents(ctx context.Context, db *sql.DB, inRun map[string]bool, out parser.Sink) error {
	emitters := map[string]*sdkEmitter{}
	projects := map[string]string{}
	spawning := map[string]int{} // open spawn_agent calls per session
	return parser.EachTableRow(ctx, db, "hub_events", func(r parser.Row) error {
		var env hubEnvelope
		if err := json.Unmarshal([]byte(r.Get("envelope_json")), &env); err != nil {
			out.Problem(r.Rowid, parser.NotJSON("hub event envelope", err))
			return nil
		}
		sid := firstNonEmpty(env.SessionID, r.Get("session_id"))
		event := firstNonEmpty(env.Event, r.Get("event"))
		t := msTime(float64(env.Timestamp))
		if p := firstNonEmpty(env.Payload.Session.Cwd, env.Payload.Session.WorkspaceRoot); p != "" && sid != "" {
			projects[sid] = p
		}
		base := timeline.Event{Time: t, Agent: Agent, SessionID: sid, ProjectPath: projects[sid], SourceLine: r.Rowid, Secondary: true}
		if t.IsZero() {
			base.TimeBasis = timeline.TimeNone
		}
		switch event {
		case "run.completed":
			if len(env.Payload.Result.Messages) == 0 {
				out.Skip(r.Rowid, "hub_event:run.completed")
				return nil
			}
			e := emitters[sid]
			if e == nil {
				e = &sdkEmitter{out: out, session: sid, secondary: true, copyOnly: true, names: map[string]string{}}
				emitters[sid] = e
			}
			e.project = projects[sid]
			for _, m := range env.Payload.Result.Messages {
				e.message(r.Rowid, m)
			}
		case "tool.started", "tool.finished":
			p := env.Payload
			if p.ToolName == "spawn_agent" {
				if event == "tool.started" {
					spawning[sid]++
				} else if spawning[sid] > 0 {
					spawning[sid]--
				}
			} else if spawning[sid] > 0 {
				// A call made while a spawn_agent call is open is the
				// subagent's: the hub logs it under the parent's session;
				// the subagent's messages file and hooks.jsonl hold it
				// under its own.
				out.Skip(r.Rowid, "subagent_call")
				return nil
			}
			if inRun[sid+"\x00"+p.ToolCallID] {
				out.Skip(r.Rowid, "copy_in_run_completed")
				return nil
			}
			ev := base
			ev.ToolName, ev.ToolUseID = p.ToolName, p.ToolCallID
			if event == "tool.started" {
				ev.TurnType, ev.Text, ev.ToolInput = timeline.ToolUse, sdkToolText(p.ToolName, p.Input), parser.CompactJSON(p.Input)
			} else {
				ev.TurnType = timeline.ToolResult
				ev.Text = firstNonEmpty(p.Error, sdkResultText(p.Output))
				ev.IsError = strconv.FormatBool(p.Error != "" || sdkResultFailed(p.Output))
			}
			out.Event(ev)
		case "run.failed", "run.aborted", "run.cancelled", "agent.error":
			ev := base
			ev.Secondary = false // the event log is the only record of a run that failed
			ev.TurnType, ev.Text = timeline.System, "hub "+event+": "+firstNonEmpty(env.Payload.Reason, env.Payload.Error)
			out.Event(ev)
		default:
			out.Skip(r.Rowid, "hub_event:"+event)
		}
		return nil
	})
}
