package cursor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// appUserKey is the ItemTable key of the editor's settings blob.
const appUserKey = "src.vs.platform.reactivestorage.browser.reactiveStorageServiceImpl.persistentStorage.applicationUser"

type composerData struct {
	ComposerID          string            `json:"composerId"`
	Name                string            `json:"name"`
	CreatedAt           json.RawMessage   `json:"createdAt"`
	LastUpdatedAt       json.RawMessage   `json:"lastUpdatedAt"`
	Status              string            `json:"status"`
	Text                string            `json:"text"`
	IsArchived          bool              `json:"isArchived"`
	ModelConfig         *modelConfig      `json:"modelConfig"`
	Headers             []bubbleHeader    `json:"fullConversationHeadersOnly"`
	Conversation        []json.RawMessage `json:"conversation"`
	SubComposerIDs      []string          `json:"subComposerIds"`
	WorkspaceIdentifier json.RawMessage   `json:"workspaceIdentifier"`
}

type modelConfig struct {
	ModelName string `json:"modelName"`
}

type bubbleHeader struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
}

type bubble struct {
	Type              int                    `json:"type"`
	BubbleID          string                 `json:"bubbleId"`
	Text              string                 `json:"text"`
	RichText          json.RawMessage        `json:"richText"`
	Thinking          *struct{ Text string } `json:"thinking"`
	AllThinkingBlocks []json.RawMessage      `json:"allThinkingBlocks"`
	ToolFormerData    *toolFormer            `json:"toolFormerData"`
	CreatedAt         json.RawMessage        `json:"createdAt"`
	TimingInfo        *struct {
		ClientStartTime json.RawMessage `json:"clientStartTime"`
	} `json:"timingInfo"`
	ModelInfo *modelInfo `json:"modelInfo"`
}

type modelInfo struct {
	ModelName string `json:"modelName"`
}

type toolFormer struct {
	Name                      string                   `json:"name"`
	ToolCallID                string                   `json:"toolCallId"`
	RawArgs                   json.RawMessage          `json:"rawArgs"`
	Params                    json.RawMessage          `json:"params"`
	Result                    json.RawMessage          `json:"result"`
	Status                    string                   `json:"status"`
	AdditionalData            *struct{ Status string } `json:"additionalData"`
	UserDecision              string                   `json:"userDecision"`
	SelectedOption            string                   `json:"selectedOption"`
	AppliedAllowlistOptionIDs json.RawMessage          `json:"appliedAllowlistOptionIds"`
}

// header is one composerHeaders row (or composer.composerHeaders entry).
type header struct {
	id               string
	name             string
	created, updated time.Time
	project          string
	archived         bool
	rowid            int64
}

type headerJSON struct {
	ComposerID          string          `json:"composerId"`
	Name                string          `json:"name"`
	CreatedAt           json.RawMessage `json:"createdAt"`
	LastUpdatedAt       json.RawMessage `json:"lastUpdatedAt"`
	IsArchived          bool            `json:"isArchived"`
	WorkspaceIdentifier json.RawMessage `json:"workspaceIdentifier"`
}

type stateReader struct {
	ctx  context.Context
	db   *sql.DB
	in   *parser.Input
	out  parser.Sink
	kv   bool
	bget *sql.Stmt
}

