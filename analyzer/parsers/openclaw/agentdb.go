package openclaw

import (
	"bytes"
	"context"
	"database/sql"
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// window is a session_windows row: one transcript (session id) of a
// session key.
type window struct {
	rowid                      int64
	sid, key, prev, reason     string
	scope, status, channel     string
	account, chatType, conv    string
	model, provider, harness   string
	parentKey, spawnedBy, name string
	created, ended             time.Time
}

// node is a session_nodes row: the session key's current transcript and
// its entry (settings, delivery route, overrides).
type node struct {
	rowid                        int64
	key, sid, parentKey, spawnBy string
	forkSID, label, display      string
	createdVia, actorType, actor string
	entry                        []byte
	updated, created, archived   time.Time
}

// agentDB is one openclaw-agent.sqlite being read.
type agentDB struct {
	in      *parser.Input
	out     parser.Sink
	db      *sql.DB
	windows map[string]*window // by session id
	nodes   []*node
	keySID  map[string]string          // session key -> session id
	ids     map[string]map[string]bool // session id -> transcript entry ids
	cwd     map[string]string          // session id -> header cwd
}

func parseAgentDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, agentStore, out)
	if err != nil {
		return err
	}
	a := &agentDB{in: in, out: out, db: db, windows: map[string]*window{}, keySID: map[string]string{},
		ids: map[string]map[string]bool{}, cwd: map[string]string{}}
	// The session keys and windows are loaded first (every later table
	// joins them); a table whose load fails is named there, once, and not
	// read again below.
	failed := map[string]bool{}
	load := func(table string, fn func(context.Context) error) parser.TableRead {
		return parser.TableRead{Table: table, Read: func() error {
			err := fn(ctx)
			if err != nil {
				failed[table] = true
			}
			return err
		}}
	}
	if err := parser.ReadTables(ctx, out, readable, load("session_nodes", a.loadNodes), load("session_windows", a.loadWindows)); err != nil {
		return err
	}
	rest := map[string]bool{}
	for t := range readable {
		rest[t] = !failed[t]
	}
	conv := map[string]string{}
	step := func(table string, fn func(context.Context) error) parser.TableRead {
		return parser.TableRead{Table: table, Read: func() error { return fn(ctx) }}
	}
	return parser.ReadTables(ctx, out, rest,
		step("transcript_events", a.transcripts),
		step("session_windows", a.windowRows),
		step("session_nodes", a.nodeRows),
		step("session_pending_inputs", a.pendingInputs),
		step("session_transcript_fts_content", a.searchIndex),
		step("conversations", func(ctx context.Context) error { return a.conversations(ctx, conv) }),
		step("session_conversations", func(ctx context.Context) error { return a.sessionConversations(ctx, conv) }),
		step("conversation_deliveries", a.deliveries),
		step("session_transcript_archives", a.archives),
		step("session_transcript_cold_archives", a.coldArchives),
		step("memory_session_tombstones", a.tombstones),
		step("trajectory_runtime_events", a.trajectory))
}

// agentStore is the tables parseAgentDB reads (all in the real 2026.9.6
// store of fixtures/roots/real-agents-4; no release is known to lack
// one), each with the columns that name its rows' session or record and
// those its queries select; the others are read by name when present.
var agentStore = parser.SQLiteStore{Name: "an OpenClaw agent", Tables: parser.SQLiteSchema{
	"session_nodes":                    {"session_key", "current_session_id"},
	"session_windows":                  {"session_id", "session_key"},
	"transcript_events":                {"session_id", "seq", "event_json"},
	"session_pending_inputs":           {"session_id", "input_id", "message_json"},
	"session_transcript_fts_content":   {"id", "c0", "c1", "c2", "c3", "c4"},
	"conversations":                    {"conversation_id"},
	"session_conversations":            {"session_id", "conversation_id"},
	"conversation_deliveries":          {"operation_id"},
	"session_transcript_archives":      {"session_id"},
	"session_transcript_cold_archives": {"session_id"},
	"memory_session_tombstones":        {"session_id"},
	"trajectory_runtime_events":        {"session_id", "event_json"},
}}

