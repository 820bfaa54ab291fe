package n8n

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

const agentName = "n8n"

// Parsers returns the n8n parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "n8n/database", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"database", catalog.VolumeTarget}, Names: []string{"database.sqlite"},
			Doc: "database.sqlite: execution_entity runs (soft-deleted ones kept and marked), execution_data node runs (flatted): chat trigger prompts, AI tool sub-node calls with input and response, agent replies, model calls, node errors; chat_hub_sessions and chat_hub_messages; workflow names only; never credentials_entity",
		}, parseDatabase),
		parser.New(parser.Spec{
			ID: "n8n/gateway-log", Agent: agentName, Version: 1, Actions: actions,
			Targets: []string{"gateway-log"}, Names: []string{"log"},
			Doc: "~/.n8n-local-gateway/log (computer-use): each tool call with its full arguments and each result (duration, error), paired by tool name in order; connections",
		}, parseGatewayLog),
	}
}

func setTime(e *timeline.Event, v any) {
	if t, ok := parser.SQLTime(v); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

func parseDatabase(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, store, out)
	if err != nil {
		return err
	}
	// Workflow names only: nodes and connections can hold parameters
	// typed into a node, credentials_entity is never queried.
	names := map[string]string{}
	sessions := map[string]bool{}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "workflow_entity", Read: func() error {
			return parser.EachRow(ctx, db, `SELECT id, name FROM workflow_entity`, func(m map[string]any) {
				names[parser.SQLText(m["id"])] = parser.SQLText(m["name"])
			})
		}},
		parser.TableRead{Table: "execution_entity", Read: func() error {
			return executions(ctx, db, out, names, readable["execution_data"])
		}},
		parser.TableRead{Table: "chat_hub_sessions", Read: func() error { return chatSessions(ctx, db, out, sessions) }},
		parser.TableRead{Table: "chat_hub_messages", Read: func() error { return chatMessages(ctx, db, out, sessions) }},
	)
}

// schema is the tables parseDatabase reads (a current n8n's migrations
// create them all) with the columns without which a row says nothing;
// every other column is read by name when present. execution_data is read
// with its execution_entity row.
var store = parser.SQLiteStore{Name: "an n8n", Tables: parser.SQLiteSchema{
	"workflow_entity":   {"id", "name"},
	"execution_entity":  {"id"},
	"execution_data":    {"executionId", "data", "workflowData"},
	"chat_hub_sessions": {"id"},
	"chat_hub_messages": {"id", "sessionId", "type", "content"},
}}

func executions(ctx context.Context, db *sql.DB, out parser.Sink, names map[string]string, hasData bool) error {
	// The store is opened with one connection: the execution rows (small)
	// are read first, then each one's execution_data on its own.
	var list []parser.Row
	err := parser.EachTableRow(ctx, db, "execution_entity", func(r parser.Row) error {
		list = append(list, r)
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range list {
		id := r.Get("id")
		var data, wf string
		found := false
		if hasData {
			err := parser.EachRow(ctx, db, `SELECT data, workflowData FROM execution_data WHERE executionId = ?`, func(m map[string]any) {
				data, wf, found = parser.SQLText(m["data"]), parser.SQLText(m["workflowData"]), true
			}, id)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// the execution row is kept; its data is named
				out.Problem(r.Rowid, "table execution_data not read for execution "+parser.Shown(id)+": "+err.Error())
			}
		}
		execution(r, names, data, wf, found, hasData, out)
	}
	return nil
}

// execution reads one execution_entity row and its execution_data.
func execution(r parser.Row, names map[string]string, data, wf string, found, hasData bool, out parser.Sink) {
	id := r.Get("id")
	rid := "execution:" + id
	head := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: rid}
	at := r.Vals["startedAt"]
	if _, ok := parser.SQLTime(at); !ok {
		at = r.Vals["createdAt"]
	}
	setTime(&head, at)
	flow := r.Get("workflowId")
	if n := names[flow]; n != "" {
		flow = n + " (" + flow + ")"
	}
	head.Text = fmt.Sprintf("execution %s of workflow %s (%s): %s", id, flow, r.Get("mode"), r.Get("status"))
	if t, ok := parser.SQLTime(r.Vals["stoppedAt"]); ok {
		head.Text += ", stopped " + t.Format("2006-01-02T15:04:05.000Z")
	}
	if ro := r.Get("retryOf"); ro != "" {
		head.Text += ", a retry of execution " + ro
	}
	if t, ok := parser.SQLTime(r.Vals["deletedAt"]); ok {
		head.Text += ", deleted " + t.Format("2006-01-02T15:04:05.000Z") + " (soft-deleted: kept until pruned)"
	}
	var runs []nodeTask
	session := rid
	if found && data != "" {
		v, err := unflatten([]byte(data))
		if err != nil {
			out.Problem(r.Rowid, "execution_data of execution "+parser.Shown(id)+" not read: "+err.Error())
		} else {
			runs = tasks(v, nodeTypes(wf))
			for _, t := range runs {
				if s := chatSession(t); s != "" {
					session = s
					break
				}
			}
		}
	} else if !hasData {
		head.Text += ", its execution_data not read (see the table's problem row)"
	} else if !found {
		head.Text += ", no execution_data row (its data is gone)"
	}
	head.SessionID = session
	out.Event(head)
	for _, t := range runs {
		task(t, fmt.Sprintf("%s#%s#%d", rid, t.node, t.index), session, r.Rowid, head, out)
	}
}