func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	s := &stateReader{ctx: ctx, db: db, in: in, out: out}
	if s.kv, err = parser.HasTable(ctx, db, "cursorDiskKV"); err != nil {
		return err
	}
	if ok, err := parser.HasTable(ctx, db, "ItemTable"); err != nil || !s.kv && !ok {
		return err
	}
	headers := s.readHeaders()
	live := map[string]bool{}
	var errs []error
	if s.kv {
		s.bget, err = db.PrepareContext(ctx, "SELECT rowid, value FROM cursorDiskKV WHERE key = ?")
		if err != nil {
			return fmt.Errorf("prepare %s: %w", in.Path, err)
		}
		defer s.bget.Close()
		parents := s.readParents()
		ids, err := s.composerKeys()
		if err != nil {
			errs = append(errs, fmt.Errorf("read composers in %s: %w", in.Path, err))
		}
		for _, c := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			live[c.id] = true
			if err := s.composer(c.id, c.rowid, headers[c.id], parents[c.id]); err != nil {
				errs = append(errs, err)
			}
		}
	}
	// The agent transcripts of this home: the copies of the conversations
	// this database no longer holds are read here (see doc.go).
	trs := map[string][]transcript{}
	if home := dbHome(in.Path); home != "" {
		for _, t := range listTranscripts(in, home) {
			trs[t.id] = append(trs[t.id], t)
		}
	}
	var hids []string
	for id := range headers {
		if !live[id] {
			hids = append(hids, id)
		}
	}
	sort.Strings(hids)
	for _, id := range hids {
		if err := s.deleted(headers[id], trs[id]); err != nil {
			errs = append(errs, err)
		}
	}
	var tids []string
	for id := range trs {
		if !live[id] && headers[id] == nil {
			tids = append(tids, id)
		}
	}
	sort.Strings(tids)
	for _, id := range tids {
		if err := s.transcripts(trs[id], ""); err != nil {
			errs = append(errs, err)
		}
	}
	s.settings()
	return errors.Join(errs...)
}

func (s *stateReader) problem(rowid int64, msg string) { s.out.Problem(rowid, msg) }

// queryErr reports a query's error as a problem row naming what was read
// (sql.ErrNoRows, a key absent, is not an error) and reports whether
// there was one.
func (s *stateReader) queryErr(rowid int64, what string, err error) bool {
	if err == nil || errors.Is(err, sql.ErrNoRows) {
		return err != nil
	}
	s.problem(rowid, what+": "+err.Error())
	return true
}

// has reports whether the store has the real table name; an error reading
// the schema is a problem row, never "no table".
func (s *stateReader) has(name string) bool {
	ok, err := parser.HasTable(s.ctx, s.db, name)
	if err != nil {
		s.problem(0, err.Error())
	}
	return ok
}

type keyRow struct {
	id    string
	rowid int64
}

// prefixRange returns the key range [lo, hi) of the keys starting with p
// (p ends with ':'; ';' sorts right after it), so the key index is used.
func prefixRange(p string) (string, string) { return p, p[:len(p)-1] + ";" }

