package grok

import (
	"context"
	"crypto/sha256"
	"io"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// updates.jsonl read as Grok Build itself replays it: the events of each
// turn (a typed prompt, the reply, the reasoning, the tool calls and their
// completions), the turn boundaries, and the rewind markers that cut a
// branch off (xai-grok-shell session/storage/mod.rs filter_rewind_by and
// collect_prompts_from_events at 19d42e3).

// update is one updates.jsonl line: an ACP session/update (or an xAI
// _x.ai/session/update) notification with the time Grok Build wrote it
// (SessionUpdateEnvelope.timestamp: epoch seconds; a fraction allowed).
type update struct {
	Timestamp json.RawMessage `json:"timestamp"`
	Method    string          `json:"method"`
	Params    *struct {
		Update *updateBody `json:"update"`
	} `json:"params"`
}

type updateBody struct {
	SessionUpdate string          `json:"sessionUpdate"`
	PromptID      string          `json:"prompt_id"`
	Usage         *usageBlock     `json:"usage"`
	Content       json.RawMessage `json:"content"`
	Meta          *struct {
		PromptIndex *int `json:"promptIndex"`
		HostTurn    bool `json:"hostTurn"`
	} `json:"_meta"`
	ToolCallID        string          `json:"toolCallId"`
	Status            string          `json:"status"`
	Title             string          `json:"title"`
	RawInput          json.RawMessage `json:"rawInput"`
	RawOutput         json.RawMessage `json:"rawOutput"`
	TargetPromptIndex *int            `json:"target_prompt_index"`
	CreatedAt         string          `json:"created_at"`
	// compaction_checkpoint (CompactionCheckpointInfo)
	CheckpointID       string `json:"checkpoint_id"`
	CheckpointFile     string `json:"checkpoint_file"`
	PromptIndexAtCompr *int   `json:"prompt_index_at_compaction"`
	AutoContinue       *struct {
		PromptText string `json:"prompt_text"`
	} `json:"auto_continue"`
}

// when is the line's time: epoch seconds (a number), or an RFC 3339 text.
func (u *update) when() (time.Time, bool) {
	if len(u.Timestamp) == 0 {
		return time.Time{}, false
	}
	var f float64
	if json.Unmarshal(u.Timestamp, &f) == nil {
		return epochSeconds(f)
	}
	if s, ok := parser.JSONString(u.Timestamp); ok {
		return parser.ParseTime(s)
	}
	return time.Time{}, false
}

// chunkText is the text of a message chunk's content block ("" for an
// image, a resource or anything else).
func chunkText(raw json.RawMessage) string {
	var c struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &c) != nil || c.Type != "text" {
		return ""
	}
	return c.Text
}

type itemKind uint8

const (
	kPrompt  itemKind = iota + 1 // a run of user_message_chunk: one prompt
	kHost                        // a run of user_message_chunk marked _meta.hostTurn (the harness's, not typed)
	kMessage                     // a run of agent_message_chunk: one reply
	kThought                     // a run of agent_thought_chunk: reasoning
	kCall                        // tool_call
	kResult                      // tool_call_update completed or failed
)

// item is one event of updates.jsonl: a run of chunks (their text hashed,
// and kept only when asked) or a tool call or completion.
type item struct {
	kind    itemKind
	line    int64     // the first line
	t       time.Time // zero when that line has no usable time
	sum     [sha256.Size]byte
	pi      int    // _meta.promptIndex of a prompt run, -1 when it has none
	counted bool   // a prompt Grok counts (rewind targets index these)
	id      string // the call id of a tool call or completion
	title   string // a tool call's title
	status  string // a completion's status
	input   string // a tool call's rawInput, kept only when asked
	text    string // kept only when asked
	deadBy  int64  // the line of the rewind marker that cut it off, 0 when live
}

// rewind is one rewind_marker.
type rewind struct {
	line      int64
	t         time.Time
	createdAt string
	target    int
	cut       int // items it cut off
}

// replay assembles the items of updates.jsonl line by line.
type replay struct {
	items   []item
	starts  []int // indices of the counted live prompts, in prompt order
	rewinds []rewind
	seenPI  bool
	// keep says whether an item starting at a line keeps its text.
	keep func(line int64) bool
	// done is called with every finished item (its text when kept).
	done func(it *item)

	run     *item
	text    strings.Builder
	runPI   *int
	runKind itemKind
}

