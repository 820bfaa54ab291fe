package cursor

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Agent CLI's own chat store: .cursor/chats/<md5 of cwd>/<id>/store.db
// (SQLite): table meta (key '0', value the session's metadata as
// hex-encoded JSON) and table blobs (id the SHA-256 of data, data a
// message as JSON, or a node of the message tree: protobuf field 1
// repeated, each a child blob's 32-byte id, in order). The conversation is
// the tree walked depth first from meta's latestRootBlobId.

// cliMeta is the metadata of a CLI session (meta table and meta.json).
type cliMeta struct {
	AgentID          string          `json:"agentId"`
	LatestRootBlobID string          `json:"latestRootBlobId"`
	Name             string          `json:"name"`
	Mode             string          `json:"mode"`
	CreatedAt        json.RawMessage `json:"createdAt"`
	LastUsedModel    string          `json:"lastUsedModel"`
	SubagentInfo     json.RawMessage `json:"subagentInfo"`
}

// parent returns the parent session a subagentInfo names.
func (m *cliMeta) parent() string {
	var si map[string]json.RawMessage
	if json.Unmarshal(m.SubagentInfo, &si) != nil {
		return ""
	}
	for _, k := range []string{"parentAgentId", "parentId", "parentConversationId", "parentComposerId"} {
		if s := parser.JSONText(si[k]); s != "" {
			return s
		}
	}
	return ""
}

// chatDirID returns the session id of a .cursor/chats/<hash>/<id>/ file.
func chatDirID(p string) string { return path.Base(path.Dir(slash(p))) }

// metaRows emits the session-level rows of a CLI session's metadata:
// "session name:", "model last used:" and "run mode:" at createdAt.
func metaRows(out parser.Sink, m *cliMeta, sid string, line int64) (time.Time, bool) {
	t, ok := jsonTime(m.CreatedAt)
	row := func(word, text string) {
		e := timeline.Event{SessionID: sid, ParentSessionID: m.parent(), TurnType: timeline.System, SourceLine: line, RecordID: sid + "#" + word, Text: text}
		if ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	if m.parent() != "" {
		row("subagent", "subagent "+sid+" of "+m.parent())
	}
	if m.Name != "" {
		row("name", "session name: "+m.Name)
	}
	if m.LastUsedModel != "" {
		row("model", "model last used: "+m.LastUsedModel)
	}
	if m.Mode != "" {
		row("mode", "run mode: "+m.Mode)
	}
	return t, ok
}

// decodeMeta reads a meta value: hex-encoded JSON, or JSON as is.
func decodeMeta(v []byte) ([]byte, error) {
	s := strings.TrimSpace(string(v))
	if strings.HasPrefix(s, "{") {
		return []byte(s), nil
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("neither JSON nor hex-encoded JSON: %w", err)
	}
	return b, nil
}

// cliStore is the Agent CLI's store.db (the one SQLite policy,
// parser.CheckStore): meta (key '0', the session's metadata) and blobs
// (messages and tree nodes by id). Every CLI store seen has both: a store
// without one is a problem row naming it and the other is still read.
var cliStore = parser.SQLiteStore{Name: "a Cursor Agent CLI chat", Tables: parser.SQLiteSchema{
	"meta":  {"key", "value"},
	"blobs": {"id", "data"},
}}

// parseCLIStore is cursor/cli-chats.
func parseCLIStore(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		out.Problem(0, "store.db not readable: "+err.Error())
		return nil
	}
	readable, err := parser.CheckStore(ctx, db, cliStore, out)
	if err != nil {
		out.Problem(0, "not a readable SQLite database: "+err.Error())
		return nil
	}
	if len(readable) == 0 {
		return nil
	}
	hasMeta, hasBlobs := readable["meta"], readable["blobs"]
	sid := chatDirID(in.Path)
	var m cliMeta
	var metaRow int64
	if hasMeta {
		var v []byte
		err := db.QueryRowContext(ctx, "SELECT rowid, CAST(value AS BLOB) FROM meta WHERE key = '0'").Scan(&metaRow, &v)
		switch {
		case err == sql.ErrNoRows:
		case err != nil:
			out.Problem(0, "meta: "+err.Error())
		default:
			if b, err := decodeMeta(v); err != nil {
				out.Problem(metaRow, "meta: "+err.Error())
			} else if err := json.Unmarshal(b, &m); err != nil {
				out.Problem(metaRow, parser.NotJSON("meta", err))
			}
		}
	}
	if m.AgentID != "" {
		sid = m.AgentID
	}
	created, cok := metaRows(out, &m, sid, metaRow)
	out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Origin: "local", ParentSessionID: m.parent()})
	if !hasBlobs {
		return nil
	}
	return walkBlobs(ctx, db, out, &m, sid, created, cok)
}