// parentOf is the parent session id of a subagent's session ("" when none
// or not in this database) and the parent's session key.
func (a *agentDB) parentOf(sid string) (psid, pkey string) {
	w := a.windows[sid]
	if w == nil {
		return "", ""
	}
	for _, k := range []string{w.parentKey, w.spawnedBy} {
		if k != "" {
			return a.keySID[k], k
		}
	}
	for _, n := range a.nodes {
		if n.sid == sid {
			for _, k := range []string{n.parentKey, n.spawnBy} {
				if k != "" {
					return a.keySID[k], k
				}
			}
		}
	}
	return "", ""
}

func (a *agentDB) loadNodes(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_nodes", func(r parser.Row) error {
		n := &node{rowid: r.Rowid, key: r.Get("session_key"), sid: r.Get("current_session_id"),
			parentKey: r.Get("parent_session_key"), spawnBy: r.Get("spawned_by"), forkSID: r.Get("fork_source_session_id"),
			label: r.Get("label"), display: r.Get("display_name"), createdVia: r.Get("created_via"),
			actorType: r.Get("created_actor_type"), actor: r.Get("created_actor_id"),
			entry: []byte(r.Get("entry_json")), updated: msTime(r.Vals["updated_at"]), created: msTime(r.Vals["created_at"]),
			archived: msTime(r.Vals["archived_at"])}
		a.nodes = append(a.nodes, n)
		if n.key != "" && n.sid != "" {
			a.keySID[n.key] = n.sid
		}
		return nil
	})
}

func (a *agentDB) loadWindows(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_windows", func(r parser.Row) error {
		w := &window{rowid: r.Rowid, sid: r.Get("session_id"), key: r.Get("session_key"), prev: r.Get("previous_session_id"),
			reason: r.Get("reason"), scope: r.Get("session_scope"), status: r.Get("status"), channel: r.Get("channel"),
			account: r.Get("account_id"), chatType: r.Get("chat_type"), conv: r.Get("primary_conversation_id"),
			model: r.Get("model"), provider: r.Get("model_provider"), harness: r.Get("agent_harness_id"),
			parentKey: r.Get("parent_session_key"), spawnedBy: r.Get("spawned_by"), name: r.Get("display_name"),
			created: msTime(r.Vals["created_at"]), ended: msTime(r.Vals["ended_at"])}
		a.windows[w.sid] = w
		if _, ok := a.keySID[w.key]; !ok && w.key != "" {
			a.keySID[w.key] = w.sid
		}
		return nil
	})
}

// transcripts reads transcript_events session by session in seq order,
// each row one pi session entry (event_json, or event_zstd compressed).
func (a *agentDB) transcripts(ctx context.Context) error {
	cols, err := parser.Columns(ctx, a.db, "transcript_events")
	if err != nil {
		return err
	}
	sel := "rowid AS rowid__, session_id, seq, event_json"
	if cols["event_zstd"] {
		sel += ", event_zstd"
	}
	var (
		cur string
		s   *pisession.Session
	)
	return parser.EachRow(ctx, a.db, "SELECT "+sel+" FROM transcript_events ORDER BY session_id, seq", func(m map[string]any) {
		rowid, _ := m["rowid__"].(int64)
		sid := parser.SQLText(m["session_id"])
		if s == nil || sid != cur {
			cur = sid
			psid, pkey := a.parentOf(sid)
			s = pisession.NewSession(a.in, rowSink{Sink: a.out, parent: psid}, sessionOptions(pkey))
			s.SetID(sid)
			a.ids[sid] = map[string]bool{}
		}
		raw := []byte(parser.SQLText(m["event_json"]))
		if len(raw) == 0 {
			z, _ := m["event_zstd"].([]byte)
			if len(z) == 0 {
				a.out.Problem(rowid, "transcript event with neither event_json nor event_zstd")
				return
			}
			var err error
			if raw, err = unzstd(z); err != nil {
				a.out.Problem(rowid, "event_zstd: "+err.Error())
				return
			}
		}
		var head struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Cwd  string `json:"cwd"`
		}
		if json.Unmarshal(raw, &head) == nil {
			if head.ID != "" {
				a.ids[sid][head.ID] = true
			}
			if head.Type == "session" && head.Cwd != "" {
				a.cwd[sid] = head.Cwd
			}
		}
		s.Entry(ctx, rowid, raw)
	})
}