// nodeTask is one ITaskData of runData, with its node's name and type.
type nodeTask struct {
	node, typ string
	index     int
	m         map[string]any
	start     float64
}

// nodeTypes maps node names to their types from workflowData (IWorkflowBase).
func nodeTypes(wf string) map[string]string {
	var w struct {
		Nodes []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"nodes"`
	}
	out := map[string]string{}
	if json.Unmarshal([]byte(wf), &w) == nil {
		for _, n := range w.Nodes {
			out[n.Name] = n.Type
		}
	}
	return out
}

// tasks lists resultData.runData's tasks in start-time order (node name,
// then run index, breaking ties).
func tasks(v any, types map[string]string) []nodeTask {
	root, _ := v.(map[string]any)
	rd, _ := root["resultData"].(map[string]any)
	run, _ := rd["runData"].(map[string]any)
	var out []nodeTask
	for name, list := range run {
		l, _ := list.([]any)
		for i, t := range l {
			m, _ := t.(map[string]any)
			if m == nil {
				continue
			}
			st, _ := m["startTime"].(float64)
			out = append(out, nodeTask{node: name, typ: types[name], index: i, m: m, start: st})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.node != b.node {
			return a.node < b.node
		}
		return a.index < b.index
	})
	return out
}

// first is the json of the first item of connection kind c in a
// ITaskDataConnections map (data or inputOverride).
func first(conns any, c string) (map[string]any, bool) {
	m, _ := conns.(map[string]any)
	outer, _ := m[c].([]any)
	if len(outer) == 0 {
		return nil, false
	}
	inner, _ := outer[0].([]any)
	if len(inner) == 0 {
		return nil, false
	}
	item, _ := inner[0].(map[string]any)
	j, _ := item["json"].(map[string]any)
	return j, j != nil
}

func chatSession(t nodeTask) string {
	if !strings.HasSuffix(t.typ, ".chatTrigger") {
		return ""
	}
	j, _ := first(t.m["data"], "main")
	s, _ := j["sessionId"].(string)
	return s
}

func shortType(typ string) string {
	if i := strings.LastIndex(typ, "."); i >= 0 {
		return typ[i+1:]
	}
	return typ
}

// task emits one node run: a chat trigger's typed message as a user row,
// an AI tool sub-node's call and response, a model call, an agent's
// reply, and a system row for every other node (with its error).
func task(t nodeTask, rid, session string, rowid int64, head timeline.Event, out parser.Sink) {
	base := timeline.Event{SessionID: session, SourceLine: rowid}
	if ts, ok := parser.Epoch(int64(t.start), 1e11); ok && t.start > 0 {
		base.Time = ts
	} else {
		base.Time, base.TimeBasis = head.Time, timeline.TimeInherited
		if head.TimeBasis == timeline.TimeNone {
			base.Time, base.TimeBasis = time.Time{}, timeline.TimeNone
		}
	}
	status, _ := t.m["executionStatus"].(string)
	errText := ""
	if em, ok := t.m["error"].(map[string]any); ok {
		errText, _ = em["message"].(string)
		if errText == "" {
			errText = parser.JSONValue(em)
		}
		errText = parser.RedactSecrets(errText)
	}
	short := shortType(t.typ)
	switch {
	case strings.HasSuffix(t.typ, ".chatTrigger"):
		j, _ := first(t.m["data"], "main")
		if s, _ := j["chatInput"].(string); strings.TrimSpace(s) != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.User, s, rid
			out.Event(e)
			return
		}
	case hasConn(t.m["inputOverride"], "ai_tool") || hasConn(t.m["data"], "ai_tool"):
		in, _ := first(t.m["inputOverride"], "ai_tool")
		res, _ := first(t.m["data"], "ai_tool")
		args := parser.RedactSecrets(parser.JSONValue(in))
		e := base
		e.TurnType, e.ToolName, e.ToolInput, e.ToolUseID, e.RecordID = timeline.ToolUse, short, args, rid, rid
		e.Text = strings.TrimSpace(t.node + " " + args)
		out.Event(e)
		r := base
		r.TurnType, r.ToolName, r.ToolUseID, r.RecordID = timeline.ToolResult, short, rid, rid+":result"
		if s, ok := res["response"].(string); ok {
			r.Text = s
		} else if res != nil {
			r.Text = parser.JSONValue(res)
		}
		r.Text = parser.RedactSecrets(r.Text)
		r.IsError = strconv.FormatBool(errText != "" || status == "error")
		if errText != "" {
			r.Text = strings.TrimSpace(r.Text + "\nerror: " + errText)
		}
		out.Event(r)
		return
	case hasConn(t.m["data"], "ai_languageModel") || hasConn(t.m["inputOverride"], "ai_languageModel"):
		e := base
		e.TurnType, e.RecordID = timeline.System, rid
		e.Text = fmt.Sprintf("model call: %s (%s): %s", t.node, short, status)
		if errText != "" {
			e.Text += ": " + errText
		}
		out.Event(e)
		return
	case strings.HasSuffix(t.typ, ".agent") || strings.HasSuffix(t.typ, ".agentTool"):
		j, _ := first(t.m["data"], "main")
		if s, _ := j["output"].(string); strings.TrimSpace(s) != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.Assistant, s, rid
			out.Event(e)
			if errText == "" {
				return
			}
		}
	}
	e := base
	e.TurnType, e.RecordID = timeline.System, rid+"#node"
	e.Text = fmt.Sprintf("node %s (%s): %s", t.node, short, status)
	if errText != "" {
		e.Text += ": " + errText
	}
	out.Event(e)
}

func hasConn(conns any, c string) bool {
	m, _ := conns.(map[string]any)
	_, ok := m[c]
	return ok
}

// binaryData is IBinaryData; its data (base64) is never read into a row.
type binaryData struct {
	FileName string `json:"fileName"`
	MimeType string `json:"mimeType"`
	FileSize string `json:"fileSize"`
}

func chatSessions(ctx context.Context, db *sql.DB, out parser.Sink, sessions map[string]bool) error {
	err := parser.EachTableRow(ctx, db, "chat_hub_sessions", func(r parser.Row) error {
		id := r.Get("id")
		sessions[id] = true
		e := timeline.Event{SessionID: id, TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "chat_hub_sessions:" + id, Model: r.Get("model")}
		setTime(&e, r.Vals["createdAt"])
		e.Text = "chat: " + r.Get("title")
		var with []string
		for _, c := range []string{"provider", "model", "agentName"} {
			if v := r.Get(c); v != "" {
				with = append(with, c+"="+v)
			}
		}
		if len(with) > 0 {
			e.Text += " (" + strings.Join(with, ", ") + ")"
		}
		out.Event(e)
		return nil
	})
	return err
}

func chatMessages(ctx context.Context, db *sql.DB, out parser.Sink, sessions map[string]bool) error {
	return parser.EachTableRow(ctx, db, "chat_hub_messages", func(r parser.Row) error {
		id := r.Get("id")
		s := r.Get("sessionId")
		base := timeline.Event{SessionID: s, SourceLine: r.Rowid, Model: r.Get("model")}
		setTime(&base, r.Vals["createdAt"])
		if !sessions[s] {
			sessions[s] = true
			out.Report(r.Rowid, parser.KindOrphanRecord, "message of chat session "+s+" whose chat_hub_sessions row is gone (deleted chat): its rows are kept")
		}
		content := r.Get("content")
		e := base
		e.RecordID, e.Text = id, content
		switch ty := r.Get("type"); ty {
		case "human":
			e.TurnType = timeline.User
		case "ai":
			e.TurnType = timeline.Assistant
		case "tool":
			e.TurnType, e.ToolName = timeline.ToolResult, r.Get("name")
			e.IsError = strconv.FormatBool(r.Get("status") == "error")
		default:
			e.TurnType, e.Text = timeline.System, ty+" message from "+r.Get("name")+": "+content
		}
		n := 0
		if strings.TrimSpace(content) != "" {
			out.Event(e)
			n++
		}
		note := func(suffix, text string) {
			x := base
			x.TurnType, x.RecordID, x.Text = timeline.System, id+"#"+suffix, text
			out.Event(x)
			n++
		}
		if v := r.Get("retryOfMessageId"); v != "" {
			note("retry", "message "+id+" is a retry of message "+v+" (both kept)")
		}
		if v := r.Get("revisionOfMessageId"); v != "" {
			note("revision", "message "+id+" is an edit of message "+v+" (both kept)")
		}
		if st := r.Get("status"); st != "" && st != "success" {
			note("status", "message "+id+" status: "+st)
		}
		if raw := r.Get("attachments"); raw != "" && raw != "null" {
			var atts []binaryData
			if err := json.Unmarshal([]byte(raw), &atts); err != nil {
				out.Problem(r.Rowid, "attachments of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			}
			for k, a := range atts {
				note("attachment"+strconv.Itoa(k), fmt.Sprintf("attachment: %s (%s, %s, content not read)", a.FileName, a.MimeType, a.FileSize))
			}
		}
		if n == 0 {
			out.Skip(r.Rowid, "no_evidence:empty_message")
		}
		return nil
	})
}
