package codexhome

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"
	"github.com/klauspost/compress/zstd"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseThreadHistory reads thread_history_<N>.sqlite, the paginated
// projection Codex (0.16x+) keeps of each rollout: thread_turns (one row
// per turn: status, started_at and completed_at in seconds, duration_ms,
// error_json) and thread_items (one row per turn item: item_type and the
// app-server v2 ThreadItem as item_json, created_at_ms). Schema:
// codex-rs/state/thread_history_migrations/0001_thread_history.sql
// (openai/codex @02b713cf8100) and the later columns of the 0.171.0
// database in the real-agent fixture; item_json as app-server-protocol
// v2 ThreadItem (@fdf6994d0fdf). It is a secondary source: the rollout is
// the store of record, and the projection outlives a deleted one.
//
// Identity first: a turn or item whose id the thread's collected rollout
// holds (its turn ids, item and call ids, response item ids) is that
// record, in another form (a commandExecution item is the rollout's
// exec_command call and its output), so it gives no row of its own and is
// counted as Skip "duplicate:rollout"; the rollout's rows stand for it.
// Every other turn and item is a secondary row (SourceLine its rowid, in
// the thread's session, RecordID "<thread>/<item id>" as the rollout's
// rows are named):
//   - userMessage: a user row (the typed text; images named);
//   - agentMessage: assistant; reasoning: thinking (summary, else content);
//   - commandExecution: tool_use "command_execution" (the command, a
//     "/bin/bash -lc '...'" wrapper unwrapped) and its tool_result
//     (aggregatedOutput, "exit code: N"); declined adds "permission
//     decision: denied source=user";
//   - fileChange: tool_use "file_change" (the paths) and a tool_result
//     with the status; mcpToolCall: tool_use "mcp__<server>__<tool>" and
//     its result or error; webSearch, imageView: tool_use;
//   - plan: "plan: ..."; contextCompaction: "compacted"; entered/
//     exitedReviewMode: "review mode: ..."; other types a system row
//     "thread item <type>";
//   - thread_turns: "turn record: status=.. started=.. completed=..
//     duration_ms=.. turn=<id>" (and the error), at started_at.
func (fl flavor) parseThreadHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	rollouts := rolloutIndex(in)
	held := &heldIDs{in: in, rollouts: rollouts}
	readable, err := parser.CheckStore(ctx, db, threadHistoryStore, out)
	if err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "thread_turns", Read: func() error {
			return orderedRows(ctx, db, "thread_turns", func(rowid int64, m map[string]any) {
				tid, turn := parser.SQLText(m["thread_id"]), parser.SQLText(m["turn_id"])
				if held.has(ctx, tid, turn) {
					out.Skip(rowid, "duplicate:rollout")
					return
				}
				turnRow(tid, turn, rowid, m, out)
			})
		}},
		parser.TableRead{Table: "thread_items", Read: func() error {
			return orderedRows(ctx, db, "thread_items", func(rowid int64, m map[string]any) {
				tid, item := parser.SQLText(m["thread_id"]), parser.SQLText(m["item_id"])
				if held.has(ctx, tid, item) {
					// Identity, then content: a command the projection holds
					// under a call id whose rollout call ran another command
					// is not the same record (a rollout or a store edited
					// after the fact): both stay, and the problem says so.
					cmd := itemCommand(parser.SQLText(m["item_json"]))
					if want := held.cmds[item]; cmd == "" || len(want) == 0 || sameCommand(cmd, want) {
						out.Skip(rowid, "duplicate:rollout")
						return
					}
					out.Report(rowid, parser.KindDuplicateID, fmt.Sprintf("call %s: thread history holds the command %q, its rollout %q: both kept", item, cmd, held.cmds[item][0]))
				}
				itemRows(tid, item, rowid, m, out)
			})
		}})
}

// threadHistoryStore is the two tables parseThreadHistory reads (both
// made by 0001_thread_history.sql), with the columns that name a row's
// thread and record; the others are read by name when present.
var threadHistoryStore = parser.SQLiteStore{Name: "a Codex thread history", Tables: parser.SQLiteSchema{
	"thread_turns": {"thread_id", "turn_id"},
	"thread_items": {"thread_id", "item_id"},
}}

// orderedRows reads a table by thread, then rowid, so the rollout ids of
// one thread at a time are held.
func orderedRows(ctx context.Context, db *sql.DB, table string, fn func(int64, map[string]any)) error {
	return parser.EachRow(ctx, db, `SELECT rowid AS "rowid__", * FROM "`+table+`" ORDER BY thread_id, rowid`, func(m map[string]any) {
		rowid, _ := parser.SQLInt(m["rowid__"])
		fn(rowid, m)
	})
}