// event is a system row of session sid (its project path from the
// transcript header) at t.
func (a *agentDB) event(sid string, t time.Time, text string, n int64, id string) timeline.Event {
	e := timeline.Event{SessionID: sid, ProjectPath: a.cwd[sid], TurnType: timeline.System, Text: text, SourceLine: n, RecordID: id}
	at(&e, t)
	if p, _ := a.parentOf(sid); p != "" {
		e.ParentSessionID = p
	}
	return e
}

// windowRows writes what a session window adds to its transcript: the
// subagent link, the session it follows (reset, rollover, fork), the
// channel it is relayed through and how it ended.
func (a *agentDB) windowRows(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_windows", func(r parser.Row) error {
		w := a.windows[r.Get("session_id")]
		if w == nil {
			return nil
		}
		rows := 0
		st := timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: w.sid}}
		if psid, pkey := a.parentOf(w.sid); pkey != "" {
			parent := psid
			if parent == "" {
				parent = pkey
			}
			e := a.event(w.sid, w.created, "subagent "+w.sid+" of "+parent+" (session key "+w.key+", parent key "+pkey+")", w.rowid, w.sid+"#subagent")
			e.ParentSessionID = parent
			a.out.Event(e)
			st.ParentSessionID = parent
			rows++
		}
		if w.prev != "" {
			a.out.Event(a.event(w.sid, w.created, "session "+w.sid+" follows "+w.prev+" (reason "+w.reason+", key "+w.key+")", w.rowid, w.sid+"#previous"))
			if w.reason == "fork" {
				st.ForkedFrom = w.prev
			}
			rows++
		}
		if w.channel != "" || w.account != "" || w.conv != "" || w.chatType != "" {
			a.out.Event(a.event(w.sid, w.created, "session relayed: channel="+w.channel+" account="+w.account+" chat="+w.chatType+" conversation="+w.conv+" scope="+w.scope, w.rowid, w.sid+"#relay"))
			st.Relayed = "yes"
			rows++
		}
		if w.status != "" || !w.ended.IsZero() {
			a.out.Event(a.event(w.sid, w.ended, "session ended: status="+w.status, w.rowid, w.sid+"#ended"))
			rows++
		}
		if st.ParentSessionID != "" || st.ForkedFrom != "" || st.Relayed != "" {
			a.out.Session(st)
		}
		if rows == 0 {
			a.out.Skip(w.rowid, "state_only")
		}
		return nil
	})
}

// sessionEntry is what is read of session_nodes.entry_json (OpenClaw's
// SessionEntry): the overrides, permission settings, delivery route and
// share grant. No other key is read.
type sessionEntry struct {
	ModelOverride       string          `json:"modelOverride"`
	ProviderOverride    string          `json:"providerOverride"`
	AuthProfileOverride string          `json:"authProfileOverride"`
	PermissionMode      string          `json:"permissionMode"`
	ExecHost            string          `json:"execHost"`
	ExecNode            string          `json:"execNode"`
	ExecCwd             string          `json:"execCwd"`
	ExecSecurity        string          `json:"execSecurity"`
	ExecAsk             string          `json:"execAsk"`
	ElevatedLevel       string          `json:"elevatedLevel"`
	SendPolicy          json.RawMessage `json:"sendPolicy"`
	ExecApprovals       json.RawMessage `json:"execApprovals"`
	Permissions         json.RawMessage `json:"permissions"`
	DeliveryContext     json.RawMessage `json:"deliveryContext"`
	LastChannel         string          `json:"lastChannel"`
	LastTo              string          `json:"lastTo"`
	LastAccountID       string          `json:"lastAccountId"`
	PublicShare         json.RawMessage `json:"publicShare"`
	ArchivedAt          json.Number     `json:"archivedAt"`
}

