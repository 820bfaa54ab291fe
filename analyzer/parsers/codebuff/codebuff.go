package codebuff

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

const agentName = "codebuff"

// Parsers returns the Codebuff (and Freebuff) parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "codebuff/chat", Agent: agentName, Version: 3, Actions: actions,
			Targets: []string{"chats"}, Names: []string{"chat-messages.json"},
			Doc: "projects/<project>/chats/<chat>/chat-messages.json (Codebuff and its Freebuff flavour, told apart by run-state.json's agentType): typed prompts, replies, reasoning, tool calls with input and output, spawned agents with their prompt, output and blocks, plans, questions asked, mode changes, errors; time-only local message times carry the chat folder's start time (inherited)",
		}, parseChat),
	}
}

// message is one element of chat-messages.json.
type message struct {
	ID        string  `json:"id"`
	Variant   string  `json:"variant"`
	Content   string  `json:"content"`
	Timestamp string  `json:"timestamp"`
	Blocks    []block `json:"blocks"`
}

// block is one block of a message: text {textType, content}, tool
// {toolName, toolCallId, input, output}, agent {agentId, agentType,
// agentName, status, params, initialPrompt, content, blocks},
// mode-divider {mode}, plan {content}, ask-user {questions}, image
// {filename}.
type block struct {
	Type          string          `json:"type"`
	TextType      string          `json:"textType"`
	Content       string          `json:"content"`
	ToolName      string          `json:"toolName"`
	ToolCallID    string          `json:"toolCallId"`
	Input         json.RawMessage `json:"input"`
	Output        json.RawMessage `json:"output"`
	AgentID       string          `json:"agentId"`
	AgentType     string          `json:"agentType"`
	AgentName     string          `json:"agentName"`
	Status        string          `json:"status"`
	Params        json.RawMessage `json:"params"`
	InitialPrompt string          `json:"initialPrompt"`
	Blocks        []block         `json:"blocks"`
	Mode          string          `json:"mode"`
	Questions     []struct {
		Question string `json:"question"`
	} `json:"questions"`
	Filename string `json:"filename"`
}

type chat struct {
	out        parser.Sink
	sid        string
	project    string
	flavour    string
	agent      string
	accounting string // run-state.json credits, context tokens, skills ("; ..." parts)
	start      time.Time
	local      []string // time-only local clock times seen
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	p := strings.ReplaceAll(in.Path, "\\", "/")
	dir := path.Dir(p)
	c := &chat{out: out, sid: path.Base(dir), project: path.Base(path.Dir(path.Dir(dir))), flavour: "codebuff"}
	if t, err := time.Parse("2006-01-02T15-04-05.999Z", c.sid); err == nil {
		c.start = t.UTC()
	}
	if b, ok := in.ReadRelated(dir+"/run-state.json", 64<<20); ok {
		var rs struct {
			SessionState struct {
				MainAgentState struct {
					AgentType         string          `json:"agentType"`
					CreditsUsed       json.RawMessage `json:"creditsUsed"`
					ContextTokenCount json.RawMessage `json:"contextTokenCount"`
				} `json:"mainAgentState"`
				FileContext struct {
					Cwd    string                     `json:"cwd"`
					Skills map[string]json.RawMessage `json:"skills"`
				} `json:"fileContext"`
			} `json:"sessionState"`
		}
		if json.Unmarshal(b, &rs) == nil {
			if rs.SessionState.FileContext.Cwd != "" {
				c.project = rs.SessionState.FileContext.Cwd
			}
			c.agent = rs.SessionState.MainAgentState.AgentType
			if strings.Contains(strings.ToLower(c.agent), "free") {
				c.flavour = "freebuff"
			}
			c.accounting = runStateAccounting(rs.SessionState.MainAgentState.CreditsUsed, rs.SessionState.MainAgentState.ContextTokenCount, rs.SessionState.FileContext.Skills)
		}
	}
	if c.agent != "" {
		// the chat folder's name is its start time in UTC
		e := timeline.Event{SessionID: c.sid, ProjectPath: c.project, TurnType: timeline.System, Time: c.start, Model: c.agent}
		if c.start.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		e.Text = "chat started (" + c.flavour + ", agent type " + c.agent + ", from run-state.json)" + c.accounting
		out.Event(e)
	}
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := jsontext.NewDecoder(rc)
	tok, err := dec.ReadToken()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		out.Problem(0, "not a Codebuff chat: "+err.Error())
		return nil
	}
	if tok.Kind() != '[' {
		out.Problem(0, "not a Codebuff chat: the file is no JSON array")
		return nil
	}
	var n int64
	for dec.PeekKind() != ']' {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := dec.ReadValue()
		n++
		if err != nil {
			out.Problem(n, "chat message not read (the rest of the file is not read): "+parser.JSONError(err))
			break
		}
		var m message
		if err := json.Unmarshal(v, &m); err != nil {
			out.Problem(n, "not a chat message: "+parser.JSONError(err))
			continue
		}
		c.message(n, &m)
	}
	if len(c.local) > 0 {
		e := timeline.Event{SessionID: c.sid, ProjectPath: c.project, TurnType: timeline.System, Time: c.start, TimeBasis: timeline.TimeInherited}
		if c.start.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		e.Text = fmt.Sprintf("%d message time(s) are local clock times with no date or zone (first %s, last %s); those rows carry the chat folder's start time", len(c.local), c.local[0], c.local[len(c.local)-1])
		out.Event(e)
	}
	return nil
}