type cliBlob struct {
	rowid int64
	data  []byte
}

// Bounds of a store read into memory: the blobs' total size (a CLI session
// is a few MB; a store over this is reported and its messages not read).
const maxStoreBytes = 512 << 20

func walkBlobs(ctx context.Context, db *sql.DB, out parser.Sink, m *cliMeta, sid string, created time.Time, cok bool) error {
	var total sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT sum(length(data)) FROM blobs").Scan(&total); err != nil {
		out.Problem(0, "blobs: "+err.Error())
		return nil
	}
	if total.Int64 > maxStoreBytes {
		out.Problem(0, fmt.Sprintf("blobs: %d bytes, over the %d-byte bound: messages not read", total.Int64, maxStoreBytes))
		return nil
	}
	rows, err := db.QueryContext(ctx, "SELECT rowid, CAST(id AS TEXT), CAST(data AS BLOB) FROM blobs ORDER BY rowid")
	if err != nil {
		out.Problem(0, "blobs: "+err.Error())
		return nil
	}
	blobs := map[string]cliBlob{}
	var order []string
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			rows.Close()
			return err
		}
		var b cliBlob
		var id string
		if err := rows.Scan(&b.rowid, &id, &b.data); err != nil {
			out.Problem(0, "blobs: "+err.Error())
			continue
		}
		id = strings.ToLower(id)
		blobs[id] = b
		order = append(order, id)
	}
	if err := rows.Err(); err != nil {
		out.Problem(0, "blobs: "+err.Error())
	}
	rows.Close()
	base := func(rowid int64) func() timeline.Event {
		return func() timeline.Event {
			e := timeline.Event{SessionID: sid, ParentSessionID: m.parent(), SourceLine: rowid}
			if cok {
				e.Time, e.TimeBasis = created, timeline.TimeInherited
			} else {
				e.TimeBasis = timeline.TimeNone
			}
			return e
		}
	}
	seen := map[string]bool{}
	emitted := map[string]bool{}
	sub := m.parent() != ""
	var walk func(id string, depth int)
	walk = func(id string, depth int) {
		if seen[id] || depth > 10000 || ctx.Err() != nil {
			return
		}
		seen[id] = true
		b, ok := blobs[id]
		if !ok {
			out.Report(0, parser.KindOrphanRecord, "blob "+id+" named by the message tree is not in the store")
			return
		}
		data := b.data
		if len(data) > 0 && data[0] == '{' {
			emitted[id] = true
			if n, reason := agentMessage(out, base(b.rowid), sid+":"+id, data, sub); n == 0 {
				out.Skip(b.rowid, firstNonEmpty(reason, "no_content"))
			}
			return
		}
		// A tree node: field 1 the children's ids; a JSON message may be
		// embedded in another field.
		out.Skip(b.rowid, "state_only") // the tree's shape
		for len(data) > 0 {
			if data[0] == '{' {
				// a message written after the children, unframed
				agentMessage(out, base(b.rowid), sid+":"+id+"/tail", data, sub)
				return
			}
			num, typ, n := protowire.ConsumeTag(data)
			if n < 0 {
				out.Problem(b.rowid, "blob "+id+": not a message and not a tree node")
				return
			}
			data = data[n:]
			if typ != protowire.BytesType {
				n = protowire.ConsumeFieldValue(num, typ, data)
				if n < 0 {
					return
				}
				data = data[n:]
				continue
			}
			v, n := protowire.ConsumeBytes(data)
			if n < 0 {
				out.Problem(b.rowid, "blob "+id+": cut tree node")
				return
			}
			data = data[n:]
			switch {
			case num == 1 && len(v) == 32:
				walk(hex.EncodeToString(v), depth+1)
			case len(v) > 0 && v[0] == '{':
				agentMessage(out, base(b.rowid), sid+":"+id+"/"+strconv.Itoa(int(num)), v, sub)
			}
		}
	}
	root := strings.ToLower(m.LatestRootBlobID)
	if root != "" {
		walk(root, 0)
	}
	// What happened stays: messages the latest tree no longer reaches
	// (an edited or rewound branch) are kept, after a system row.
	var stray []string
	for _, id := range order {
		if !seen[id] && len(blobs[id].data) > 0 && blobs[id].data[0] == '{' {
			stray = append(stray, id)
		}
	}
	if len(stray) > 0 {
		e := base(blobs[stray[0]].rowid)()
		e.TurnType, e.RecordID = timeline.System, sid+"#unreached"
		e.Text = fmt.Sprintf("%d message(s) not in the conversation's latest tree (from an edited, rewound or superseded branch): kept below", len(stray))
		if root == "" {
			e.Text = fmt.Sprintf("%d message(s) with no latestRootBlobId to order them: kept in store order", len(stray))
		}
		out.Event(e)
		for _, id := range stray {
			if n, reason := agentMessage(out, base(blobs[id].rowid), sid+":"+id, blobs[id].data, sub); n == 0 {
				out.Skip(blobs[id].rowid, firstNonEmpty(reason, "no_content"))
			}
		}
	}
	for _, id := range order {
		if !seen[id] && !(len(blobs[id].data) > 0 && blobs[id].data[0] == '{') {
			out.Skip(blobs[id].rowid, "state_only") // a tree node of an older root
		}
	}
	return nil
}

