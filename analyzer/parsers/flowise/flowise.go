package flowise

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "flowise"

// Parsers returns the Flowise parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "flowise/database", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"database"}, Names: []string{"database.sqlite"},
			Doc: "database.sqlite: chat_flow names, chat_message prompts and replies with usedTools, agentReasoning, reasonContent, human-input actions and upload names, chat_message_feedback, execution node runs with their tool calls; never the credential table",
		}, parseDatabase),
	}
}

// usedTool is IUsedTool (packages/components/src/Interface.ts).
type usedTool struct {
	Tool       string          `json:"tool"`
	ToolInput  json.RawMessage `json:"toolInput"`
	ToolOutput json.RawMessage `json:"toolOutput"`
	Error      string          `json:"error"`
}

// agentReasoning is IAgentReasoning: one agent's turn of a multi-agent
// or sequential flow.
type agentReasoning struct {
	AgentName    string     `json:"agentName"`
	Messages     []string   `json:"messages"`
	Next         string     `json:"next"`
	Instructions string     `json:"instructions"`
	UsedTools    []usedTool `json:"usedTools"`
	NodeName     string     `json:"nodeName"`
}

// fileUpload is IFileUpload; its data (a data: URL or a stored name) is
// never read into a row.
type fileUpload struct {
	Type string `json:"type"`
	Name string `json:"name"`
	Mime string `json:"mime"`
}

// action is IAction: a human-in-the-loop request shown with the reply.
type action struct {
	ID       string `json:"id"`
	Elements []struct {
		Type  string `json:"type"`
		Label string `json:"label"`
	} `json:"elements"`
}

// Chat types whose userMessage a person typed (packages/server/src/
// Interface.ts ChatType): the Flowise UI (INTERNAL) and the embedded chat
// or prediction API (EXTERNAL). EVALUATION, MCP, SCHEDULED and WEBHOOK
// prompts come from a dataset, a client program, a schedule or a caller.
var typed = map[string]bool{"": true, "INTERNAL": true, "EXTERNAL": true}

func parseDatabase(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return err
	}
	readable, err := parser.CheckStore(ctx, db, store, out)
	if err != nil {
		return err
	}
	// Never the credential table (encryptedData), apikey, user or
	// variable tables: they are not queried at all.
	flows := map[string]string{}
	chats := map[string]string{} // message id -> chat id
	return parser.ReadTables(ctx, out, readable,
		parser.TableRead{Table: "chat_flow", Read: func() error {
			return parser.EachTableRow(ctx, db, "chat_flow", func(r parser.Row) error {
				chatFlow(r, flows, out)
				return nil
			})
		}},
		parser.TableRead{Table: "chat_message", Read: func() error {
			return parser.EachTableRow(ctx, db, "chat_message", func(r parser.Row) error {
				return message(r, flows, chats, out)
			})
		}},
		parser.TableRead{Table: "chat_message_feedback", Read: func() error {
			return parser.EachTableRow(ctx, db, "chat_message_feedback", func(r parser.Row) error {
				feedback(r, out)
				return nil
			})
		}},
		parser.TableRead{Table: "execution", Read: func() error {
			return parser.EachTableRow(ctx, db, "execution", func(r parser.Row) error {
				execution(r, flows, out)
				return nil
			})
		}},
	)
}

// schema is the tables parseDatabase reads (a current Flowise's
// migrations create them all) with the columns without which a row says
// nothing; every other column is read by name when present.
var store = parser.SQLiteStore{Name: "a Flowise", Tables: parser.SQLiteSchema{
	"chat_flow":             {"id", "name"},
	"chat_message":          {"id", "role", "content"},
	"chat_message_feedback": {"messageId", "rating"},
	"execution":             {"id", "executionData"},
}}

// chatFlow reads one chat_flow row.
func chatFlow(r parser.Row, flows map[string]string, out parser.Sink) {
	id := r.Get("id")
	flows[id] = r.Get("name")
	e := timeline.Event{TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "chat_flow:" + id}
	setTime(&e, r.Vals["createdDate"])
	e.Text = "chatflow: " + r.Get("name")
	if ty := r.Get("type"); ty != "" {
		e.Text += " (" + ty + ")"
	}
	if r.Get("deployed") == "1" || r.Get("deployed") == "true" {
		e.Text += ", deployed"
	}
	if r.Get("isPublic") == "1" || r.Get("isPublic") == "true" {
		e.Text += ", public"
	}
	out.Event(e)
}