func rawSet(r json.RawMessage) bool {
	t := strings.TrimSpace(string(r))
	return t != "" && t != "null" && t != "{}" && t != "[]"
}

// nodeRows writes the standing settings a session node records: model and
// auth overrides, permission settings, the delivery route, a public share
// grant (never its token), the archive marker, the label.
func (a *agentDB) nodeRows(ctx context.Context) error {
	for _, n := range a.nodes {
		if err := ctx.Err(); err != nil {
			return err
		}
		var e sessionEntry
		if len(n.entry) > 0 {
			if err := json.Unmarshal(n.entry, &e); err != nil {
				a.out.Problem(n.rowid, "session_nodes.entry_json: "+parser.JSONError(err))
				continue
			}
		}
		rows := 0
		emit := func(word, text string, t time.Time) {
			if t.IsZero() {
				t = n.updated
			}
			a.out.Event(a.event(n.sid, t, text+" (session "+n.key+")", n.rowid, n.key+"#"+word))
			rows++
		}
		if n.createdVia != "" || n.actorType != "" {
			emit("created", "session created via "+n.createdVia+" by "+n.actorType+" "+n.actor, n.created)
		}
		if e.ModelOverride != "" || e.ProviderOverride != "" {
			emit("model-override", "model override: "+e.ProviderOverride+"/"+e.ModelOverride, time.Time{})
		}
		if e.AuthProfileOverride != "" {
			emit("auth-override", "auth profile override: "+e.AuthProfileOverride, time.Time{})
		}
		for _, kv := range []struct{ k, v string }{
			{"permissionMode", e.PermissionMode}, {"execHost", e.ExecHost}, {"execNode", e.ExecNode}, {"execCwd", e.ExecCwd},
			{"execSecurity", e.ExecSecurity}, {"execAsk", e.ExecAsk}, {"elevatedLevel", e.ElevatedLevel},
		} {
			if kv.v != "" {
				emit(kv.k, "permission setting: "+kv.k+"="+kv.v, time.Time{})
			}
		}
		for _, kv := range []struct {
			k string
			v json.RawMessage
		}{{"sendPolicy", e.SendPolicy}, {"execApprovals", e.ExecApprovals}, {"permissions", e.Permissions}} {
			if rawSet(kv.v) {
				emit(kv.k, "permission setting: "+kv.k+"="+redactJSON(kv.v), time.Time{})
			}
		}
		if rawSet(e.DeliveryContext) {
			emit("delivery", "session relayed: delivery route "+redactJSON(e.DeliveryContext), time.Time{})
		} else if e.LastChannel != "" || e.LastTo != "" {
			emit("delivery", "session relayed: last channel="+e.LastChannel+" to="+e.LastTo+" account="+e.LastAccountID, time.Time{})
		}
		if rawSet(e.PublicShare) {
			emit("public-share", "session synced: public share grant "+redactJSON(e.PublicShare), time.Time{})
			a.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: n.sid}, Synced: "yes"})
		}
		archived := n.archived
		if archived.IsZero() && e.ArchivedAt != "" {
			if v, err := e.ArchivedAt.Int64(); err == nil {
				archived = msTime(v)
			}
		}
		if !archived.IsZero() {
			emit("archived", "session archived", archived)
		}
		if n.label != "" || n.display != "" {
			emit("label", "session label: "+strings.TrimSpace(n.label+" "+n.display), time.Time{})
		}
		if n.forkSID != "" {
			a.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: n.sid}, ForkedFrom: n.forkSID})
			emit("fork", "session forked from "+n.forkSID, n.created)
		}
		if rows == 0 {
			a.out.Skip(n.rowid, "state_only")
		}
	}
	return nil
}

// userText reads a stored user message: its text and, when another session
// or OpenClaw wrote it, the system prefix it takes.
func userText(raw []byte, parentKey string) (text, prefix string) {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &m)
	wrapped, _ := json.Marshal(map[string]json.RawMessage{"message": raw})
	return pisession.ContentText(m.Content), userOrigin(parentKey)(wrapped)
}