// parseCLIChatMeta is cursor/cli-chat-meta: meta.json (the session's
// metadata, as in store.db) and prompt_history.json (the prompts typed in
// the session, secondary: no time, paired with the store's user rows).
func parseCLIChatMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return err
	}
	sid := chatDirID(in.Path)
	if in.Base() == "meta.json" {
		var m cliMeta
		if err := json.Unmarshal(b, &m); err != nil {
			out.Problem(0, parser.NotJSON("meta.json", err))
			return nil
		}
		if m.AgentID != "" {
			sid = m.AgentID
		}
		metaRows(out, &m, sid, 1)
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, Origin: "local", ParentSessionID: m.parent()})
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(b, &list); err != nil {
		var obj struct {
			History []json.RawMessage `json:"history"`
			Prompts []json.RawMessage `json:"prompts"`
			Entries []json.RawMessage `json:"entries"`
		}
		if json.Unmarshal(b, &obj) != nil {
			out.Problem(0, "prompt_history.json: not a list of prompts: "+parser.JSONError(err))
			return nil
		}
		list = append(append(obj.History, obj.Prompts...), obj.Entries...)
	}
	for i, raw := range list {
		text := parser.JSONText(raw)
		var t time.Time
		var ok bool
		if strings.HasPrefix(strings.TrimSpace(string(raw)), "{") {
			var o map[string]json.RawMessage
			_ = json.Unmarshal(raw, &o)
			text = firstNonEmpty(parser.JSONText(o["text"]), parser.JSONText(o["prompt"]), parser.JSONText(o["query"]), parser.JSONText(o["display"]))
			for _, k := range []string{"timestamp", "createdAt", "time"} {
				if t, ok = jsonTime(o[k]); ok {
					break
				}
			}
		}
		if strings.TrimSpace(text) == "" {
			out.Skip(int64(i+1), "no_content")
			continue
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.User, Text: text, SourceLine: int64(i + 1), Secondary: true, TimeBasis: timeline.TimeNone}
		if ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		out.Event(e)
	}
	return nil
}

// parseMCPOAuthAttempt is cursor/mcp-oauth-attempts: one
// User/globalStorage/mcp-oauth-attempts/<uuid>.json per OAuth sign-in an
// MCP server asked for: "mcp oauth attempt: <server> url=<url>
// client=<client id> [status=<status>]" at the attempt's own time, else
// the file's mtime. The PKCE verifier, state, code and any token are
// never read.
func parseMCPOAuthAttempt(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSON("mcp oauth attempt", err))
		return nil
	}
	get := func(keys ...string) string {
		for _, k := range keys {
			if s := parser.JSONText(m[k]); s != "" && !strings.HasPrefix(s, "{") {
				return s
			}
		}
		return ""
	}
	text := "mcp oauth attempt:"
	if s := get("serverName", "server", "serverId", "name", "identifier"); s != "" {
		text += " " + s
	}
	if u := get("serverUrl", "url", "resourceUrl", "authorizationServerUrl"); u != "" {
		text += " url=" + redactURL(u)
	}
	if c := get("clientId", "client_id"); c != "" {
		text += " client=" + c
	}
	if st := get("status", "result", "outcome"); st != "" {
		text += " status=" + st
	}
	e := timeline.Event{TurnType: timeline.System, SourceLine: 1, Text: text,
		RecordID: "mcp-oauth-attempt:" + strings.TrimSuffix(in.Base(), path.Ext(in.Base()))}
	found := false
	for _, k := range []string{"createdAt", "startedAt", "timestamp", "updatedAt"} {
		if t, ok := jsonTime(m[k]); ok {
			e.Time, found = t, true
			break
		}
	}
	if !found {
		f := parser.SettingEvent(&in.File)
		e.Time, e.TimeBasis = f.Time, f.TimeBasis
		e.Text += " (file mtime)"
	}
	out.Event(e)
	return nil
}