// add reads one decoded line.
func (r *replay) add(n int64, u *update) {
	up := u.Params.Update
	t, _ := u.when()
	switch up.SessionUpdate {
	case "user_message_chunk":
		if up.Meta != nil && up.Meta.HostTurn {
			r.chunk(n, t, kHost, nil, chunkText(up.Content))
			return
		}
		var pi *int
		if up.Meta != nil {
			pi = up.Meta.PromptIndex
		}
		r.chunk(n, t, kPrompt, pi, chunkText(up.Content))
	case "agent_message_chunk":
		r.chunk(n, t, kMessage, nil, chunkText(up.Content))
	case "agent_thought_chunk":
		r.chunk(n, t, kThought, nil, chunkText(up.Content))
	case "tool_call":
		r.flush()
		it := item{kind: kCall, line: n, t: t, id: strings.TrimSpace(up.ToolCallID), title: up.Title, pi: -1}
		if r.keeps(n) {
			it.input = parser.CompactJSON(up.RawInput)
		}
		r.push(it)
	case "tool_call_update":
		if up.Status != "completed" && up.Status != "failed" {
			r.flush()
			return
		}
		r.flush()
		it := item{kind: kResult, line: n, t: t, id: strings.TrimSpace(up.ToolCallID), status: up.Status, pi: -1}
		if r.keeps(n) {
			it.text = resultText(up.Content, up.RawOutput)
		}
		r.push(it)
	case "rewind_marker":
		r.flush()
		rw := rewind{line: n, t: t, createdAt: up.CreatedAt, target: -1}
		if up.TargetPromptIndex != nil {
			rw.target = *up.TargetPromptIndex
		}
		// Rewinding to prompt N keeps prompts 0..N-1: everything from
		// prompt N's first line on is cut off (an out-of-range target
		// keeps all).
		if rw.target >= 0 && rw.target < len(r.starts) {
			for i := r.starts[rw.target]; i < len(r.items); i++ {
				if r.items[i].deadBy == 0 {
					r.items[i].deadBy = n
					rw.cut++
				}
			}
			r.starts = r.starts[:rw.target]
		}
		r.rewinds = append(r.rewinds, rw)
	default:
		r.flush()
	}
}

func (r *replay) keeps(n int64) bool { return r.keep != nil && r.keep(n) }

// chunk adds a message chunk: it continues the run of its kind, or opens
// a new one. A prompt run follows Grok's turn tracker: once any chunk
// carries a promptIndex, only marked chunks open counted prompts, and a
// change of promptIndex opens a new one.
func (r *replay) chunk(n int64, t time.Time, kind itemKind, pi *int, text string) {
	if r.run != nil && r.runKind == kind {
		cont := true
		if kind == kPrompt && (r.seenPI || pi != nil) && !samePI(pi, r.runPI) {
			cont = false
		}
		if cont {
			if kind == kPrompt && r.runPI == nil && pi != nil {
				r.runPI = pi
				r.run.pi, r.run.counted = *pi, true
				r.seenPI = true
			}
			r.write(text)
			return
		}
	}
	r.flush()
	if pi != nil {
		r.seenPI = true
	}
	r.run = &item{kind: kind, line: n, t: t, pi: -1}
	r.runKind, r.runPI = kind, pi
	if kind == kPrompt {
		r.run.counted = !r.seenPI || pi != nil
		if pi != nil {
			r.run.pi = *pi
		}
	}
	r.text.Reset()
	r.write(text)
}

func samePI(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func (r *replay) write(s string) {
	r.text.WriteString(s)
}

// flush ends the open run: its text trimmed (as Grok trims a prompt) and
// hashed.
func (r *replay) flush() {
	if r.run == nil {
		return
	}
	it := *r.run
	s := strings.TrimSpace(r.text.String())
	it.sum = sha256.Sum256([]byte(s))
	if r.keeps(it.line) {
		it.text = s
	}
	r.run = nil
	r.text.Reset()
	r.push(it)
}

func (r *replay) push(it item) {
	if it.kind == kPrompt && it.counted {
		r.starts = append(r.starts, len(r.items))
	}
	r.items = append(r.items, it)
	if r.done != nil {
		r.done(&r.items[len(r.items)-1])
	}
}

// readReplay reads updates.jsonl whole into a replay, calling line for
// every line read (decoded, or nil with the error).
func readReplay(ctx context.Context, rc io.Reader, out parser.Sink, r *replay, line func(n int64, u *update, err error)) error {
	err := parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var u update
		if err := json.Unmarshal(b, &u); err != nil {
			if line != nil {
				line(n, nil, err)
			}
			r.flush()
			return nil
		}
		if u.Params != nil && u.Params.Update != nil {
			r.add(n, &u)
		} else {
			r.flush()
		}
		if line != nil {
			line(n, &u, nil)
		}
		return nil
	})
	r.flush()
	return err
}

// resultText is a completion's output: its content blocks' text, else its
// rawOutput as JSON.
func resultText(content, raw json.RawMessage) string {
	var blocks []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Content *struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(content, &blocks) == nil {
		var ts []string
		for _, b := range blocks {
			switch {
			case b.Content != nil && b.Content.Text != "":
				ts = append(ts, b.Content.Text)
			case b.Text != "":
				ts = append(ts, b.Text)
			}
		}
		if len(ts) > 0 {
			return strings.Join(ts, "\n")
		}
	}
	if len(raw) > 0 && string(raw) != "null" {
		if s, ok := parser.JSONString(raw); ok {
			return s
		}
		return parser.CompactJSON(raw)
	}
	return ""
}