// pendingInputs writes the prompts accepted for a session that never
// reached its transcript (queued when the process stopped, interrupted,
// cancelled); a consumed one is the transcript's own.
func (a *agentDB) pendingInputs(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_pending_inputs", func(r parser.Row) error {
		sid, consumed := r.Get("session_id"), r.Get("consumed_event_id")
		if consumed != "" && a.ids[sid][consumed] {
			a.out.Skip(r.Rowid, "copy_in_transcript")
			return nil
		}
		t := msTime(r.Vals["accepted_at"])
		_, pkey := a.parentOf(sid)
		text, prefix := userText([]byte(r.Get("message_json")), pkey)
		id := r.Get("input_id")
		e := a.event(sid, t, prefix+text, r.Rowid, id)
		if prefix == "" {
			e.TurnType = timeline.User
		}
		a.out.Event(e)
		note := "prompt accepted but not in the transcript: state=" + r.Get("state") + " run " + r.Get("run_id")
		if consumed != "" {
			note += " (consumed as event " + consumed + ", which the transcript no longer holds)"
		}
		a.out.Event(a.event(sid, t, note, r.Rowid, id+"#state"))
		return nil
	})
}

// searchIndex reads the transcript search index's content table: an entry
// the transcript no longer holds is kept there (a secondary source).
func (a *agentDB) searchIndex(ctx context.Context) error {
	// The FTS5 content table's columns follow session_transcript_fts:
	// text, session_id, message_id, role, timestamp.
	return parser.EachRow(ctx, a.db, "SELECT id, c0, c1, c2, c3, c4 FROM session_transcript_fts_content ORDER BY id", func(m map[string]any) {
		id, _ := m["id"].(int64)
		sid, mid := parser.SQLText(m["c1"]), parser.SQLText(m["c2"])
		if a.ids[sid][mid] {
			a.out.Skip(id, "copy_in_transcript")
			return
		}
		var t time.Time
		switch v := m["c4"].(type) {
		case float64, int64:
			t = msTime(v)
		case string:
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				t = msTime(f)
			}
		}
		e := a.event(sid, t, parser.SQLText(m["c0"]), id, mid)
		switch parser.SQLText(m["c3"]) {
		case "user":
			e.TurnType = timeline.User
		case "assistant":
			e.TurnType = timeline.Assistant
		case "toolResult":
			e.TurnType = timeline.ToolResult
		default:
			e.Text = parser.SQLText(m["c3"]) + ": " + e.Text
		}
		e.Secondary = true
		a.out.Event(e)
	})
}

// conversations writes the channel conversations sessions are relayed
// through and each session's link to them.
func (a *agentDB) conversations(ctx context.Context, conv map[string]string) error {
	return parser.EachTableRow(ctx, a.db, "conversations", func(r parser.Row) error {
		id := r.Get("conversation_id")
		desc := "channel=" + r.Get("channel") + " account=" + r.Get("account_id") + " kind=" + r.Get("kind") +
			" peer=" + r.Get("peer_id") + " target=" + r.Get("delivery_target")
		if th := r.Get("thread_id"); th != "" {
			desc += " thread=" + th
		}
		if l := r.Get("label"); l != "" {
			desc += " label=" + strconv.Quote(l)
		}
		conv[id] = desc
		a.out.Event(a.event("", msTime(r.Vals["created_at"]), "channel conversation "+id+": "+desc, r.Rowid, "conversation:"+id))
		return nil
	})
}

// sessionConversations writes each session's link to the conversations
// it is relayed through.
func (a *agentDB) sessionConversations(ctx context.Context, conv map[string]string) error {
	return parser.EachTableRow(ctx, a.db, "session_conversations", func(r parser.Row) error {
		sid, cid := r.Get("session_id"), r.Get("conversation_id")
		a.out.Event(a.event(sid, msTime(r.Vals["first_seen_at"]), "session relayed: conversation "+cid+" ("+r.Get("role")+") "+conv[cid], r.Rowid, sid+"#conversation:"+cid+":"+r.Get("role")))
		a.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Relayed: "yes"})
		return nil
	})
}

