package kiro

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Kiro CLI 2.x session store: ~/.kiro/sessions/cli/<id>.jsonl (one
// record a line: {"version": "v1", "kind": ..., "data": {message_id,
// content: [{kind, data}], meta: {timestamp}}}) and <id>.json beside it
// (the session's state: session_id, cwd, title, created_at, updated_at,
// session_state with the model and per-turn metadata). The CLI is closed
// source; the shapes are those kenn-io/agentsview 5386007 reads
// (internal/parser/kiro.go) and third-party readers of kiro-cli 2.x files
// describe (see doc.go).

// sessionRecord is one line of <id>.jsonl.
type sessionRecord struct {
	Version string      `json:"version"`
	Kind    string      `json:"kind"`
	Data    *recordData `json:"data"`
}

type recordData struct {
	MessageID string         `json:"message_id"`
	Content   []contentBlock `json:"content"`
	Meta      *struct {
		Timestamp *float64 `json:"timestamp"`
	} `json:"meta"`
}

type contentBlock struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data"`
}

// sessionMeta is <id>.json.
type sessionMeta struct {
	SessionID    string `json:"session_id"`
	CWD          string `json:"cwd"`
	Title        string `json:"title"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	SessionState *struct {
		Version   string     `json:"version"`
		ModelInfo *modelInfo `json:"model_info"`
		RTS       *struct {
			ModelInfo *modelInfo `json:"model_info"`
		} `json:"rts_model_state"`
		ConversationMetadata *struct {
			UserTurnMetadatas []map[string]json.RawMessage `json:"user_turn_metadatas"`
		} `json:"conversation_metadata"`
	} `json:"session_state"`
}

type modelInfo struct {
	ModelID   string `json:"model_id"`
	ModelName string `json:"model_name"`
}

func (m *sessionMeta) model() string {
	if m.SessionState == nil {
		return ""
	}
	for _, mi := range []*modelInfo{m.SessionState.ModelInfo, rtsModel(m)} {
		if mi != nil && mi.ModelID != "" {
			return mi.ModelID
		}
		if mi != nil && mi.ModelName != "" {
			return mi.ModelName
		}
	}
	return ""
}

func rtsModel(m *sessionMeta) *modelInfo {
	if m.SessionState.RTS == nil {
		return nil
	}
	return m.SessionState.RTS.ModelInfo
}

// inCLIStore reports whether p is a file directly under .kiro/sessions/cli.
func inCLIStore(p string) bool {
	d := path.Dir(strings.ReplaceAll(p, "\\", "/"))
	return path.Base(d) == "cli" && path.Base(path.Dir(d)) == "sessions"
}

// parseSessionFile reads one file of the .kiro/sessions target: a CLI
// session's transcript (<id>.jsonl) or its state (<id>.json); the CLI's
// <id>.lock beside them a counted skip, its sess_<id>.history (both named
// by Dicklesworthstone/coding_agent_session_search 28b3191,
// src/connectors/kiro.rs, which skips them) read as rustyline file
// history when it carries rustyline's "#V2" header, else one
// skipped_record problem; the IDE's <workspace>/<session>/session.json and
// messages.jsonl (idesessions.go); anything else under .kiro/sessions
// (the IDE's snapshots/, a file of no known name) one skipped_record
// problem naming it.
func parseSessionFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if sid, ok := ideSessionFile(in.Path); ok && !inCLIStore(in.Path) {
		if in.Base() == "session.json" {
			return parseIDESessionMeta(in, out, sid)
		}
		return parseIDEMessages(ctx, in, out, sid)
	}
	if !inCLIStore(in.Path) {
		out.Report(0, parser.KindSkippedRecord, "not a Kiro session file (known: .kiro/sessions/cli/<id>.jsonl, <id>.json, <id>.lock and sess_<id>.history, and the IDE's .kiro/sessions/<workspace>/<session>/session.json and messages.jsonl): not read")
		return nil
	}
	b := in.Base()
	switch {
	case strings.HasSuffix(b, ".jsonl"):
		return parseSessionLog(ctx, in, out)
	case strings.HasSuffix(b, ".json"):
		return parseSessionMeta(in, out)
	case strings.HasSuffix(b, ".lock"):
		out.Skip(1, "state_only:session-lock")
		return nil
	case strings.HasPrefix(b, "sess_") && strings.HasSuffix(b, ".history"):
		return parseSessionHistory(ctx, in, out, strings.TrimSuffix(strings.TrimPrefix(b, "sess_"), ".history"))
	}
	out.Report(0, parser.KindSkippedRecord, "a file of the Kiro CLI session store of a kind not known (only <id>.jsonl, <id>.json, <id>.lock and sess_<id>.history are): not read")
	return nil
}

// parseSessionHistory reads cli/sess_<id>.history. No source shows its
// content; a file that opens with rustyline's "#V2" header (the format of
// the CLI's prompt history, .cli_bash_history) is read as that history,
// each line a secondary user row of session <id>, with no time; any
// other content is one skipped_record problem, unread.
func parseSessionHistory(ctx context.Context, in *parser.Input, out parser.Sink, sid string) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	v2 := false
	errOther := errors.New("not rustyline history")
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		s := string(line)
		if !v2 {
			if s != "#V2" {
				out.Report(0, parser.KindSkippedRecord, "Kiro CLI sess_<id>.history without rustyline's #V2 header (its format no source shows): not read")
				return errOther
			}
			v2 = true
			out.Skip(n, "state_only:history-version-header")
			return nil
		}
		if v2 {
			s = unescape(s)
		}
		out.Event(timeline.Event{TurnType: timeline.User, Text: s, SessionID: sid, SourceLine: n, TimeBasis: timeline.TimeNone, Secondary: true})
		return nil
	})
	if errors.Is(err, errOther) {
		return nil
	}
	return err
}

func stem(in *parser.Input) string {
	b := in.Base()
	return strings.TrimSuffix(strings.TrimSuffix(b, ".jsonl"), ".json")
}

// readMeta reads the state file beside a transcript; nil when it is not
// collected or does not decode (its own parse names that).
func readMeta(in *parser.Input) *sessionMeta {
	p := in.Path
	b, ok := in.ReadRelated(strings.TrimSuffix(p, ".jsonl")+".json", 16<<20)
	if !ok {
		return nil
	}
	var m sessionMeta
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return &m
}

func parseSessionLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := stem(in), ""
	if m := readMeta(in); m != nil {
		if m.SessionID != "" {
			sid = m.SessionID
		}
		project = m.CWD
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	names := map[string]string{}
	var last time.Time // the last Prompt's meta.timestamp
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r sessionRecord
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		rows := 0
		defer func() {
			if rows == 0 && r.Kind != "" && known[r.Kind] {
				out.Skip(n, "no_evidence:empty_message")
			}
		}()
		ev := func(e timeline.Event) {
			rows++
			e.SessionID, e.ProjectPath, e.SourceLine = sid, project, n
			if e.Time.IsZero() && !last.IsZero() {
				// replies, tool calls and results carry no time: the
				// time of the prompt that began their turn
				e.Time, e.TimeBasis = last, timeline.TimeInherited
			} else if e.Time.IsZero() {
				e.TimeBasis = timeline.TimeNone
			}
			out.Event(e)
		}
		mid := ""
		var t time.Time
		if r.Data != nil {
			mid = r.Data.MessageID
			if r.Data.Meta != nil && r.Data.Meta.Timestamp != nil && *r.Data.Meta.Timestamp > 0 {
				f := *r.Data.Meta.Timestamp
				t = time.Unix(int64(f), int64((f-float64(int64(f)))*1e9)).UTC().Truncate(time.Millisecond)
				last = t
			}
		}
		rid := func(s string) string {
			if mid == "" {
				return ""
			}
			return mid + "#" + s
		}
		switch r.Kind {
		case "Prompt":
			texts, other := blocksText(r.Data)
			if len(texts) > 0 {
				ev(timeline.Event{TurnType: timeline.User, Time: t, Text: strings.Join(texts, "\n\n"), RecordID: rid("prompt")})
			}
			for _, o := range other {
				ev(timeline.Event{TurnType: timeline.System, Time: t, Text: fmt.Sprintf("prompt attachment: %d %s block%s", o.n, o.kind, plural1(o.n)), RecordID: rid("attach-" + o.kind)})
			}
		case "AssistantMessage":
			if r.Data == nil {
				ev(timeline.Event{TurnType: timeline.System, Text: "assistant message record without data"})
				return nil
			}
			for i, b := range r.Data.Content {
				bid := rid(strconv.Itoa(i))
				switch b.Kind {
				case "text":
					if s := blockString(b.Data); s != "" {
						ev(timeline.Event{TurnType: timeline.Assistant, Text: s, RecordID: bid})
					}
				case "thinking":
					var th struct {
						Text string `json:"text"`
					}
					s := blockString(b.Data)
					if s == "" && json.Unmarshal(b.Data, &th) == nil {
						s = th.Text
					}
					if s != "" {
						ev(timeline.Event{TurnType: timeline.Thinking, Text: s, RecordID: bid})
					}
				case "toolUse":
					var u struct {
						ToolUseID string          `json:"toolUseId"`
						Name      string          `json:"name"`
						Input     json.RawMessage `json:"input"`
					}
					if err := json.Unmarshal(b.Data, &u); err != nil {
						rows++
						out.Problem(n, "toolUse block of another shape (not an object of toolUseId, name and input), not read")
						continue
					}
					names[u.ToolUseID] = u.Name
					ev(timeline.Event{TurnType: timeline.ToolUse, ToolName: u.Name, ToolUseID: u.ToolUseID, ToolInput: parser.CompactJSON(u.Input), Text: u.Name, RecordID: u.ToolUseID})
				default:
					ev(timeline.Event{TurnType: timeline.System, Text: "assistant message block " + b.Kind + ": " + parser.CompactJSON(b.Data), RecordID: bid})
				}
			}
		case "ToolResults":
			if r.Data == nil {
				ev(timeline.Event{TurnType: timeline.System, Text: "tool results record without data"})
				return nil
			}
			for i, b := range r.Data.Content {
				if b.Kind != "toolResult" {
					ev(timeline.Event{TurnType: timeline.System, Text: "tool results block " + b.Kind + ": " + parser.CompactJSON(b.Data), RecordID: rid(strconv.Itoa(i))})
					continue
				}
				var res struct {
					ToolUseID string          `json:"toolUseId"`
					Content   json.RawMessage `json:"content"`
					Status    string          `json:"status"`
				}
				if err := json.Unmarshal(b.Data, &res); err != nil {
					rows++
					out.Problem(n, "toolResult block of another shape (not an object of toolUseId, content and status), not read")
					continue
				}
				isErr := ""
				switch strings.ToLower(res.Status) {
				case "error":
					isErr = "true"
				case "success":
					isErr = "false"
				}
				rr := ""
				if res.ToolUseID != "" {
					rr = res.ToolUseID + "#result"
				}
				ev(timeline.Event{TurnType: timeline.ToolResult, ToolUseID: res.ToolUseID, ToolName: names[res.ToolUseID], Text: resultContent(res.Content), IsError: isErr, RecordID: rr})
			}
		case "Clear":
			ev(timeline.Event{TurnType: timeline.System, Text: "conversation cleared (/clear): the rows above are no longer in the model's context (kept here)"})
		default:
			out.Report(n, parser.KindSkippedRecord, "session record kind "+strconv.Quote(r.Kind)+" not known: not read")
		}
		return nil
	})
}

// known are the record kinds read; a known record that gives no row (an
// empty text block) is a counted skip.
var known = map[string]bool{"Prompt": true, "AssistantMessage": true, "ToolResults": true, "Clear": true}

func plural1(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// kindCount is how many blocks of one kind a record holds.
type kindCount struct {
	kind string
	n    int
}

// blocksText returns a record's text blocks and a count of its other
// blocks by kind, the kinds in the order the record first holds each
// (source order, so the attachment rows come out the same every run).
func blocksText(d *recordData) ([]string, []kindCount) {
	if d == nil {
		return nil, nil
	}
	var texts []string
	var other []kindCount
	for _, b := range d.Content {
		if b.Kind == "text" {
			if s := blockString(b.Data); s != "" {
				texts = append(texts, s)
			}
			continue
		}
		i := 0
		for i < len(other) && other[i].kind != b.Kind {
			i++
		}
		if i == len(other) {
			other = append(other, kindCount{kind: b.Kind})
		}
		other[i].n++
	}
	return texts, other
}

// blockString is a block's data when it is a string, or the string under
// "data" or "text" of an object.
func blockString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Data *string `json:"data"`
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &o) == nil {
		if o.Data != nil {
			return *o.Data
		}
		if o.Text != nil {
			return *o.Text
		}
	}
	return ""
}

// resultContent renders a toolResult's content: text blocks ({kind:
// "text", data} or {text}) joined, a string as it is, anything else as
// compact JSON.
func resultContent(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			var kb struct {
				Kind string          `json:"kind"`
				Data json.RawMessage `json:"data"`
			}
			if json.Unmarshal(b, &kb) == nil && kb.Kind == "text" {
				if t := blockString(kb.Data); t != "" {
					parts = append(parts, t)
					continue
				}
			}
			if t := blockString(b); t != "" {
				parts = append(parts, t)
				continue
			}
			parts = append(parts, parser.CompactJSON(b))
		}
		return strings.Join(parts, "\n")
	}
	return parser.CompactJSON(raw)
}

// parseSessionMeta reads <id>.json: one row for the session (id, cwd,
// title, model, created_at, updated_at) at created_at, and one accounting
// row per user turn's metadata at its end_timestamp.
func parseSessionMeta(in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var m sessionMeta
	dec := json.NewDecoder(rc)
	if err := dec.Decode(&m); err != nil {
		out.Problem(1, parser.NotJSONObject("Kiro CLI session state", err))
		return nil
	}
	if msg := parser.DataAfterJSON(dec.Buffered(), rc, dec.InputOffset()); msg != "" {
		out.Problem(0, msg)
	}
	sid := m.SessionID
	if sid == "" {
		sid = stem(in)
	}
	created, _ := parser.ParseTime(m.CreatedAt)
	updated, _ := parser.ParseTime(m.UpdatedAt)
	txt := "session " + sid
	if m.CWD != "" {
		txt += " of " + m.CWD
	}
	if m.Title != "" {
		txt += ": " + m.Title
	}
	model := m.model()
	if model != "" {
		txt += " model=" + model
	}
	txt += " (created_at " + stamp(created) + ", updated_at " + stamp(updated) + ")"
	e := timeline.Event{TurnType: timeline.System, Time: created, Text: txt, Model: model, SessionID: sid, ProjectPath: m.CWD, SourceLine: 1, RecordID: sid + "#session"}
	if created.IsZero() {
		e.TimeBasis = timeline.TimeNone
	}
	out.Event(e)
	if m.SessionState == nil || m.SessionState.ConversationMetadata == nil {
		return nil
	}
	for i, tm := range m.SessionState.ConversationMetadata.UserTurnMetadatas {
		var t time.Time
		var keys []string
		for k, v := range tm {
			if k == "end_timestamp" {
				t = anyTime(v)
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var kv []string
		for _, k := range keys {
			kv = append(kv, k+"="+parser.CompactJSON(tm[k]))
		}
		e := timeline.Event{TurnType: timeline.System, Time: t, Text: fmt.Sprintf("turn %d metadata: %s", i+1, strings.Join(kv, " ")), SessionID: sid, ProjectPath: m.CWD, SourceLine: 1, RecordID: sid + "#turn-" + strconv.Itoa(i+1)}
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

// anyTime is an RFC 3339 string or an epoch number (parser.Epoch's
// units).
func anyTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, _ := parser.ParseTime(s)
		return t
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil && f > 0 {
		t, _ := parser.Epoch(int64(f), 1e11)
		return t
	}
	return time.Time{}
}
