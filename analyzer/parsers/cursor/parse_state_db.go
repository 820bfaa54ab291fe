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
	"github.com/doubleagent/doubleagent/analyzer/parser/format/vscodestate"
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
	ctx context.Context
	st  *vscodestate.VSCodeState
	db  *sql.DB
	in  *parser.Input
	out parser.Sink
	kv  bool
	// cloud are the cloud agents' ids (cloudAgentRepository.agents.*):
	// their sessions are remote, not local.
	cloud map[string]bool
	// orig is the parser's sink (out is a recovered record's while its
	// rows are emitted); carved the recovered cursorDiskKV records by key
	// (loadCarved).
	orig   parser.Sink
	carved map[string]*carvedKV
}

func parseStateDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	st, err := vscodestate.OpenVSCodeState(ctx, in, out)
	if err != nil {
		out.Problem(0, vscodestate.NotReadable(err))
		return nil
	}
	if st == nil {
		return nil // not a state database: CheckStore said so
	}
	s := &stateReader{ctx: ctx, st: st, db: st.DB(), in: in, out: out, orig: out, kv: st.HasKV(), cloud: map[string]bool{}}
	carved := parser.Carve(ctx, in, s.db, out)
	defer carved.Done(out)
	if s.kv {
		s.loadCarved(carved)
	}
	var errs []error
	if st.HasItems() {
		if err := s.items(); err != nil {
			if ctx.Err() != nil {
				return err
			}
			errs = append(errs, err)
		}
	}
	headers := s.readHeaders()
	live := map[string]bool{}
	if s.kv {
		parents := s.readParents()
		err := st.KVs(ctx, "composerData:", func(r vscodestate.StateRow) error {
			id := strings.TrimPrefix(r.Key, "composerData:")
			live[id] = true
			if err := s.composer(id, r, headers[id], parents[id]); err != nil {
				if ctx.Err() != nil {
					return err
				}
				errs = append(errs, err)
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			errs = append(errs, fmt.Errorf("read composers in %s: %w", in.Path, err))
		}
		s.carvedComposers(headers, parents, live)
	}
	var hids []string
	for id, h := range headers {
		if live[id] {
			if h.rowid != 0 {
				out.Skip(h.rowid, "state_only") // folded into the composer's rows
			}
			continue
		}
		hids = append(hids, id)
	}
	sort.Strings(hids)
	blobs := s.deletedBlobs(hids)
	for _, id := range hids {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.deleted(headers[id], blobs[id])
	}
	s.settings()
	s.carvedLeft()
	return errors.Join(errs...)
}

func (s *stateReader) problem(rowid int64, msg string) { s.out.Problem(rowid, msg) }

// prefixRange returns the key range [lo, hi) of the keys starting with p
// (p ends with ':'; ';' sorts right after it), so the key index is used.
func prefixRange(p string) (string, string) { return p, p[:len(p)-1] + ";" }

// readParents maps each subagent composer to its parent (subComposerIds).
func (s *stateReader) readParents() map[string]string {
	lo, hi := prefixRange("composerData:")
	out := map[string]string{}
	rows, err := s.db.QueryContext(s.ctx, `SELECT key, json_extract(CAST(value AS TEXT), '$.subComposerIds') FROM cursorDiskKV
		WHERE key >= ? AND key < ? AND json_valid(CAST(value AS TEXT)) AND json_type(CAST(value AS TEXT), '$.subComposerIds') = 'array'`, lo, hi)
	if err != nil {
		s.problem(0, "cursorDiskKV subComposerIds: "+err.Error())
		return out
	}
	defer rows.Close()
	defer func() {
		if err := rows.Err(); err != nil {
			s.problem(0, "cursorDiskKV subComposerIds: "+err.Error())
		}
	}()
	for rows.Next() {
		var key string
		var subs sql.NullString
		if err := rows.Scan(&key, &subs); err != nil {
			s.problem(0, "cursorDiskKV subComposerIds: "+err.Error())
			continue
		}
		if !subs.Valid {
			continue
		}
		var ids []string
		if err := json.Unmarshal([]byte(subs.String), &ids); err != nil {
			s.problem(0, key+": subComposerIds: "+parser.JSONError(err))
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
	if r, ok, err := s.st.Item(s.ctx, "composer.composerHeaders"); err != nil {
		s.problem(0, err.Error())
	} else if ok {
		var all struct {
			AllComposers []headerJSON `json:"allComposers"`
		}
		if err := r.JSON(&all); err != nil {
			s.problem(r.Rowid, r.NotObject(err))
		} else if len(all.AllComposers) == 0 {
			s.out.Skip(r.Rowid, "no_content")
		} else {
			s.out.Skip(r.Rowid, "state_only") // folded into each composer's rows
		}
		for _, h := range all.AllComposers {
			add(0, h, 0, 0, "")
		}
	}
	if ok, err := parser.HasTable(s.ctx, s.db, "composerHeaders"); err != nil || !ok {
		if err != nil {
			s.problem(0, err.Error())
		}
		return out
	}
	err := parser.EachTableRow(s.ctx, s.db, "composerHeaders", func(r parser.Row) error {
		m := r.Vals
		var h headerJSON
		if v := parser.SQLText(m["value"]); v != "" {
			if err := json.Unmarshal([]byte(v), &h); err != nil {
				s.problem(r.Rowid, parser.NotJSON("composerHeaders", err))
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
	id      string // the composer's id: the base of its rows' record ids
	session string
	parent  string // the parent composer of a subagent
	project string
	model   string // the model of the latest user message
	def     string // the composer's modelConfig model
	last    time.Time
	created time.Time
}

func (c *conv) base(rowid int64, t time.Time, ok bool) timeline.Event {
	e := timeline.Event{SessionID: c.session, ParentSessionID: c.parent, ProjectPath: c.project, SourceLine: rowid}
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

// sys emits a row derived from the composer record: its record id is
// "<composer>#<word>".
func (s *stateReader) sys(c *conv, rowid int64, t time.Time, ok bool, word, text string) {
	e := c.base(rowid, t, ok)
	e.TurnType, e.Text, e.RecordID = timeline.System, text, c.id+"#"+word
	s.out.Event(e)
}

// composer emits one composerData record and its bubbles. A composer
// listed in another's subComposerIds is a subagent: its rows carry its own
// session id and the parent's (ParentSessionID), after "subagent <id> of
// <parent>", and its user bubbles are the parent model's task prompts.
func (s *stateReader) composer(id string, r vscodestate.StateRow, h *header, parent string) error {
	rowid := r.Rowid
	var cd composerData
	bad := false
	switch {
	case r.TooLarge:
		s.problem(rowid, "composerData:"+id+": "+fmt.Sprintf("value of %d bytes over the %d-byte bound: not read", r.Size, vscodestate.MaxStateValue))
		bad = true
	case len(r.Value) == 0:
		bad = true
	default:
		if err := json.Unmarshal(r.Value, &cd); err != nil {
			s.problem(rowid, parser.NotJSON("composerData:"+id, err))
			bad = true
		}
	}
	c := &conv{id: id, session: id, parent: parent, project: workspaceFolder(cd.WorkspaceIdentifier)}
	if h != nil && c.project == "" {
		c.project = h.project
	}
	st := timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: id}, ParentSessionID: parent}
	if !s.cloud[id] {
		// A composer of this database ran in this editor: origin local.
		st.Origin = "local"
	}
	s.out.Session(st)
	created, cok := jsonTime(cd.CreatedAt)
	if !cok && h != nil && !h.created.IsZero() {
		created, cok = h.created, true
	}
	c.created = created
	updated, uok := jsonTime(cd.LastUpdatedAt)
	if cd.ModelConfig != nil {
		c.model = cd.ModelConfig.ModelName
	}
	n0 := 0
	if parent != "" {
		s.sys(c, rowid, created, cok, "subagent", "subagent "+id+" of "+parent)
		n0++
	}
	name := cd.Name
	if name == "" && h != nil {
		name = h.name
	}
	if name != "" {
		s.sys(c, rowid, created, cok, "name", "session name: "+name)
		n0++
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
					s.problem(rowid, parser.NotJSON(fmt.Sprintf("composerData:%s: conversation[%d]", id, i), err))
					continue
				}
				bid := bb.BubbleID
				if bid == "" {
					bid = "conversation[" + strconv.Itoa(i) + "]"
				}
				s.bubble(c, rowid, bid, &bb, &modelShown)
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
		s.sys(c, rowid, created, cok, "model", "model: "+first)
		n0++
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
		e.TurnType, e.Text, e.RecordID = timeline.System, "conversation archived", id+"#archived"
		s.out.Event(e)
		n0++
	}
	if strings.TrimSpace(cd.Text) != "" {
		s.sys(c, rowid, updated, uok, "draft", "unsent draft: "+cd.Text)
		n0++
	}
	if n0 == 0 && !bad {
		s.out.Skip(rowid, "state_only") // its bubbles give the rows
	}
	return nil
}

// chunkHeaders reads the composerConvHeaders:<id>:<NNNNNN> chunks (3.26+)
// in key order. A chunk is an array of {bubbleId,type} or an object
// holding one.
func (s *stateReader) chunkHeaders(id string) []bubbleHeader {
	var out []bubbleHeader
	err := s.st.KVs(s.ctx, "composerConvHeaders:"+id+":", func(r vscodestate.StateRow) error {
		var hs []bubbleHeader
		if err := r.JSON(&hs); err == nil {
			out = append(out, hs...)
			s.out.Skip(r.Rowid, "state_only") // the bubble order
			return nil
		}
		var obj map[string]json.RawMessage
		if err := r.JSON(&obj); err != nil {
			s.problem(r.Rowid, r.NotJSON(err))
			return nil
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
		s.out.Skip(r.Rowid, "state_only")
		return nil
	})
	if err != nil {
		s.problem(0, "composerConvHeaders:"+id+": "+err.Error())
	}
	return out
}

// bubbleByID reads and emits bubbleId:<composer>:<bubble>.
func (s *stateReader) bubbleByID(c *conv, composer, bid string, modelShown *bool) bool {
	if bid == "" {
		return false
	}
	key := "bubbleId:" + composer + ":" + bid
	r, ok, err := s.st.KV(s.ctx, key)
	if err != nil {
		s.problem(0, err.Error())
		return false
	}
	if !ok {
		// deleted: recovered from freed space when it survived there
		if ck := s.carved[key]; ck != nil && !ck.used {
			return s.recoveredBubble(c, ck, bid, modelShown)
		}
		return false
	}
	return s.bubbleRow(c, r, bid, modelShown)
}

func (s *stateReader) bubbleRow(c *conv, r vscodestate.StateRow, bid string, modelShown *bool) bool {
	var b bubble
	if err := r.JSON(&b); err != nil {
		s.problem(r.Rowid, r.NotObject(err))
		return false
	}
	s.bubble(c, r.Rowid, bid, &b, modelShown)
	return true
}

// orphanBubbles emits the bubbles of a composer that no header list names
// (no composerData, a malformed one, or one without headers), in key
// order.
func (s *stateReader) orphanBubbles(c *conv, composer string, modelShown *bool) int {
	n := 0
	prefix := "bubbleId:" + composer + ":"
	err := s.st.KVs(s.ctx, prefix, func(r vscodestate.StateRow) error {
		if s.bubbleRow(c, r, strings.TrimPrefix(r.Key, prefix), modelShown) {
			n++
		}
		return nil
	})
	if err != nil {
		s.problem(0, prefix+": "+err.Error())
	}
	for _, k := range s.carvedWithPrefix(prefix) {
		if s.recoveredBubble(c, s.carved[k], strings.TrimPrefix(k, prefix), modelShown) {
			n++
		}
	}
	return n
}

// bubble emits the rows of one bubble: record ids "<composer>:<bubble>#<k>"
// (k the row's index in the bubble), "#model" for a model change,
// "#decision" and "#pending" for the permission prompt of its call.
func (s *stateReader) bubble(c *conv, rowid int64, bid string, b *bubble, modelShown *bool) {
	t, ok := jsonTime(b.CreatedAt)
	if !ok && b.TimingInfo != nil {
		t, ok = jsonTime(b.TimingInfo.ClientStartTime)
	}
	rid := c.id + ":" + bid
	k := 0
	emit := func(e timeline.Event) {
		e.RecordID = rid + "#" + strconv.Itoa(k)
		k++
		s.out.Event(e)
	}
	if b.Type == 1 {
		if b.ModelInfo != nil && b.ModelInfo.ModelName != "" && b.ModelInfo.ModelName != c.model {
			text := "model: " + b.ModelInfo.ModelName
			if c.model != "" {
				text = "model: " + c.model + " -> " + b.ModelInfo.ModelName
			}
			c.model = b.ModelInfo.ModelName
			*modelShown = true
			e := c.base(rowid, t, ok)
			e.TurnType, e.Text, e.RecordID = timeline.System, text, rid+"#model"
			s.out.Event(e)
		}
		text := b.Text
		if strings.TrimSpace(text) == "" {
			text = lexicalText(b.RichText)
		}
		if strings.TrimSpace(text) == "" {
			s.out.Skip(rowid, "no_content")
			return
		}
		e := c.base(rowid, t, ok)
		if c.parent != "" {
			e.TurnType, e.Text = timeline.System, "subagent task: "+text
		} else {
			e.TurnType, e.Text = timeline.User, text
		}
		emit(e)
		return
	}
	model := firstNonEmpty(c.model, c.def)
	if b.ModelInfo != nil && b.ModelInfo.ModelName != "" {
		model = b.ModelInfo.ModelName
	}
	row := func(tt timeline.TurnType, text string) {
		e := c.base(rowid, t, ok)
		e.TurnType, e.Text, e.Model = tt, text, model
		emit(e)
	}
	if b.Thinking != nil && strings.TrimSpace(b.Thinking.Text) != "" {
		row(timeline.Thinking, b.Thinking.Text)
	}
	for _, tb := range b.AllThinkingBlocks {
		var x struct{ Text, Content, Thinking string }
		text := parser.JSONText(tb)
		if json.Unmarshal(tb, &x) == nil {
			text = firstNonEmpty(x.Text, x.Thinking, x.Content)
		}
		if strings.TrimSpace(text) != "" {
			row(timeline.Thinking, text)
		}
	}
	if strings.TrimSpace(b.Text) != "" {
		row(timeline.Assistant, b.Text)
	}
	if tf := b.ToolFormerData; tf != nil && tf.Name != "" {
		k += s.tool(c, rowid, t, ok, model, rid, k, bid, tf)
	}
	if k == 0 {
		s.out.Skip(rowid, "no_content")
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

// tool emits a tool call's rows (record ids rid#k.., rid#decision,
// rid#pending) and returns how many numbered rows it wrote.
func (s *stateReader) tool(c *conv, rowid int64, t time.Time, ok bool, model, rid string, k int, bid string, tf *toolFormer) int {
	id := firstNonEmpty(tf.ToolCallID, bid)
	input := argsJSON(tf.RawArgs, tf.Params)
	e := c.base(rowid, t, ok)
	e.TurnType, e.Model, e.ToolName, e.ToolUseID, e.ToolInput = timeline.ToolUse, model, tf.Name, id, input
	e.Text = identifying(input)
	e.RecordID = rid + "#" + strconv.Itoa(k)
	s.out.Event(e)
	dec := decision(tf)
	if dec != "" {
		d := c.base(rowid, t, ok)
		d.TurnType, d.ToolName, d.ToolUseID = timeline.System, tf.Name, id
		d.Text = "permission decision: " + dec + " source=user"
		d.RecordID = rid + "#decision"
		s.out.Event(d)
	}
	pending := tf.AdditionalData != nil && strings.EqualFold(tf.AdditionalData.Status, "pending")
	if pending && dec == "" {
		d := c.base(rowid, t, ok)
		d.TurnType, d.ToolName, d.ToolUseID = timeline.System, tf.Name, id
		d.Text = "permission prompt pending: " + firstNonEmpty(e.Text, tf.Name)
		d.RecordID = rid + "#pending"
		s.out.Event(d)
		return 1
	}
	res := parser.JSONText(tf.Result)
	status := strings.ToLower(tf.Status)
	if res == "" && status != "error" && status != "cancelled" && status != "aborted" && dec != "Skip" {
		return 1
	}
	r := c.base(rowid, t, ok)
	r.TurnType, r.ToolName, r.ToolUseID = timeline.ToolResult, tf.Name, id
	text, failed := resultOf(res)
	if text == "" && status != "" {
		text = "status: " + tf.Status
	}
	r.Text = text
	r.IsError = strconv.FormatBool(failed || status == "error" || status == "cancelled" || status == "aborted" || dec == "Skip")
	r.RecordID = rid + "#" + strconv.Itoa(k+1)
	s.out.Event(r)
	return 2
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
// "conversation deleted" row and what survives of it in this database
// (stray bubbles, the agentKv:blob:* prompts that name it). The
// conversation is gone from its store of record, so the session reads
// recovered yes; its agent transcript, when collected, gives its own rows
// (cursor/transcript).
func (s *stateReader) deleted(h *header, blobs []vscodestate.StateRow) {
	c := &conv{id: h.id, session: h.id, project: h.project, created: h.created}
	if h.name != "" {
		s.sys(c, h.rowid, h.created, !h.created.IsZero(), "name", "session name: "+h.name)
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
	e.TurnType, e.Text, e.RecordID = timeline.System, "conversation deleted", h.id+"#deleted"
	s.out.Event(e)
	if h.archived {
		a := e
		a.Text, a.RecordID = "conversation archived", h.id+"#archived"
		s.out.Event(a)
	}
	shown := false
	kept := len(blobs)
	if s.kv {
		kept += s.orphanBubbles(c, h.id, &shown)
	}
	for _, b := range blobs {
		s.blob(c, b)
	}
	s.out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: h.id}, Origin: "local", Recovered: deletedState(kept)})
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
	r, ok, err := s.st.Item(s.ctx, appUserKey)
	if err != nil {
		s.problem(0, err.Error())
		return
	}
	if !ok {
		return
	}
	rowid := r.Rowid
	var blob struct {
		ComposerState map[string]json.RawMessage `json:"composerState"`
		AISettings    struct {
			ModelConfig map[string]json.RawMessage `json:"modelConfig"`
		} `json:"aiSettings"`
	}
	if err := r.JSON(&blob); err != nil {
		s.problem(rowid, r.NotObject(err))
		return
	}
	file := parser.DisplayFile(&s.in.File)
	n := 0
	// Settings rows carry no record id: the file is their identity (the
	// engine's full-value keys drop the same file read twice).
	emit := func(_, text string) {
		e := parser.SettingEvent(&s.in.File)
		e.SourceLine, e.Text = rowid, text
		n++
		s.out.Event(e)
	}
	for _, kv := range flattenSettings("composerState", blob.ComposerState, true) {
		emit(kv, "permission setting: "+kv+" (from "+file+", file mtime)")
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
		emit("model:"+m, "model last used: "+m+" ("+strings.Join(fs, ", ")+")")
	}
	if n == 0 {
		s.out.Skip(rowid, "no_evidence:settings")
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