func turnRow(tid, turn string, rowid int64, m map[string]any, out parser.Sink) {
	e := timeline.Event{SessionID: tid, TurnType: timeline.System, SourceLine: rowid, Secondary: true, RecordID: tid + "/" + turn + "#turn"}
	started, ok := msOrSeconds(nil, m["started_at"])
	if ok {
		e.Time = started
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	kv := []string{"status=" + orDash(parser.SQLText(m["status"]))}
	if ok {
		kv = append(kv, "started="+timeline.FormatTime(started))
	}
	if c, ok := msOrSeconds(nil, m["completed_at"]); ok {
		kv = append(kv, "completed="+timeline.FormatTime(c))
	}
	if d := parser.SQLText(m["duration_ms"]); d != "" {
		kv = append(kv, "duration_ms="+d)
	}
	kv = append(kv, "turn="+turn)
	if ej := strings.TrimSpace(parser.SQLText(m["error_json"])); ej != "" && ej != "null" {
		kv = append(kv, "error="+parser.CompactJSON([]byte(ej)))
	}
	e.Text = "turn record: " + strings.Join(kv, " ")
	out.Event(e)
}

// threadItem is the app-server v2 ThreadItem (camelCase) as item_json
// holds it.
type threadItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Text             string          `json:"text"`
	Content          json.RawMessage `json:"content"`
	Summary          json.RawMessage `json:"summary"`
	Command          string          `json:"command"`
	Cwd              string          `json:"cwd"`
	Status           string          `json:"status"`
	AggregatedOutput *string         `json:"aggregatedOutput"`
	ExitCode         *int            `json:"exitCode"`
	Changes          []struct {
		Path string `json:"path"`
	} `json:"changes"`
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
	Query     string          `json:"query"`
	Path      string          `json:"path"`
}

func itemRows(tid, itemID string, rowid int64, m map[string]any, out parser.Sink) {
	raw := []byte(parser.SQLText(m["item_json"]))
	var it threadItem
	if err := json.Unmarshal(raw, &it); err != nil {
		out.Report(rowid, parser.KindParse, "thread item "+itemID+": item_json: "+parser.JSONError(err))
		return
	}
	if it.Type == "" {
		it.Type = parser.SQLText(m["item_type"])
	}
	base := timeline.Event{SessionID: tid, SourceLine: rowid, Secondary: true, RecordID: tid + "/" + itemID}
	if t, ok := msOrSeconds(m["created_at_ms"], nil); ok {
		base.Time = t
	} else {
		base.TimeBasis = timeline.TimeNone
	}
	row := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		return e
	}
	switch it.Type {
	case "userMessage":
		out.Event(row(timeline.User, userContentText(it.Content)))
	case "agentMessage":
		out.Event(row(timeline.Assistant, it.Text))
	case "reasoning":
		out.Event(row(timeline.Thinking, strings.Join(stringList(it.Summary, it.Content), "\n\n")))
	case "plan":
		out.Event(row(timeline.System, "plan: "+it.Text))
	case "contextCompaction":
		out.Event(row(timeline.System, "compacted"))
	case "enteredReviewMode":
		out.Event(row(timeline.System, "review mode: entered"))
	case "exitedReviewMode":
		out.Event(row(timeline.System, "review mode: exited"))
	case "commandExecution":
		u := row(timeline.ToolUse, unwrapShell(it.Command))
		u.ToolName, u.ToolUseID, u.ToolInput, u.ProjectPath = "command_execution", itemID, parser.CompactJSON(withoutOutput(raw)), it.Cwd
		out.Event(u)
		r := row(timeline.ToolResult, "")
		r.ToolName, r.ToolUseID, r.ProjectPath, r.RecordID = u.ToolName, itemID, it.Cwd, base.RecordID+"#output"
		if it.AggregatedOutput != nil {
			r.Text = *it.AggregatedOutput
		}
		if it.ExitCode != nil {
			r.Text = strings.TrimRight(r.Text, "\n") + "\nexit code: " + strconv.Itoa(*it.ExitCode)
		}
		r.Text = strings.TrimLeft(r.Text, "\n")
		if r.Text == "" {
			r.Text = "status: " + it.Status
		}
		r.IsError = strconv.FormatBool(it.Status == "failed" || it.Status == "declined" || (it.ExitCode != nil && *it.ExitCode != 0))
		out.Event(r)
		if it.Status == "declined" {
			d := row(timeline.System, "permission decision: denied source=user")
			d.ToolName, d.ToolUseID, d.RecordID = u.ToolName, itemID, base.RecordID+"#decision"
			out.Event(d)
		}
	case "fileChange":
		var paths []string
		for _, c := range it.Changes {
			paths = append(paths, c.Path)
		}
		u := row(timeline.ToolUse, strings.Join(paths, ", "))
		u.ToolName, u.ToolUseID, u.ToolInput = "file_change", itemID, parser.CompactJSON(raw)
		out.Event(u)
		r := row(timeline.ToolResult, "status: "+orDash(it.Status))
		r.ToolName, r.ToolUseID, r.RecordID = u.ToolName, itemID, base.RecordID+"#output"
		r.IsError = strconv.FormatBool(it.Status == "failed" || it.Status == "declined")
		out.Event(r)
		if it.Status == "declined" {
			d := row(timeline.System, "permission decision: denied source=user")
			d.ToolName, d.ToolUseID, d.RecordID = u.ToolName, itemID, base.RecordID+"#decision"
			out.Event(d)
		}
	case "mcpToolCall":
		name := "mcp__" + it.Server + "__" + it.Tool
		u := row(timeline.ToolUse, parser.CompactJSON(it.Arguments))
		u.ToolName, u.ToolUseID, u.ToolInput = name, itemID, parser.CompactJSON(it.Arguments)
		out.Event(u)
		res, isErr := parser.CompactJSON(it.Result), false
		if e := parser.CompactJSON(it.Error); e != "" && e != "null" {
			res, isErr = e, true
		}
		if res == "" || res == "null" {
			res = "status: " + orDash(it.Status)
		}
		r := row(timeline.ToolResult, res)
		r.ToolName, r.ToolUseID, r.RecordID = name, itemID, base.RecordID+"#output"
		r.IsError = strconv.FormatBool(isErr || it.Status == "failed")
		out.Event(r)
	case "webSearch":
		u := row(timeline.ToolUse, it.Query)
		u.ToolName, u.ToolUseID, u.ToolInput = "web_search", itemID, parser.CompactJSON(raw)
		out.Event(u)
	case "imageView":
		u := row(timeline.ToolUse, it.Path)
		u.ToolName, u.ToolUseID, u.ToolInput = "view_image", itemID, parser.CompactJSON(raw)
		out.Event(u)
	default:
		out.Event(row(timeline.System, "thread item "+it.Type))
	}
}