// deliveries writes the channel sends and the replies they got.
func (a *agentDB) deliveries(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "conversation_deliveries", func(r parser.Row) error {
		sid := a.keySID[r.Get("source_session_key")]
		op := r.Get("operation_id")
		text := "channel " + r.Get("operation_kind") + " " + r.Get("status") + ": conversation " + r.Get("conversation_id")
		if pm := r.Get("platform_message_id"); pm != "" {
			text += " message " + pm
		}
		if e := r.Get("rejection_error"); e != "" {
			text += " (rejected: " + e + ")"
		}
		a.out.Event(a.event(sid, msTime(r.Vals["created_at"]), text, r.Rowid, "delivery:"+op))
		if rt := r.Get("reply_text"); rt != "" {
			// The channel user's reply is the transcript's user turn; here
			// it is the delivery record's copy.
			a.out.Event(a.event(sid, msTime(r.Vals["reply_timestamp"]), "channel reply to "+op+" (message "+r.Get("reply_message_id")+"): "+rt, r.Rowid, "delivery:"+op+"#reply"))
		}
		return nil
	})
}

// blobEntries reads a transcript blob (JSON Lines, zstd or not) as the
// entries of session sid, each at position n.
func (a *agentDB) blobEntries(ctx context.Context, sid string, blob []byte, n int64) {
	plain, err := unzstd(blob)
	if err != nil {
		a.out.Problem(n, "archive: "+err.Error())
		return
	}
	psid, pkey := a.parentOf(sid)
	s := pisession.NewSession(a.in, rowSink{Sink: a.out, parent: psid}, sessionOptions(pkey))
	s.SetID(sid)
	for _, line := range bytes.Split(plain, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		s.Entry(ctx, n, line)
	}
}

// archives writes each reset or deleted transcript kept in the database,
// published or not, and the entries it holds (the transcript's rows may be
// gone).
func (a *agentDB) archives(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_transcript_archives", func(r parser.Row) error {
		sid := r.Get("session_id")
		text := "transcript " + r.Get("reason") + ": archive " + r.Get("archive_name") + " (" + r.Get("encoding") + ", sha256 " + r.Get("archive_sha256") + ")"
		if p := msTime(r.Vals["published_at"]); !p.IsZero() {
			text += ", published " + timeline.FormatTime(p)
		} else {
			text += ", not published (" + r.Get("publish_attempts") + " attempts"
			if e := r.Get("last_publish_error"); e != "" {
				text += ", last error: " + e
			}
			text += ")"
		}
		a.out.Event(a.event(sid, msTime(r.Vals["created_at"]), text, r.Rowid, sid+"#"+r.Get("reason")+":"+r.Get("generation")))
		blob, _ := r.Vals["archive_blob"].([]byte)
		a.blobEntries(ctx, sid, blob, r.Rowid)
		return nil
	})
}

// coldArchives writes the transcripts moved to cold storage: kept in the
// database (storage sqlite, read here) or in a file under sessions/cold/.
func (a *agentDB) coldArchives(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "session_transcript_cold_archives", func(r parser.Row) error {
		sid := r.Get("session_id")
		a.out.Event(a.event(sid, msTime(r.Vals["archived_at"]), "transcript moved to cold storage ("+r.Get("storage")+"): "+r.Get("archive_name")+", "+r.Get("event_count")+" events through seq "+r.Get("last_seq"), r.Rowid, sid+"#cold:"+r.Get("generation")))
		if blob, _ := r.Vals["archive_blob"].([]byte); len(blob) > 0 {
			a.blobEntries(ctx, sid, blob, r.Rowid)
		}
		return nil
	})
}

// tombstones writes the sessions forgotten from memory.
func (a *agentDB) tombstones(ctx context.Context) error {
	return parser.EachTableRow(ctx, a.db, "memory_session_tombstones", func(r parser.Row) error {
		sid := r.Get("session_id")
		a.out.Event(a.event(sid, msTime(r.Vals["created_at"]), "session forgotten from memory (agent "+r.Get("agent_id")+"): "+r.Get("reason"), r.Rowid, sid+"#tombstone"))
		return nil
	})
}

