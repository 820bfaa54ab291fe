package codexhome

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// A rollout's records belong to one session, except in a fork. A fork
// rollout (session_meta.forked_from_id, codex #21025, #35003) opens with
// the fork's own session_meta, then replays its parent's rollout items,
// each line re-stamped to the fork time: the parent's session_meta first
// (and, when the parent is itself a fork, its own parent's after it),
// then the parent's prompts, calls and results, then the fork's own
// turns. The tracker below follows whose records a line holds.
//
// The replay ends (the owner returns to the session below it) when:
//   - a record names a turn id whose UUIDv7 time is at or after the
//     creation of the session below (turn ids are minted when a turn
//     starts, so a replayed turn predates the fork and the fork's own
//     first turn does not; the same test ends a grandparent's replay
//     inside a parent's);
//   - an event names the thread it belongs to (item_completed and
//     thread_settings_applied carry thread_id) and that thread is below;
//   - the session_meta of a session below is repeated;
//   - in a file with no UUIDv7 turn id in the replay (builds before turn
//     ids), a record stamped more than replayGap after the replay began:
//     the replay is written in one burst at fork time. This last rule is a
//     heuristic, used only where the file records nothing better.
//
// A session_meta of another session in a file that is no fork (a spawned
// subagent's rollout repeats its parent's) is a copy of that record alone:
// its rows are the parent's, replayed, and the owner returns at once.

const replayGap = 2 * time.Second

// owner is the session a run of records belongs to and what the parser
// shows of it.
type owner struct {
	sid string
	// parent is the session the owner's rows name as parent: a spawned
	// subagent's parent thread, else the session it was forked from.
	parent     string
	forkedFrom string
	// subagent: the owner is a subagent, whose prompts the parent model
	// (or Codex) wrote.
	subagent bool
	replayed bool
	created  time.Time // UUIDv7 time of the id, else the meta's timestamp
	start    time.Time // the meta's timestamp (rows without a time inherit it)
	turnTime time.Time // UUIDv7 time of the latest turn id of the owner
	// presentation state
	cwd, model, modelShown, permShown string
	callNames                         map[string]string
	counts                            map[ordKey]int
	pre                               *ownerPre
}

// ownerPre is what the first pass learns of an owner's records: the
// texts and call ids its response items carry, so that the event_msg
// twins of those items are not emitted twice.
type ownerPre struct {
	// evUser holds the texts of the user_message events (and 0.148+
	// item_completed user messages); when there are any, they are the user
	// rows and the user-role response items repeat them.
	evUser map[uint64]bool
	// respAssistant, respReasoning: the owner has assistant messages or
	// reasoning summaries as response items, which are then the rows and
	// the agent_message / agent_reasoning events their twins.
	respAssistant, respReasoning bool
	// respCalls are the call ids of the response items' tool calls.
	respCalls map[string]bool
	// model and cwd of the owner's first turn_context, for the rows before
	// it.
	model, cwd string
}

func newOwnerPre() *ownerPre {
	return &ownerPre{evUser: map[uint64]bool{}, respCalls: map[string]bool{}}
}

// ordKey is a record kind and payload type ("response_item", "message").
type ordKey struct{ kind, typ string }

// ordinal is a record's position among the owner's records of its kind;
// its id string is built only when the row needs it.
type ordinal struct {
	o         *owner
	kind, typ string
	n         int
}

// next returns the owner's next ordinal for records of kind and type.
func (o *owner) next(kind, typ string) ordinal {
	k := ordKey{kind, typ}
	n := o.counts[k]
	o.counts[k] = n + 1
	return ordinal{o: o, kind: kind, typ: typ, n: n}
}

// String is the record id of a record the agent gave no id: its kind and
// position among the owner's records of that kind ("<session>/
// response_item.message:3"), the same in the parent's rollout and in a
// fork's replay of it.
func (r ordinal) String() string {
	k := r.kind
	if r.typ != "" {
		k += "." + r.typ
	}
	return r.o.sid + "/" + k + ":" + strconv.Itoa(r.n)
}

// rid is a record id in the owner's session: "<session>/<id>".
func (o *owner) rid(id string) string {
	if id == "" {
		return ""
	}
	return o.sid + "/" + id
}

// tracker follows the owner of each record of one rollout. Both passes
// over a file run it over the same records, so they see the same owners.
type tracker struct {
	stack  []*owner
	owners map[string]*owner
	fork   bool // the file's own session_meta has forked_from_id
	// replay fallback (no UUIDv7 turn id seen since the replay began)
	replayBegan time.Time
	sawTurnID   bool
	fallbackID  string // the session id from the file name
}

func newTracker(fallbackID string) *tracker {
	return &tracker{owners: map[string]*owner{}, fallbackID: fallbackID}
}

func (t *tracker) cur() *owner {
	if len(t.stack) == 0 {
		t.push(t.newOwner(t.fallbackID), false)
	}
	return t.stack[len(t.stack)-1]
}