// userContentText joins a userMessage's content: text parts, and images
// and files by name.
func userContentText(raw json.RawMessage) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
		URL  string `json:"url"`
		Path string `json:"path"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return parser.JSONText(raw)
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != "":
			out = append(out, p.Text)
		case p.Path != "":
			out = append(out, "[image "+p.Path+"]")
		case p.URL != "":
			out = append(out, imagePlaceholder(p.URL))
		}
	}
	return strings.Join(out, "\n")
}

// stringList reads the first of the lists given that has text: a list of
// strings, or of {text} parts.
func stringList(lists ...json.RawMessage) []string {
	for _, raw := range lists {
		var ss []string
		if json.Unmarshal(raw, &ss) == nil && len(ss) > 0 {
			return ss
		}
		var parts []struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &parts) == nil {
			for _, p := range parts {
				if p.Text != "" {
					ss = append(ss, p.Text)
				}
			}
			if len(ss) > 0 {
				return ss
			}
		}
	}
	return nil
}

// withoutOutput drops aggregatedOutput from a command item (the result
// row holds it).
func withoutOutput(raw []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	delete(m, "aggregatedOutput")
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// unwrapShell turns "/bin/bash -lc 'cmd'" (the shell wrapper Codex records
// around a command) into the command, as the model wrote it.
func unwrapShell(c string) string {
	for _, sh := range []string{"/bin/bash -lc ", "/bin/zsh -lc ", "/bin/sh -c ", "bash -lc ", "zsh -lc ", "sh -c "} {
		if rest, ok := strings.CutPrefix(c, sh); ok {
			if u, ok := shellUnquote(rest); ok {
				return u
			}
		}
	}
	return c
}

// shellUnquote reads one POSIX-quoted word that is the whole string.
func shellUnquote(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch s[i] {
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
			}
			if j >= len(s) {
				return "", false
			}
			b.WriteString(strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\$`, `$`, "\\`", "`").Replace(s[i+1 : j]))
			i = j + 1
		case '\\':
			if i+1 < len(s) {
				b.WriteByte(s[i+1])
			}
			i += 2
		case ' ', '\t', '\n':
			return "", false
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), true
}