// trajectoryEvent is one runtime trajectory record.
type trajectoryEvent struct {
	Type  string          `json:"type"`
	Ts    string          `json:"ts"`
	RunID string          `json:"runId"`
	Data  json.RawMessage `json:"data"`
}

// trajectory reads trajectory_runtime_events: the run's invocation and
// end are rows of their own; the submitted prompt and each tool call and
// result are secondary copies of the transcript's.
func (a *agentDB) trajectory(ctx context.Context) error {
	trigger := map[string]string{}
	return parser.EachTableRow(ctx, a.db, "trajectory_runtime_events", func(r parser.Row) error {
		sid, run := r.Get("session_id"), r.Get("run_id")
		var ev trajectoryEvent
		if err := json.Unmarshal([]byte(r.Get("event_json")), &ev); err != nil {
			a.out.Problem(r.Rowid, "trajectory event: "+parser.JSONError(err))
			return nil
		}
		t := msTime(r.Vals["created_at"])
		if tt, err := time.Parse(time.RFC3339Nano, ev.Ts); err == nil {
			t = tt.UTC()
		}
		if run == "" {
			run = ev.RunID
		}
		switch ev.Type {
		case "session.started":
			var d struct {
				Trigger string `json:"trigger"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			trigger[run] = d.Trigger
			a.out.Skip(r.Rowid, "state_only")
		case "trace.metadata":
			var d struct {
				Harness struct {
					Version    string   `json:"version"`
					GitSha     string   `json:"gitSha"`
					Invocation []string `json:"invocation"`
				} `json:"harness"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			text := "run " + run + ": OpenClaw " + d.Harness.Version + " (" + d.Harness.GitSha + ") invoked as " + parser.RedactSecrets(strings.Join(d.Harness.Invocation, " "))
			a.out.Event(a.event(sid, t, text, r.Rowid, run+"#invocation"))
		case "prompt.submitted":
			var d struct {
				Prompt string `json:"prompt"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			e := a.event(sid, t, d.Prompt, r.Rowid, "")
			if trigger[run] == "user" {
				e.TurnType = timeline.User
			} else {
				e.Text = "prompt submitted (trigger " + trigger[run] + "): " + d.Prompt
			}
			e.Secondary = true
			a.out.Event(e)
		case "tool.call":
			var d struct {
				ToolCallID string          `json:"toolCallId"`
				Name       string          `json:"name"`
				Args       json.RawMessage `json:"args"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			e := a.event(sid, t, pisession.MainArg(d.Args), r.Rowid, "")
			e.TurnType, e.ToolName, e.ToolUseID, e.ToolInput, e.Secondary = timeline.ToolUse, d.Name, d.ToolCallID, parser.CompactJSON(d.Args), true
			a.out.Event(e)
		case "tool.result":
			var d struct {
				ToolCallID string `json:"toolCallId"`
				Name       string `json:"name"`
				Success    *bool  `json:"success"`
				Result     struct {
					Content json.RawMessage `json:"content"`
				} `json:"result"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			e := a.event(sid, t, pisession.ContentText(d.Result.Content), r.Rowid, "")
			e.TurnType, e.ToolName, e.ToolUseID, e.Secondary = timeline.ToolResult, d.Name, d.ToolCallID, true
			if d.Success != nil {
				e.IsError = strconv.FormatBool(!*d.Success)
			}
			a.out.Event(e)
		case "session.ended":
			var d struct {
				Status     string `json:"status"`
				StopReason string `json:"stopReason"`
				Aborted    bool   `json:"aborted"`
				TimedOut   bool   `json:"timedOut"`
			}
			_ = json.Unmarshal(ev.Data, &d)
			text := "run " + run + " ended: status=" + d.Status + " stopReason=" + d.StopReason
			if d.Aborted {
				text += " aborted"
			}
			if d.TimedOut {
				text += " timed out"
			}
			a.out.Event(a.event(sid, t, text, r.Rowid, run+"#ended"))
		default:
			a.out.Skip(r.Rowid, "no_evidence:trajectory:"+ev.Type)
		}
		return nil
	})
}
