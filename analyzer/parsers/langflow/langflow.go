package langflow

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/catalog"
)

const agentName = "langflow"

// Parsers returns the Langflow parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "langflow/database", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"server-db", "server-db-windows", "server-db-package", "desktop-db", catalog.VolumeTarget}, Names: []string{"*.db"},
			Doc: "langflow.db (server) and Langflow Desktop's database.db: flow names, message rows (User prompts, Machine replies, edited and error messages marked, content_blocks tool calls with input, output and error, file names), transaction rows (each component run's status, error and outputs, never its inputs)",
		}, parseDatabase),
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
	// Flow names only: flow.data holds the components' inputs, API keys
	// among them; user, apikey and variable tables are never queried.
	flows := map[string]string{}
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "flow", Read: func() error {
			return parser.EachRow(ctx, db, `SELECT id, name FROM flow`, func(m map[string]any) {
				flows[parser.SQLText(m["id"])] = parser.SQLText(m["name"])
			})
		}},
		parser.TableRead{Table: "message", Read: func() error {
			return parser.EachTableRow(ctx, db, "message", func(r parser.Row) error {
				message(r, flows, out)
				return nil
			})
		}},
		parser.TableRead{Table: "transaction", Read: func() error {
			return parser.EachTableRow(ctx, db, "transaction", func(r parser.Row) error {
				transaction(r, flows, out)
				return nil
			})
		}},
	)
}

// schema is the tables parseDatabase reads (a current Langflow creates
// them all) with the columns without which a row says nothing.
var store = parser.SQLiteStore{Name: "a Langflow", Tables: parser.SQLiteSchema{
	"flow":        {"id", "name"},
	"message":     {"id", "sender", "text"},
	"transaction": {"id", "vertex_id"},
}}

// block is a ContentBlock (lfx/schema/content_block.py) and its contents
// (content_types.py: text, tool_use, error, code, json, media).
type block struct {
	Title    string    `json:"title"`
	Contents []content `json:"contents"`
}

type content struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Output    json.RawMessage `json:"output"`
	Error     json.RawMessage `json:"error"`
	Reason    string          `json:"reason"`
	Component string          `json:"component"`
}

// blocks decodes content_blocks: a JSON list whose items are objects or,
// as MessageTable.from_message stores them (model_dump_json), JSON text.
func blocks(raw string) ([]block, error) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		return nil, err
	}
	var out []block
	for _, it := range items {
		if s, ok := parser.JSONString(it); ok {
			it = []byte(s)
		}
		var b block
		if err := json.Unmarshal(it, &b); err != nil {
			return out, err
		}
		out = append(out, b)
	}
	return out, nil
}

func flowName(flows map[string]string, id string) string {
	if n := flows[id]; n != "" {
		return n
	}
	return id
}

// message reads one message row.
func message(r parser.Row, flows map[string]string, out parser.Sink) {
	id := r.Get("id")
	base := timeline.Event{SessionID: r.Get("session_id"), SourceLine: r.Rowid}
	setTime(&base, r.Vals["timestamp"])
	if f := r.Get("flow_id"); f != "" && len(flows) > 0 && flows[f] == "" {
		flows[f] = ""
		out.Report(r.Rowid, parser.KindOrphanRecord, "message of flow "+f+" whose flow row is gone (deleted flow): its rows are kept")
	}
	n := 0
	emit := func(e timeline.Event) {
		n++
		out.Event(e)
	}
	text := r.Get("text")
	e := base
	e.RecordID, e.Text = id, text
	switch sender := r.Get("sender"); {
	case r.Get("category") == "error" || r.Get("error") == "1":
		e.TurnType, e.Text = timeline.System, "error message from "+r.Get("sender_name")+": "+parser.RedactSecrets(text)
	case sender == "User":
		e.TurnType = timeline.User
	case sender == "Machine":
		e.TurnType = timeline.Assistant
	default:
		e.TurnType, e.Text = timeline.System, sender+" message from "+r.Get("sender_name")+": "+text
	}
	if strings.TrimSpace(text) != "" {
		emit(e)
	}
	if r.Get("edit") == "1" {
		x := base
		x.TurnType, x.RecordID, x.Text = timeline.System, id+"#edit", "message "+id+" was edited in the playground: the text above is the edited one, the original is not kept"
		emit(x)
	}
	if raw := r.Get("content_blocks"); raw != "" && raw != "[]" && raw != "null" {
		bs, err := blocks(raw)
		if err != nil {
			out.Problem(r.Rowid, "content_blocks of message "+parser.Shown(id)+" not read: "+err.Error())
		}
		for i, b := range bs {
			for j, c := range b.Contents {
				rid := fmt.Sprintf("%s#block%d.%d", id, i, j)
				switch c.Type {
				case "tool_use":
					in := parser.RedactSecrets(parser.CompactJSON(c.ToolInput))
					u := base
					u.TurnType, u.ToolName, u.ToolInput, u.ToolUseID, u.RecordID = timeline.ToolUse, c.Name, in, rid, rid
					u.Text = strings.TrimSpace(c.Name + " " + in)
					emit(u)
					res := base
					res.TurnType, res.ToolName, res.ToolUseID, res.RecordID = timeline.ToolResult, c.Name, rid, rid+":result"
					res.Text = parser.RedactSecrets(parser.JSONText(c.Output))
					res.IsError = "false"
					if et := parser.JSONText(c.Error); et != "" {
						res.IsError = "true"
						res.Text = strings.TrimSpace(res.Text + "\nerror: " + parser.RedactSecrets(et))
					}
					emit(res)
				case "error":
					x := base
					x.TurnType, x.RecordID = timeline.System, rid
					x.Text = "error in " + c.Component + ": " + parser.RedactSecrets(c.Reason)
					emit(x)
				default:
					// text blocks repeat the agent's reasoning steps
					if c.Type == "text" && strings.TrimSpace(c.Text) != "" && c.Text != text {
						x := base
						x.TurnType, x.RecordID, x.Text = timeline.Thinking, rid, c.Text
						emit(x)
					}
				}
			}
		}
	}
	if raw := r.Get("files"); raw != "" && raw != "[]" && raw != "null" {
		var files []string
		if err := json.Unmarshal([]byte(raw), &files); err != nil {
			out.Problem(r.Rowid, "files of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
		}
		for k, f := range files {
			x := base
			x.TurnType, x.RecordID, x.Text = timeline.System, id+"#file"+strconv.Itoa(k), "file: "+f
			emit(x)
		}
	}
	if n == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_message")
	}
}

// transaction reads one transaction row: a component (vertex) run. Its
// inputs are not read: they hold the component's settings, API keys
// among them.
func transaction(r parser.Row, flows map[string]string, out parser.Sink) {
	e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "transaction:" + r.Get("id")}
	setTime(&e, r.Vals["timestamp"])
	e.Text = "component run " + r.Get("vertex_id")
	if t := r.Get("target_id"); t != "" {
		e.Text += " -> " + t
	}
	e.Text += " in flow " + flowName(flows, r.Get("flow_id")) + ": " + r.Get("status")
	if er := r.Get("error"); er != "" {
		e.Text += ": " + parser.RedactSecrets(er)
	}
	if o := r.Get("outputs"); o != "" && o != "null" && o != "{}" {
		e.Text += "\noutputs: " + parser.RedactSecrets(parser.CompactJSON([]byte(o)))
	}
	out.Event(e)
}