// feedback reads one chat_message_feedback row.
func feedback(r parser.Row, out parser.Sink) {
	e := timeline.Event{SessionID: r.Get("chatId"), TurnType: timeline.System, SourceLine: r.Rowid, RecordID: "chat_message_feedback:" + r.Get("id")}
	setTime(&e, r.Vals["createdDate"])
	e.Text = "feedback on message " + r.Get("messageId") + ": " + r.Get("rating")
	if c := strings.TrimSpace(r.Get("content")); c != "" {
		e.Text += ": " + c
	}
	out.Event(e)
}

func setTime(e *timeline.Event, v any) {
	if t, ok := parser.SQLTime(v); ok {
		e.Time = t
	} else {
		e.TimeBasis = timeline.TimeNone
	}
}

// message reads one chat_message row.
func message(r parser.Row, flows, chats map[string]string, out parser.Sink) error {
	id := r.Get("id")
	chat := r.Get("chatId")
	if chat == "" {
		chat = r.Get("sessionId")
	}
	chats[id] = chat
	base := timeline.Event{SessionID: chat, SourceLine: r.Rowid}
	setTime(&base, r.Vals["createdDate"])
	if _, ok := flows[r.Get("chatflowid")]; !ok && len(flows) > 0 {
		flows[r.Get("chatflowid")] = ""
		out.Report(r.Rowid, parser.KindOrphanRecord, "message of chatflow "+parser.Shown(r.Get("chatflowid"))+" whose chat_flow row is gone (deleted flow): its rows are kept")
	}
	n := 0
	emit := func(e timeline.Event) {
		n++
		out.Event(e)
	}
	content := r.Get("content")
	switch role := r.Get("role"); role {
	case "userMessage":
		e := base
		e.RecordID, e.Text = id, content
		if ct := r.Get("chatType"); typed[ct] {
			e.TurnType = timeline.User
		} else {
			e.TurnType, e.Text = timeline.System, "prompt from a "+ct+" run (not typed by a person): "+content
		}
		if strings.TrimSpace(content) != "" {
			emit(e)
		}
	case "apiMessage":
		if th := strings.TrimSpace(r.Get("reasonContent")); th != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.Thinking, th, id+"#thinking"
			emit(e)
		}
		var reasons []agentReasoning
		if raw := r.Get("agentReasoning"); raw != "" {
			if err := json.Unmarshal([]byte(raw), &reasons); err != nil {
				out.Problem(r.Rowid, "agentReasoning of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			}
		}
		for i, a := range reasons {
			for j, m := range a.Messages {
				if strings.TrimSpace(m) == "" {
					continue
				}
				e := base
				e.TurnType, e.Text = timeline.Assistant, "agent "+a.AgentName+": "+m
				e.RecordID = fmt.Sprintf("%s#reasoning%d.%d", id, i, j)
				emit(e)
			}
			for k, t := range a.UsedTools {
				tools(base, fmt.Sprintf("%s#reasoning%d.tool%d", id, i, k), t, emit)
			}
			if a.Next != "" && a.Next != "FINISH" {
				e := base
				e.TurnType, e.Text = timeline.System, "agent "+a.AgentName+" hands over to "+a.Next
				if a.Instructions != "" {
					e.Text += ": " + a.Instructions
				}
				e.RecordID = fmt.Sprintf("%s#reasoning%d.next", id, i)
				emit(e)
			}
		}
		var used []usedTool
		if raw := r.Get("usedTools"); raw != "" {
			if err := json.Unmarshal([]byte(raw), &used); err != nil {
				out.Problem(r.Rowid, "usedTools of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			}
		}
		for k, t := range used {
			tools(base, id+"#tool"+strconv.Itoa(k), t, emit)
		}
		if strings.TrimSpace(content) != "" {
			e := base
			e.TurnType, e.Text, e.RecordID = timeline.Assistant, content, id
			emit(e)
		}
		if raw := r.Get("action"); raw != "" && raw != "null" {
			var a action
			e := base
			e.TurnType, e.RecordID = timeline.System, id+"#action"
			if json.Unmarshal([]byte(raw), &a) == nil {
				var labels []string
				for _, el := range a.Elements {
					labels = append(labels, el.Label)
				}
				e.Text = "permission request: " + strings.Join(labels, " / ")
			} else {
				e.Text = "permission request: " + parser.RedactSecrets(parser.CompactJSON([]byte(raw)))
			}
			emit(e)
		}
	default:
		e := base
		e.TurnType, e.Text, e.RecordID = timeline.System, role+": "+content, id
		emit(e)
	}
	if raw := r.Get("fileUploads"); raw != "" {
		var ups []fileUpload
		if err := json.Unmarshal([]byte(raw), &ups); err != nil {
			out.Problem(r.Rowid, "fileUploads of message "+parser.Shown(id)+" not read: "+parser.JSONError(err))
		}
		for k, u := range ups {
			e := base
			e.TurnType, e.RecordID = timeline.System, id+"#upload"+strconv.Itoa(k)
			e.Text = fmt.Sprintf("upload: %s (%s %s, content not read)", u.Name, u.Type, u.Mime)
			emit(e)
		}
	}
	if n == 0 {
		out.Skip(r.Rowid, "no_evidence:empty_message")
	}
	return nil
}

// tools emits a used tool's call and its result: Flowise keeps both in
// one IUsedTool, so the two rows share the id and the message's time.
func tools(base timeline.Event, id string, t usedTool, emit func(timeline.Event)) {
	in := parser.RedactSecrets(parser.CompactJSON(t.ToolInput))
	e := base
	e.TurnType, e.ToolName, e.ToolInput, e.ToolUseID, e.RecordID = timeline.ToolUse, t.Tool, in, id, id
	e.Text = strings.TrimSpace(t.Tool + " " + in)
	emit(e)
	res := base
	res.TurnType, res.ToolName, res.ToolUseID, res.RecordID = timeline.ToolResult, t.Tool, id, id+":result"
	res.Text = parser.RedactSecrets(parser.JSONText(t.ToolOutput))
	res.IsError = "false"
	if t.Error != "" {
		res.IsError = "true"
		if res.Text == "" {
			res.Text = t.Error
		} else {
			res.Text += "\nerror: " + t.Error
		}
	}
	emit(res)
}

// nodeRun is IAgentflowExecutedData: one node's run in an execution.
type nodeRun struct {
	NodeLabel string `json:"nodeLabel"`
	NodeID    string `json:"nodeId"`
	Status    string `json:"status"`
	Data      struct {
		Name  string `json:"name"`
		Input struct {
			SelectedTool  string          `json:"selectedTool"`
			ToolInputArgs json.RawMessage `json:"toolInputArgs"`
		} `json:"input"`
		Output struct {
			Content   json.RawMessage `json:"content"`
			UsedTools []usedTool      `json:"usedTools"`
		} `json:"output"`
		Error json.RawMessage `json:"error"`
	} `json:"data"`
}

// execution reads one execution row (Agentflow V2): a system row for the
// run and one per node, the tool calls of Agent nodes and Tool nodes, the
// replies of Agent and LLM nodes, a Human Input node's decision.
func execution(r parser.Row, flows map[string]string, out parser.Sink) {
	id := r.Get("id")
	base := timeline.Event{SessionID: r.Get("sessionId"), SourceLine: r.Rowid}
	setTime(&base, r.Vals["createdDate"])
	e := base
	e.TurnType, e.RecordID = timeline.System, "execution:"+id
	flow := r.Get("agentflowId")
	if name := flows[flow]; name != "" {
		flow = name
	}
	e.Text = "agentflow execution " + parser.Shown(id) + " of " + flow + ": " + r.Get("state")
	if t, ok := parser.SQLTime(r.Vals["stoppedDate"]); ok {
		e.Text += ", stopped " + t.Format("2006-01-02T15:04:05.000Z")
	}
	out.Event(e)
	var nodes []nodeRun
	if raw := r.Get("executionData"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &nodes); err != nil {
			out.Problem(r.Rowid, "executionData of execution "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			return
		}
	}
	for i, n := range nodes {
		rid := fmt.Sprintf("execution:%s#%d", id, i)
		e := base
		e.TurnType, e.RecordID = timeline.System, rid
		e.Text = fmt.Sprintf("node %s (%s): %s", n.NodeLabel, n.Data.Name, n.Status)
		if len(n.Data.Error) > 0 {
			e.Text += ": " + parser.RedactSecrets(parser.JSONText(n.Data.Error))
		}
		out.Event(e)
		content := parser.JSONText(n.Data.Output.Content)
		switch n.Data.Name {
		case "toolAgentflow":
			tools(base, rid+"#tool", usedTool{Tool: n.Data.Input.SelectedTool, ToolInput: n.Data.Input.ToolInputArgs, ToolOutput: n.Data.Output.Content}, out.Event)
			continue
		case "humanInputAgentflow":
			if content != "" {
				e := base
				e.TurnType, e.RecordID, e.Text = timeline.System, rid+"#decision", "human input: "+content
				out.Event(e)
			}
			continue
		}
		for k, t := range n.Data.Output.UsedTools {
			tools(base, rid+"#tool"+strconv.Itoa(k), t, out.Event)
		}
		if (n.Data.Name == "agentAgentflow" || n.Data.Name == "llmAgentflow") && strings.TrimSpace(content) != "" {
			e := base
			e.TurnType, e.RecordID, e.Text = timeline.Assistant, rid+"#output", content
			out.Event(e)
		}
	}
}