// rolloutIndex maps each thread id to the collected rollouts named by it
// (sessions/ and archived_sessions/ of the store's home folder).
func rolloutIndex(in *parser.Input) map[string][]string {
	home := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	if path.Base(path.Dir(home)) == "db-backups" {
		home = path.Dir(path.Dir(home)) // db-backups/<name>/ holds a copy
	}
	idx := map[string][]string{}
	for _, dir := range []string{"sessions", "archived_sessions"} {
		for _, f := range in.List(parser.GlobEscape(home+"/"+dir) + "/**/rollout-*") {
			if id := idFromName(f.Path); id != "" {
				idx[id] = append(idx[id], f.Path)
			}
		}
	}
	return idx
}

// heldIDs reads, for one thread at a time, the ids its collected rollouts
// hold.
type heldIDs struct {
	in       *parser.Input
	rollouts map[string][]string
	tid      string
	ids      map[string]bool
	cmds     map[string][]string // call id -> the commands the rollout gives it
}

func (h *heldIDs) has(ctx context.Context, tid, id string) bool {
	if id == "" || len(h.rollouts[tid]) == 0 {
		return false
	}
	if tid != h.tid {
		h.tid, h.ids, h.cmds = tid, map[string]bool{}, map[string][]string{}
		for _, p := range h.rollouts[tid] {
			readRolloutIDs(ctx, h.in, p, h.ids, h.cmds)
		}
	}
	return h.ids[id]
}

// idProbe is what readRolloutIDs reads of a rollout line.
type idProbe struct {
	Payload struct {
		Type      string   `json:"type"`
		Arguments string   `json:"arguments"`
		Command   []string `json:"command"`
		ID        string   `json:"id"`
		CallID    string   `json:"call_id"`
		TurnID    string   `json:"turn_id"`
		Item      struct {
			ID string `json:"id"`
		} `json:"item"`
		Attr struct {
			TurnID string `json:"turn_id"`
		} `json:"turn_attribution"`
	} `json:"payload"`
}

// readRolloutIDs adds the ids a rollout holds (item, call, response item
// and turn ids) to ids; a rollout that cannot be read adds none.
func readRolloutIDs(ctx context.Context, in *parser.Input, p string, ids map[string]bool, cmds map[string][]string) {
	rc, err := in.OpenRelated(p)
	if err != nil {
		return
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(strings.ToLower(p), ".zst") {
		dec, err := zstd.NewReader(rc, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return
		}
		defer dec.Close()
		r = dec
	}
	_ = parser.Lines(ctx, r, nil, func(_ int64, line []byte) error {
		var pr idProbe
		if json.Unmarshal(line, &pr) != nil {
			return nil
		}
		for _, id := range []string{pr.Payload.ID, pr.Payload.CallID, pr.Payload.TurnID, pr.Payload.Item.ID, pr.Payload.Attr.TurnID} {
			if id != "" {
				ids[id] = true
			}
		}
		if c := pr.Payload.CallID; c != "" {
			if pr.Payload.Type == "function_call" && pr.Payload.Arguments != "" {
				var a struct {
					Cmd     string   `json:"cmd"`
					Command []string `json:"command"`
				}
				if json.Unmarshal([]byte(pr.Payload.Arguments), &a) == nil {
					if a.Cmd != "" {
						cmds[c] = append(cmds[c], a.Cmd)
					}
					if len(a.Command) > 0 {
						cmds[c] = append(cmds[c], a.Command[len(a.Command)-1])
					}
				}
			}
			if len(pr.Payload.Command) > 0 {
				cmds[c] = append(cmds[c], pr.Payload.Command[len(pr.Payload.Command)-1])
			}
		}
		return nil
	})
}

// itemCommand is a commandExecution item's command ("" for another item).
func itemCommand(itemJSON string) string {
	var it struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	if json.Unmarshal([]byte(itemJSON), &it) != nil || it.Type != "commandExecution" {
		return ""
	}
	return it.Command
}

// sameCommand: the projection's command line (the shell's argv joined:
// /bin/bash -lc '<cmd>') holds one of the rollout's commands.
func sameCommand(cmd string, rollout []string) bool {
	for _, r := range rollout {
		if r = strings.TrimSpace(r); r != "" && (strings.Contains(cmd, r) || strings.Contains(r, cmd)) {
			return true
		}
	}
	return false
}