func (s *stateReader) composerKeys() ([]keyRow, error) {
	lo, hi := prefixRange("composerData:")
	rows, err := s.db.QueryContext(s.ctx, "SELECT rowid, key FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY rowid", lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []keyRow
	for rows.Next() {
		var k keyRow
		var key string
		if err := rows.Scan(&k.rowid, &key); err != nil {
			return out, err
		}
		k.id = strings.TrimPrefix(key, "composerData:")
		out = append(out, k)
	}
	return out, rows.Err()
}

// readParents maps each subagent composer to its parent (subComposerIds).
func (s *stateReader) readParents() map[string]string {
	lo, hi := prefixRange("composerData:")
	out := map[string]string{}
	rows, err := s.db.QueryContext(s.ctx, `SELECT key, json_extract(CAST(value AS TEXT), '$.subComposerIds') FROM cursorDiskKV
		WHERE key >= ? AND key < ? AND json_valid(CAST(value AS TEXT)) AND json_type(CAST(value AS TEXT), '$.subComposerIds') = 'array'`, lo, hi)
	if s.queryErr(0, "subComposerIds", err) {
		return out
	}
	defer rows.Close()
	defer func() { s.queryErr(0, "subComposerIds", rows.Err()) }()
	for rows.Next() {
		var key string
		var subs sql.NullString
		if err := rows.Scan(&key, &subs); err != nil {
			s.queryErr(0, "subComposerIds", err)
			continue
		}
		if !subs.Valid {
			continue
		}
		var ids []string
		if json.Unmarshal([]byte(subs.String), &ids) != nil {
			continue
		}
		for _, id := range ids {
			if id != "" {
				out[id] = strings.TrimPrefix(key, "composerData:")
			}
		}
	}
	return out
}

// readHeaders reads the composerHeaders table (Cursor 3.x) and the older
// composer.composerHeaders ItemTable entry.
func (s *stateReader) readHeaders() map[string]*header {
	out := map[string]*header{}
	add := func(rowid int64, h headerJSON, colCreated, colUpdated int64, colID string) {
		id := firstNonEmpty(colID, h.ComposerID)
		if id == "" {
			return
		}
		hd := &header{id: id, name: h.Name, archived: h.IsArchived, rowid: rowid, project: workspaceFolder(h.WorkspaceIdentifier)}
		hd.created, _ = jsonTime(h.CreatedAt)
		hd.updated, _ = jsonTime(h.LastUpdatedAt)
		if t, ok := msTime(colCreated); ok {
			hd.created = t
		}
		if t, ok := msTime(colUpdated); ok {
			hd.updated = t
		}
		if o := out[id]; o != nil && o.rowid != 0 && rowid == 0 {
			return
		}
		out[id] = hd
	}
	if s.has("ItemTable") {
		var rowid int64
		var v []byte
		if !s.queryErr(0, "ItemTable composer.composerHeaders", s.db.QueryRowContext(s.ctx, "SELECT rowid, value FROM ItemTable WHERE key = 'composer.composerHeaders'").Scan(&rowid, &v)) {
			var all struct {
				AllComposers []headerJSON `json:"allComposers"`
			}
			if err := json.Unmarshal(v, &all); err != nil {
				s.problem(rowid, "ItemTable composer.composerHeaders: bad JSON: "+err.Error())
			}
			for _, h := range all.AllComposers {
				add(0, h, 0, 0, "")
			}
		}
	}
	if !s.has("composerHeaders") {
		return out
	}
	err := parser.EachTableRow(s.ctx, s.db, "composerHeaders", func(r parser.Row) error {
		m := r.Vals
		var h headerJSON
		if v := parser.SQLText(m["value"]); v != "" {
			if err := json.Unmarshal([]byte(v), &h); err != nil {
				s.problem(r.Rowid, "composerHeaders: bad JSON: "+err.Error())
			}
		}
		add(r.Rowid, h, num(m["createdAt"]), num(m["lastUpdatedAt"]), parser.SQLText(m["composerId"]))
		return nil
	})
	if err != nil {
		s.problem(0, "composerHeaders: "+err.Error())
	}
	return out
}

// num is parser.SQLInt, 0 when the value is no integer.
func num(v any) int64 { n, _ := parser.SQLInt(v); return n }

// workspaceFolder reads workspaceIdentifier.uri (fsPath, path or a file://
// external form).
func workspaceFolder(raw json.RawMessage) string {
	var w struct {
		URI *struct {
			FSPath   string `json:"fsPath"`
			Path     string `json:"path"`
			External string `json:"external"`
		} `json:"uri"`
		ConfigPath *struct {
			FSPath string `json:"fsPath"`
		} `json:"configPath"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &w) != nil {
		return ""
	}
	if w.URI != nil {
		if w.URI.FSPath != "" {
			return w.URI.FSPath
		}
		if w.URI.Path != "" {
			return w.URI.Path
		}
		if strings.HasPrefix(w.URI.External, "file://") {
			return strings.TrimPrefix(w.URI.External, "file://")
		}
	}
	if w.ConfigPath != nil {
		return w.ConfigPath.FSPath
	}
	return ""
}

// conv is the running state of one conversation's rows.
type conv struct {
	session string
	project string
	sub     string // set when the composer is a subagent folded into session
	model   string // the model of the latest user message
	def     string // the composer's modelConfig model
	last    time.Time
	created time.Time
}

func (c *conv) base(rowid int64, t time.Time, ok bool) timeline.Event {
	e := timeline.Event{SessionID: c.session, ProjectPath: c.project, SourceLine: rowid}
	switch {
	case ok:
		e.Time = t
		c.last = t
	case !c.last.IsZero():
		e.Time, e.TimeBasis = c.last, timeline.TimeInherited
	case !c.created.IsZero():
		e.Time, e.TimeBasis = c.created, timeline.TimeInherited
	default:
		e.TimeBasis = timeline.TimeNone
	}
	return e
}

func (s *stateReader) sys(c *conv, rowid int64, t time.Time, ok bool, text string) {
	e := c.base(rowid, t, ok)
	e.TurnType = timeline.System
	e.Text = text
	s.out.Event(e)
}

// composer emits one composerData record and its bubbles.
func (s *stateReader) composer(id string, rowid int64, h *header, parent string) error {
	var raw []byte
	if err := s.db.QueryRowContext(s.ctx, "SELECT value FROM cursorDiskKV WHERE rowid = ?", rowid).Scan(&raw); err != nil {
		return fmt.Errorf("read composerData:%s: %w", id, err)
	}
	var cd composerData
	bad := false
	if len(raw) == 0 {
		bad = true
	} else if err := json.Unmarshal(raw, &cd); err != nil {
		s.problem(rowid, "composerData:"+id+": bad JSON: "+err.Error())
		bad = true
	}
	c := &conv{session: id, project: workspaceFolder(cd.WorkspaceIdentifier)}
	if h != nil && c.project == "" {
		c.project = h.project
	}
	if parent != "" {
		c.session, c.sub = parent, id
	}
	created, cok := jsonTime(cd.CreatedAt)
	if !cok && h != nil && !h.created.IsZero() {
		created, cok = h.created, true
	}
	c.created = created
	updated, uok := jsonTime(cd.LastUpdatedAt)
	if cd.ModelConfig != nil {
		c.model = cd.ModelConfig.ModelName
	}
	if c.sub != "" {
		s.sys(c, rowid, created, cok, "subagent "+id+" of "+parent)
	}
	name := cd.Name
	if name == "" && h != nil {
		name = h.name
	}
	if name != "" {
		s.sys(c, rowid, created, cok, "session name: "+name)
	}
	first := c.model
	modelShown := false
	c.model, c.def = "", first
	n := 0
	if !bad {
		switch {
		case len(cd.Conversation) > 0 && len(cd.Headers) == 0:
			for i, b := range cd.Conversation {
				var bb bubble
				if err := json.Unmarshal(b, &bb); err != nil {
					s.problem(rowid, fmt.Sprintf("composerData:%s: conversation[%d]: bad JSON: %v", id, i, err))
					continue
				}
				s.bubble(c, rowid, &bb, &modelShown)
				n++
			}
		default:
			hs := cd.Headers
			if len(hs) == 0 {
				hs = s.chunkHeaders(id)
			}
			for _, hd := range hs {
				if err := s.ctx.Err(); err != nil {
					return err
				}
				if s.bubbleByID(c, id, hd.BubbleID, &modelShown) {
					n++
				}
			}
		}
	}
	if n == 0 {
		s.orphanBubbles(c, id, &modelShown)
	}
	if !modelShown && first != "" {
		// No user message named its model: the composer's own setting.
		s.sys(c, rowid, created, cok, "model: "+first)
	}
	if cd.IsArchived || (h != nil && h.archived) {
		t, ok := updated, uok
		if !ok && h != nil && !h.updated.IsZero() {
			t, ok = h.updated, true
		}
		e := c.base(rowid, time.Time{}, false)
		if ok {
			e.Time, e.TimeBasis = t, timeline.TimeInherited
		}
		e.TurnType, e.Text = timeline.System, "conversation archived"
		s.out.Event(e)
	}
	if strings.TrimSpace(cd.Text) != "" {
		s.sys(c, rowid, updated, uok, "unsent draft: "+cd.Text)
	}
	return nil
}

// chunkHeaders reads the composerConvHeaders:<id>:<NNNNNN> chunks (3.26+)
// in key order. A chunk is an array of {bubbleId,type} or an object
// holding one.
func (s *stateReader) chunkHeaders(id string) []bubbleHeader {
	lo, hi := prefixRange("composerConvHeaders:" + id + ":")
	rows, err := s.db.QueryContext(s.ctx, "SELECT rowid, key, value FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY key", lo, hi)
	if err != nil {
		s.problem(0, "composerConvHeaders:"+id+": "+err.Error())
		return nil
	}
	defer rows.Close()
	defer func() { s.queryErr(0, "composerConvHeaders:"+id, rows.Err()) }()
	var out []bubbleHeader
	for rows.Next() {
		var rowid int64
		var key string
		var v []byte
		if err := rows.Scan(&rowid, &key, &v); err != nil {
			s.queryErr(0, "composerConvHeaders:"+id, err)
			continue
		}
		var hs []bubbleHeader
		if err := json.Unmarshal(v, &hs); err == nil {
			out = append(out, hs...)
			continue
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(v, &obj); err != nil {
			s.problem(rowid, key+": bad JSON: "+err.Error())
			continue
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if json.Unmarshal(obj[k], &hs) == nil && len(hs) > 0 && hs[0].BubbleID != "" {
				out = append(out, hs...)
				break
			}
		}
	}
	return out
}

// bubbleByID reads and emits bubbleId:<composer>:<bubble>.
func (s *stateReader) bubbleByID(c *conv, composer, bid string, modelShown *bool) bool {
	if bid == "" {
		return false
	}
	key := "bubbleId:" + composer + ":" + bid
	var rowid int64
	var v []byte
	if err := s.bget.QueryRowContext(s.ctx, key).Scan(&rowid, &v); err != nil {
		s.queryErr(0, key, err)
		return false
	}
	var b bubble
	if err := json.Unmarshal(v, &b); err != nil {
		s.problem(rowid, key+": bad JSON: "+err.Error())
		return false
	}
	s.bubble(c, rowid, &b, modelShown)
	return true
}

// orphanBubbles emits the bubbles of a composer that no header list names
// (no composerData, a malformed one, or one without headers), by rowid.
func (s *stateReader) orphanBubbles(c *conv, composer string, modelShown *bool) int {
	lo, hi := prefixRange("bubbleId:" + composer + ":")
	rows, err := s.db.QueryContext(s.ctx, "SELECT key FROM cursorDiskKV WHERE key >= ? AND key < ? ORDER BY rowid", lo, hi)
	if s.queryErr(0, "bubbleId:"+composer, err) {
		return 0
	}
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			s.queryErr(0, "bubbleId:"+composer, err)
			continue
		}
		keys = append(keys, k)
	}
	s.queryErr(0, "bubbleId:"+composer, rows.Err())
	rows.Close()
	n := 0
	for _, k := range keys {
		if s.bubbleByID(c, composer, strings.TrimPrefix(k, lo), modelShown) {
			n++
		}
	}
	return n
}

// bubble emits the rows of one bubble.
func (s *stateReader) bubble(c *conv, rowid int64, b *bubble, modelShown *bool) {
	t, ok := jsonTime(b.CreatedAt)
	if !ok && b.TimingInfo != nil {
		t, ok = jsonTime(b.TimingInfo.ClientStartTime)
	}
	if b.Type == 1 {
		if b.ModelInfo != nil && b.ModelInfo.ModelName != "" && b.ModelInfo.ModelName != c.model {
			text := "model: " + b.ModelInfo.ModelName
			if c.model != "" {
				text = "model: " + c.model + " -> " + b.ModelInfo.ModelName
			}
			c.model = b.ModelInfo.ModelName
			*modelShown = true
			s.sys(c, rowid, t, ok, text)
		}
		text := b.Text
		if strings.TrimSpace(text) == "" {
			text = lexicalText(b.RichText)
		}
		if strings.TrimSpace(text) == "" {
			return
		}
		e := c.base(rowid, t, ok)
		if c.sub != "" {
			e.TurnType, e.Text = timeline.System, "subagent prompt: "+text
		} else {
			e.TurnType, e.Text = timeline.User, text
		}
		s.out.Event(e)
		return
	}
	model := firstNonEmpty(c.model, c.def)
	if b.ModelInfo != nil && b.ModelInfo.ModelName != "" {
		model = b.ModelInfo.ModelName
	}
	emit := func(tt timeline.TurnType, text string) {
		e := c.base(rowid, t, ok)
		e.TurnType, e.Text, e.Model = tt, text, model
		s.out.Event(e)
	}
	if b.Thinking != nil && strings.TrimSpace(b.Thinking.Text) != "" {
		emit(timeline.Thinking, b.Thinking.Text)
	}
	for _, tb := range b.AllThinkingBlocks {
		var x struct{ Text, Content, Thinking string }
		text := parser.JSONText(tb)
		if json.Unmarshal(tb, &x) == nil {
			text = firstNonEmpty(x.Text, x.Thinking, x.Content)
		}
		if strings.TrimSpace(text) != "" {
			emit(timeline.Thinking, text)
		}
	}
	if strings.TrimSpace(b.Text) != "" {
		emit(timeline.Assistant, b.Text)
	}
	if tf := b.ToolFormerData; tf != nil && tf.Name != "" {
		s.tool(c, rowid, t, ok, model, b.BubbleID, tf)
	}
}

// decision maps the stored answer to a permission prompt to Run, Skip or
// Always run ("" when the user was not asked).
func decision(tf *toolFormer) string {
	var allow []json.RawMessage
	_ = json.Unmarshal(tf.AppliedAllowlistOptionIDs, &allow)
	always := len(allow) > 0
	for _, v := range []string{tf.SelectedOption, tf.UserDecision} {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "":
			continue
		case "run", "accept", "accepted", "approve", "approved", "allow", "allowed", "yes":
			if always {
				return "Always run"
			}
			return "Run"
		case "skip", "skipped", "reject", "rejected", "deny", "denied", "decline", "declined", "no", "cancel", "cancelled":
			return "Skip"
		case "always", "always_run", "alwaysrun", "allowlist", "always run", "run_always", "allow_always":
			return "Always run"
		default:
			return v
		}
	}
	return ""
}

func (s *stateReader) tool(c *conv, rowid int64, t time.Time, ok bool, model, bid string, tf *toolFormer) {
	id := firstNonEmpty(tf.ToolCallID, bid)
	input := argsJSON(tf.RawArgs, tf.Params)
	e := c.base(rowid, t, ok)
	e.TurnType, e.Model, e.ToolName, e.ToolUseID, e.ToolInput = timeline.ToolUse, model, tf.Name, id, input
	e.Text = identifying(input)
	s.out.Event(e)
	dec := decision(tf)
	if dec != "" {
		d := c.base(rowid, t, ok)
		d.TurnType, d.ToolName, d.ToolUseID = timeline.System, tf.Name, id
		d.Text = "permission decision: " + dec + " source=user"
		s.out.Event(d)
	}
	pending := tf.AdditionalData != nil && strings.EqualFold(tf.AdditionalData.Status, "pending")
	if pending && dec == "" {
		d := c.base(rowid, t, ok)
		d.TurnType, d.ToolName, d.ToolUseID = timeline.System, tf.Name, id
		d.Text = "permission prompt pending: " + firstNonEmpty(e.Text, tf.Name)
		s.out.Event(d)
		return
	}
	res := parser.JSONText(tf.Result)
	status := strings.ToLower(tf.Status)
	if res == "" && status != "error" && status != "cancelled" && status != "aborted" && dec != "Skip" {
		return
	}
	r := c.base(rowid, t, ok)
	r.TurnType, r.ToolName, r.ToolUseID = timeline.ToolResult, tf.Name, id
	text, failed := resultOf(res)
	if text == "" && status != "" {
		text = "status: " + tf.Status
	}
	r.Text = text
	r.IsError = strconv.FormatBool(failed || status == "error" || status == "cancelled" || status == "aborted" || dec == "Skip")
	s.out.Event(r)
}

// resultOf reads a toolFormerData result (JSON text): a terminal result's
// output and exit code, else the text as stored.
func resultOf(res string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(res), &m) != nil {
		return res, false
	}
	out := ""
	for _, k := range []string{"output", "contents", "content", "stdout"} {
		if v := parser.JSONText(m[k]); v != "" {
			out = v
			break
		}
	}
	if out == "" {
		out = res
	}
	failed := false
	for _, k := range []string{"exitCode", "exit_code", "exitCodeV2"} {
		if raw, ok := m[k]; ok {
			var code float64
			if json.Unmarshal(raw, &code) == nil {
				out += "\nexit code: " + strconv.FormatFloat(code, 'f', -1, 64)
				failed = failed || code != 0
				break
			}
		}
	}
	if e := parser.JSONText(m["error"]); e != "" && out == res {
		failed = true
	}
	return out, failed
}

// lexicalText extracts the text of a Lexical editor state (richText).
func lexicalText(raw json.RawMessage) string {
	s := parser.JSONText(raw)
	if s == "" {
		return ""
	}
	var root struct {
		Root json.RawMessage `json:"root"`
	}
	if json.Unmarshal([]byte(s), &root) != nil || len(root.Root) == 0 {
		return ""
	}
	var b strings.Builder
	var walk func(raw json.RawMessage, depth int)
	walk = func(raw json.RawMessage, depth int) {
		var n struct {
			Type     string            `json:"type"`
			Text     string            `json:"text"`
			Children []json.RawMessage `json:"children"`
		}
		if json.Unmarshal(raw, &n) != nil {
			return
		}
		b.WriteString(n.Text)
		for _, ch := range n.Children {
			walk(ch, depth+1)
		}
		if n.Type == "paragraph" {
			b.WriteString("\n")
		}
	}
	walk(root.Root, 0)
	return strings.TrimSpace(b.String())
}

// deleted emits a conversation whose header outlived its composerData: a
// "conversation deleted" row, and what survives of it (stray bubbles, the
// agent transcript) marked recovered.
func (s *stateReader) deleted(h *header, trs []transcript) error {
	c := &conv{session: h.id, project: h.project, created: h.created}
	if h.name != "" {
		s.sys(c, h.rowid, h.created, !h.created.IsZero(), "session name: "+h.name)
	}
	when, ok := h.updated, !h.updated.IsZero()
	if !ok {
		when, ok = h.created, !h.created.IsZero()
	}
	e := c.base(h.rowid, time.Time{}, false)
	e.Time, e.TimeBasis = when, timeline.TimeInherited
	if !ok {
		e.Time, e.TimeBasis = time.Time{}, timeline.TimeNone
	}
	e.TurnType, e.Text = timeline.System, "conversation deleted"
	s.out.Event(e)
	if h.archived {
		a := e
		a.Text = "conversation archived"
		s.out.Event(a)
	}
	shown := false
	n := 0
	if s.kv {
		n = s.orphanBubbles(c, h.id, &shown)
	}
	if err := s.transcripts(trs, h.project); err != nil {
		return err
	}
	rec := "partial"
	if n > 0 || len(trs) > 0 {
		rec = "yes"
	}
	s.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: h.id}, Recovered: rec})
	return nil
}

// transcripts emits the agent transcripts of one conversation (the main
// file, then its subagents), Secondary, naming each file as the source.
func (s *stateReader) transcripts(trs []transcript, project string) error {
	var errs []error
	for _, t := range trs {
		r, err := s.in.OpenRelated(t.file.Path)
		if err != nil {
			s.problem(0, "transcript "+t.file.Path+": "+err.Error())
			continue
		}
		err = emitTranscript(s.ctx, r, trOpts{source: t.file.Path, session: t.id, sub: t.sub, project: project}, s.out)
		r.Close()
		if err != nil {
			if s.ctx.Err() != nil {
				return err
			}
			errs = append(errs, fmt.Errorf("read %s: %w", t.file.Path, err))
		}
	}
	return errors.Join(errs...)
}

// settingKeyRe picks the permission keys of composerState: run modes,
// allow and deny lists and their switches.
var (
	settingKeyRe = regexp.MustCompile(`(?i)yolo|allowlist|denylist|autorun|runmode|run_mode|approval|sandbox|protection|autoaccept|mcpallowed|shouldautocontinue|fullauto|runeverything`)
	secretKeyRe  = regexp.MustCompile(`(?i)token|secret|password|apikey|api_key|credential|auth`)
)

// settings reads the ItemTable settings blob: permission settings and the
// models last used. Nothing else of it is read, so tokens never leave it.
func (s *stateReader) settings() {
	if !s.has("ItemTable") {
		return
	}
	var rowid int64
	var v []byte
	if s.queryErr(0, "ItemTable "+appUserKey, s.db.QueryRowContext(s.ctx, "SELECT rowid, value FROM ItemTable WHERE key = ?", appUserKey).Scan(&rowid, &v)) {
		return
	}
	var blob struct {
		ComposerState map[string]json.RawMessage `json:"composerState"`
		AISettings    struct {
			ModelConfig map[string]json.RawMessage `json:"modelConfig"`
		} `json:"aiSettings"`
	}
	if err := json.Unmarshal(v, &blob); err != nil {
		s.problem(rowid, "ItemTable settings: bad JSON: "+err.Error())
		return
	}
	file := parser.DisplayFile(&s.in.File)
	emit := func(text string) {
		e := parser.SettingEvent(&s.in.File)
		e.SourceLine, e.Text = rowid, text
		s.out.Event(e)
	}
	for _, kv := range flattenSettings("composerState", blob.ComposerState, true) {
		emit("permission setting: " + kv + " (from " + file + ", file mtime)")
	}
	byModel := map[string][]string{}
	for feature, raw := range blob.AISettings.ModelConfig {
		var mc modelConfig
		if json.Unmarshal(raw, &mc) == nil && mc.ModelName != "" {
			byModel[mc.ModelName] = append(byModel[mc.ModelName], feature)
		}
	}
	models := make([]string, 0, len(byModel))
	for m := range byModel {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		fs := byModel[m]
		sort.Strings(fs)
		emit("model last used: " + m + " (" + strings.Join(fs, ", ") + ")")
	}
}

// flattenSettings renders the permission entries of obj as key=value: a
// scalar as one entry, an array one entry per element, an object one level
// down. With filter, only permission-looking keys are kept; secret-looking
// keys never are.
func flattenSettings(prefix string, obj map[string]json.RawMessage, filter bool) []string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if secretKeyRe.MatchString(k) {
			continue
		}
		if filter && !settingKeyRe.MatchString(k) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		raw := strings.TrimSpace(string(obj[k]))
		name := prefix + "." + k
		switch {
		case raw == "" || raw == "null":
		case raw[0] == '[':
			var arr []json.RawMessage
			if json.Unmarshal([]byte(raw), &arr) == nil {
				for _, a := range arr {
					out = append(out, name+"="+parser.JSONText(a))
				}
			}
		case raw[0] == '{':
			var sub map[string]json.RawMessage
			if json.Unmarshal([]byte(raw), &sub) == nil {
				out = append(out, flattenSettings(name, sub, false)...)
			}
		default:
			out = append(out, name+"="+parser.JSONText(obj[k]))
		}
	}
	return out
}