func (c *chat) message(n int64, m *message) {
	base := timeline.Event{SessionID: c.sid, ProjectPath: c.project, SourceLine: n}
	ts := strings.TrimSpace(m.Timestamp)
	if t, ok := parser.ParseTime(ts); ok && strings.Contains(ts, "T") {
		base.Time = t
	} else if ts != "" && !c.start.IsZero() {
		base.Time, base.TimeBasis = c.start, timeline.TimeInherited
		c.local = append(c.local, ts)
	} else {
		base.TimeBasis = timeline.TimeNone
		if ts != "" {
			c.local = append(c.local, ts)
		}
	}
	k := 0
	emit := func(e timeline.Event) {
		if m.ID != "" {
			e.RecordID = m.ID
			if k > 0 {
				e.RecordID = m.ID + "#" + strconv.Itoa(k)
			}
		}
		k++
		c.out.Event(e)
	}
	ev := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		return e
	}
	switch m.Variant {
	case "user":
		if t := strings.TrimSpace(m.Content); t != "" {
			emit(ev(timeline.User, t))
		}
		for _, b := range m.Blocks {
			if b.Type == "image" {
				emit(ev(timeline.System, imageText(b)))
			}
		}
	case "ai":
		if t := strings.TrimSpace(m.Content); t != "" && len(m.Blocks) == 0 {
			emit(ev(timeline.Assistant, t))
		}
		c.blocks(n, base, m.Blocks, emit)
	case "error":
		if t := strings.TrimSpace(m.Content); t != "" {
			emit(ev(timeline.System, "error: "+t))
		}
	default:
		c.out.Report(n, parser.KindSkippedRecord, "unknown chat message variant "+strconv.Quote(m.Variant))
		return
	}
	if k == 0 {
		c.out.Skip(n, "no_evidence:empty_message")
	}
}

func imageText(b block) string {
	if b.Filename != "" {
		return "image attached: " + b.Filename
	}
	return "image attached"
}

func (c *chat) blocks(n int64, base timeline.Event, bs []block, emit func(timeline.Event)) {
	ev := func(tt timeline.TurnType, text string) timeline.Event {
		e := base
		e.TurnType, e.Text = tt, text
		return e
	}
	for _, b := range bs {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Content) == "" {
				continue
			}
			if b.TextType == "reasoning" {
				emit(ev(timeline.Thinking, b.Content))
			} else {
				emit(ev(timeline.Assistant, b.Content))
			}
		case "tool":
			in := parser.CompactJSON(b.Input)
			e := ev(timeline.ToolUse, callText(b.ToolName, in))
			e.ToolName, e.ToolUseID, e.ToolInput = b.ToolName, b.ToolCallID, in
			emit(e)
			if len(b.Output) > 0 && string(b.Output) != "null" {
				r := ev(timeline.ToolResult, parser.JSONText(b.Output))
				r.ToolName, r.ToolUseID = b.ToolName, b.ToolCallID
				emit(r)
			}
		case "agent":
			args := map[string]any{"agentType": b.AgentType, "agentName": b.AgentName, "status": b.Status}
			if len(b.Params) > 0 && string(b.Params) != "null" {
				args["params"] = json.RawMessage(b.Params)
			}
			if b.InitialPrompt != "" {
				args["prompt"] = b.InitialPrompt
			}
			in := parser.JSONValue(args)
			// agent types are open-ended (user-defined agents too): the
			// tool name is "agent:<type>", one pattern in the actions table
			name := "agent:" + b.AgentType
			e := ev(timeline.ToolUse, "spawned agent "+b.AgentType+" ("+b.Status+"): "+b.InitialPrompt)
			e.ToolName, e.ToolUseID, e.ToolInput = name, b.AgentID, in
			emit(e)
			sub := base
			if b.AgentID != "" {
				sub.SessionID, sub.ParentSessionID = b.AgentID, c.sid
			}
			c.blocks(n, sub, b.Blocks, emit)
			if strings.TrimSpace(b.Content) != "" {
				r := ev(timeline.ToolResult, b.Content)
				r.ToolName, r.ToolUseID = name, b.AgentID
				emit(r)
			}
		case "mode-divider":
			emit(ev(timeline.System, "mode: "+b.Mode))
		case "plan":
			emit(ev(timeline.System, "plan: "+b.Content))
		case "ask-user":
			var qs []string
			for _, q := range b.Questions {
				qs = append(qs, q.Question)
			}
			emit(ev(timeline.System, "agent asked the user: "+strings.Join(qs, " | ")))
		case "image":
			emit(ev(timeline.System, imageText(b)))
		default:
			c.out.Report(n, parser.KindSkippedRecord, "unknown block type "+strconv.Quote(b.Type))
		}
	}
}

func callText(name, args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		for _, k := range []string{"command", "path", "paths", "pattern", "query", "url", "prompt"} {
			if s, ok := m[k].(string); ok && s != "" {
				return name + ": " + s
			}
		}
	}
	return strings.TrimSpace(name + " " + args)
}

// runStateAccounting is what run-state.json's main agent state says of the
// chat's cost and context (creditsUsed, contextTokenCount, as written) and
// the skills its file context offered (by name), as "; ..." parts; "" when
// it holds none of them.
func runStateAccounting(credits, ctxTokens json.RawMessage, skills map[string]json.RawMessage) string {
	var parts []string
	if v := strings.TrimSpace(string(credits)); v != "" && v != "null" {
		parts = append(parts, "credits used "+v)
	}
	if v := strings.TrimSpace(string(ctxTokens)); v != "" && v != "null" {
		parts = append(parts, "context tokens "+v)
	}
	if len(skills) > 0 {
		names := make([]string, 0, len(skills))
		for k := range skills {
			names = append(names, k)
		}
		sort.Strings(names)
		parts = append(parts, "skills offered: "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}