func (t *tracker) newOwner(sid string) *owner {
	o := &owner{sid: sid, callNames: map[string]string{}, counts: map[ordKey]int{}}
	if p, ok := t.owners[sid]; ok {
		o.pre = p.pre
	} else {
		o.pre = newOwnerPre()
	}
	t.owners[sid] = o
	o.model, o.cwd = o.pre.model, o.pre.cwd
	if ts, ok := uuidV7Time(sid); ok {
		o.created = ts
	}
	return o
}

func (t *tracker) push(o *owner, replayed bool) {
	o.replayed = replayed
	t.stack = append(t.stack, o)
}

// popTo makes the stack entry of session sid (below the top) the owner;
// false when sid is not below the top.
func (t *tracker) popTo(sid string) bool {
	for i := len(t.stack) - 2; i >= 0; i-- {
		if t.stack[i].sid == sid {
			t.stack = t.stack[:i+1]
			t.replayBegan, t.sawTurnID = time.Time{}, false
			return true
		}
	}
	return false
}

// meta handles a session_meta record and reports what it is: "self" (the
// file's own, the first), "repeat" (a session below repeated: the replay
// ended), "replay" (another session whose records follow, in a fork),
// "copy" (another session's meta alone, in a file that is no fork).
func (t *tracker) meta(m *sessionMeta, envTS string) (string, *owner) {
	id := m.id()
	if len(t.stack) == 0 {
		if id == "" {
			id = t.fallbackID
		}
		o := t.newOwner(id)
		o.describe(m)
		t.fork = m.ForkedFromID != ""
		t.push(o, false)
		return "self", o
	}
	if id == "" || id == t.cur().sid {
		return "repeat", t.cur()
	}
	if t.popTo(id) {
		return "repeat", t.cur()
	}
	o := t.newOwner(id)
	o.describe(m)
	if !t.fork {
		return "copy", o
	}
	t.push(o, true)
	if ts, ok := parser.ParseTime(envTS); ok && t.replayBegan.IsZero() {
		t.replayBegan = ts
	}
	return "replay", o
}

// describe fills an owner from its session_meta.
func (o *owner) describe(m *sessionMeta) {
	ts, ok := parser.ParseTime(m.Timestamp)
	if ok {
		o.start = ts
		if o.created.IsZero() {
			o.created = ts
		}
	}
	if m.Cwd != "" {
		o.cwd = m.Cwd
	}
	src, parent := sourceOf(m.Source)
	o.subagent = strings.HasPrefix(src, "subagent")
	o.forkedFrom = m.ForkedFromID
	o.parent = parent
	if o.parent == "" {
		o.parent = m.ForkedFromID
	}
}

// recordHint is what a record says of its owner.
type recordHint struct {
	TurnID   string `json:"turn_id"`
	ThreadID string `json:"thread_id"`
	Attr     struct {
		TurnID string `json:"turn_id"`
	} `json:"turn_attribution"`
	Pass struct {
		TurnID string `json:"turn_id"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

func (h *recordHint) turnID() string {
	switch {
	case h.TurnID != "":
		return h.TurnID
	case h.Attr.TurnID != "":
		return h.Attr.TurnID
	}
	return h.Pass.TurnID
}

// observe updates the owner from a record that is no session_meta; it
// reads the payload only in a replay or to follow turn times.
func (t *tracker) observe(rec record) {
	if len(rec.payload) == 0 {
		return
	}
	var h recordHint
	if json.Unmarshal(rec.payload, &h) != nil {
		return
	}
	if len(t.stack) > 1 {
		if h.ThreadID != "" && t.popTo(h.ThreadID) {
			// the event names a thread below: the replay ended
		} else if tt, ok := uuidV7Time(h.turnID()); ok {
			t.sawTurnID = true
			for len(t.stack) > 1 && !tt.Before(t.stack[len(t.stack)-2].created) && !t.stack[len(t.stack)-2].created.IsZero() {
				t.popTo(t.stack[len(t.stack)-2].sid)
			}
		} else if !t.sawTurnID && !t.replayBegan.IsZero() {
			if ts, ok := parser.ParseTime(rec.ts); ok && ts.Sub(t.replayBegan) > replayGap {
				t.popTo(t.stack[0].sid)
			}
		}
	}
	if tt, ok := uuidV7Time(h.turnID()); ok {
		t.cur().turnTime = tt
	}
}

// needsHints reports whether observe must read the record: in a fork's
// replay, or for a replayed owner's turn times.
func (t *tracker) needsHints() bool { return t.fork || len(t.stack) > 1 }

// uuidV7Time reads the millisecond time of a version-7 UUID.
func uuidV7Time(s string) (time.Time, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[14] != '7' {
		return time.Time{}, false
	}
	h := s[:8] + s[9:13]
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 6 {
		return time.Time{}, false
	}
	var ms int64
	for _, c := range b {
		ms = ms<<8 | int64(c)
	}
	if ms <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}
