package positassistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "posit-assistant"

// Parsers returns the Posit Assistant parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "posit-assistant/lm-messages", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"conversations"}, Names: []string{"lm-messages.jsonl"},
			Doc: "workspaces/<ws>/<conversation>/[subagents/<id>/]lm-messages.jsonl model messages: typed prompts, subagent tasks, reasoning, replies, tool calls, results and approvals, token usage; the conversation.json tree marks messages on abandoned branches",
		}, parseMessages),
		parser.New(parser.Spec{
			ID: "posit-assistant/conversation", Agent: Agent, Version: 1,
			Targets: []string{"conversations"}, Names: []string{"conversation.json"},
			Doc: "workspaces/<ws>/<conversation>/conversation.json: one session row (title, summary, kind, parent, task, git branch, model) and the tree's branch count",
		}, parseConversation),
		parser.New(parser.Spec{
			ID: "posit-assistant/index", Agent: Agent, Version: 1, Trace: true,
			Targets: []string{"conversations"}, Names: []string{"index.json"},
			Doc: "workspaces/<ws>/index.json: one row per listed conversation, naming those whose folder was not collected (deleted)",
		}, parseIndex),
	}
}

// conversation is conversation.json (schemaVersion "3").
type conversation struct {
	SchemaVersion string `json:"schemaVersion"`
	Root          struct {
		ID        string  `json:"id"`
		Title     *string `json:"title"`
		Summary   *string `json:"summary"`
		Timestamp int64   `json:"timestamp"`
		Metadata  struct {
			Kind         string `json:"kind"`
			ParentTreeID string `json:"parentTreeId"`
			Task         string `json:"task"`
			GitBranch    string `json:"gitBranch"`
			Model        struct {
				ID         string `json:"id"`
				ProviderID string `json:"providerId"`
			} `json:"model"`
		} `json:"metadata"`
	} `json:"root"`
	Messages []node `json:"messages"`
}

type node struct {
	ID           string  `json:"id"`
	ParentID     string  `json:"parentId"`
	IsActive     bool    `json:"isActive"`
	LMMessageIDs []int64 `json:"lmMessageIds"`
	Timestamp    int64   `json:"timestamp"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// where is what the folder layout says of a conversation file: its
// conversation id (the folder), the parent conversation of a subagent
// folder, and the workspace folder holding workspace.json.
type where struct {
	conv, parent, workspace string
}

func locate(p string) where {
	dir := path.Dir(p)
	w := where{conv: path.Base(dir)}
	up := path.Dir(dir)
	if path.Base(up) == "subagents" {
		w.parent = path.Base(path.Dir(up))
		// a subagent of a subagent nests again; the workspace is the
		// folder under workspaces/
		for path.Base(up) == "subagents" {
			up = path.Dir(path.Dir(up))
		}
	}
	w.workspace = up
	return w
}

// project reads workspace.json's path.
func project(in *parser.Input, workspace string) string {
	b, ok := in.ReadRelated(path.Join(workspace, "workspace.json"), 1<<20)
	if !ok {
		return ""
	}
	var m struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal(b, &m)
	return m.Path
}

func readConversation(in *parser.Input, dir string) (*conversation, error) {
	b, err := parser.ReadRelated(in, path.Join(dir, "conversation.json"), 64<<20)
	if err != nil {
		return nil, err
	}
	var c conversation
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

func msTime(ms int64) (time.Time, bool) {
	if ms <= 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(ms).UTC(), true
}

type lmLine struct {
	ID      *int64 `json:"id"`
	Message *struct {
		Role            string          `json:"role"`
		Content         json.RawMessage `json:"content"`
		ProviderOptions struct {
			Meta struct {
				Positai struct {
					Timestamp int64  `json:"timestamp"`
					ModelID   string `json:"modelId"`
					Usage     *struct {
						Input      *int64 `json:"inputTokens"`
						Output     *int64 `json:"outputTokens"`
						CacheRead  *int64 `json:"cacheReadTokens"`
						CacheWrite *int64 `json:"cacheWriteTokens"`
					} `json:"usage"`
				} `json:"positai"`
			} `json:"providerMetadata"`
		} `json:"providerOptions"`
	} `json:"message"`
}

// part is one Vercel AI SDK ModelMessage content part.
type part struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	Output     json.RawMessage `json:"output"`
	ApprovalID string          `json:"approvalId"`
	Approved   *bool           `json:"approved"`
	Reason     string          `json:"reason"`
	MediaType  string          `json:"mediaType"`
	Filename   string          `json:"filename"`
}

func parseMessages(ctx context.Context, in *parser.Input, out parser.Sink) error {
	w := locate(in.Path)
	proj := project(in, w.workspace)
	conv, cerr := readConversation(in, path.Dir(in.Path))
	// lm message id -> the tree nodes naming it
	refs := map[int64][]node{}
	subagent := w.parent != ""
	parent := w.parent
	if conv != nil {
		for _, nd := range conv.Messages {
			for _, id := range nd.LMMessageIDs {
				refs[id] = append(refs[id], nd)
			}
		}
		if conv.Root.Metadata.Kind == "subagent" {
			subagent = true
			if conv.Root.Metadata.ParentTreeID != "" {
				parent = conv.Root.Metadata.ParentTreeID
			}
		}
	}
	seen := map[int64]bool{}
	var last time.Time
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var l lmLine
		if err := json.Unmarshal(line, &l); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if l.ID == nil || l.Message == nil {
			out.Report(n, parser.KindSkippedRecord, "an lm-messages line without id or message")
			return nil
		}
		id := *l.ID
		seen[id] = true
		m := l.Message
		nodes := refs[id]
		active := false
		for _, nd := range nodes {
			active = active || nd.IsActive
		}
		base := timeline.Event{SessionID: w.conv, ParentSessionID: parent, ProjectPath: proj, SourceLine: n, Model: m.ProviderOptions.Meta.Positai.ModelID, TimeBasis: timeline.TimeNone}
		if t, ok := msTime(m.ProviderOptions.Meta.Positai.Timestamp); ok {
			base.Time, base.TimeBasis = t, timeline.TimeRecorded
		} else if len(nodes) > 0 {
			if t, ok := msTime(nodes[0].Timestamp); ok {
				base.Time, base.TimeBasis = t, timeline.TimeInherited
			}
		} else if !last.IsZero() {
			base.Time, base.TimeBasis = last, timeline.TimeInherited
		}
		if base.TimeBasis != timeline.TimeNone {
			last = base.Time
		}
		var rows []timeline.Event
		add := func(tt timeline.TurnType, text string) *timeline.Event {
			e := base
			e.TurnType, e.Text = tt, text
			rows = append(rows, e)
			return &rows[len(rows)-1]
		}
		parts, plain, perr := content(m.Content)
		if perr != nil {
			out.Problem(n, parser.NotJSON("message content", perr))
			return nil
		}
		switch m.Role {
		case "user":
			var typed []string
			for _, p := range parts {
				switch p.Type {
				case "text":
					typed = append(typed, p.Text)
				case "image", "file":
					typed = append(typed, attachment(p))
				default:
					out.Report(n, parser.KindSkippedRecord, "a user content part "+strconv.Quote(p.Type)+", not known")
				}
			}
			text := strings.Join(typed, "\n")
			if plain != nil {
				text = *plain
			}
			if subagent {
				add(timeline.System, "subagent task from the parent agent (not typed): "+text)
			} else {
				add(timeline.User, text)
			}
		case "system":
			text := joinText(parts)
			if plain != nil {
				text = *plain
			}
			add(timeline.System, text)
		case "assistant":
			if plain != nil {
				add(timeline.Assistant, *plain)
			}
			for _, p := range parts {
				switch p.Type {
				case "text":
					add(timeline.Assistant, p.Text)
				case "reasoning":
					add(timeline.Thinking, p.Text)
				case "tool-call":
					e := add(timeline.ToolUse, headline(p.Input, p.ToolName))
					e.ToolName, e.ToolUseID, e.ToolInput = p.ToolName, p.ToolCallID, parser.CompactJSON(p.Input)
				case "tool-approval-request":
					e := add(timeline.System, "tool approval requested: approval "+p.ApprovalID+" for call "+p.ToolCallID)
					e.ToolUseID = p.ToolCallID
				case "file", "image":
					add(timeline.Assistant, attachment(p))
				default:
					out.Report(n, parser.KindSkippedRecord, "an assistant content part "+strconv.Quote(p.Type)+", not known")
				}
			}
		case "tool":
			for _, p := range parts {
				switch p.Type {
				case "tool-result":
					text, isErr := output(p.Output)
					e := add(timeline.ToolResult, text)
					e.ToolName, e.ToolUseID, e.IsError = p.ToolName, p.ToolCallID, strconv.FormatBool(isErr)
				case "tool-approval-response":
					d := "denied"
					if p.Approved != nil && *p.Approved {
						d = "approved"
					}
					text := "permission decision: " + d + " (approval " + p.ApprovalID + ")"
					if p.Reason != "" {
						text += ": " + p.Reason
					}
					add(timeline.System, text)
				default:
					out.Report(n, parser.KindSkippedRecord, "a tool content part "+strconv.Quote(p.Type)+", not known")
				}
			}
		default:
			out.Report(n, parser.KindSkippedRecord, "a message of role "+m.Role)
			return nil
		}
		if conv != nil && !active {
			why := "not named by any node of conversation.json's tree"
			if len(nodes) > 0 {
				why = "on an inactive branch of conversation.json's tree (node " + nodes[0].ID + "; edited, retried or rewound in Posit Assistant)"
			}
			add(timeline.System, fmt.Sprintf("lm message %d above is %s", id, why))
		}
		if u := m.ProviderOptions.Meta.Positai.Usage; u != nil {
			var c []string
			for _, f := range []struct {
				name string
				v    *int64
			}{{"input", u.Input}, {"output", u.Output}, {"cache read", u.CacheRead}, {"cache write", u.CacheWrite}} {
				if f.v != nil {
					c = append(c, f.name+" "+strconv.FormatInt(*f.v, 10))
				}
			}
			if len(c) > 0 {
				add(timeline.System, "token usage: "+strings.Join(c, ", "))
			}
		}
		for i, e := range rows {
			e.RecordID = fmt.Sprintf("%s:lm%d", w.conv, id)
			if i > 0 {
				e.RecordID += fmt.Sprintf("#%d", i)
			}
			out.Event(e)
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case errors.Is(cerr, parser.ErrNotCollected):
		out.Problem(0, "conversation.json beside it was not collected: branches, subagent kind and node times unknown")
	case cerr != nil:
		out.Problem(0, parser.NotJSONObject("conversation.json beside it", cerr)+": branches, subagent kind and node times unknown")
	default:
		var missing []int64
		for id := range refs {
			if !seen[id] {
				missing = append(missing, id)
			}
		}
		sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
		for _, id := range missing {
			out.Report(0, parser.KindOrphanRecord, fmt.Sprintf("conversation.json node %s names lm message %d, which this file does not hold", refs[id][0].ID, id))
		}
	}
	return nil
}

// content reads a ModelMessage content: a string (plain) or an array of
// parts.
func content(raw json.RawMessage) (parts []part, plain *string, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		s := ""
		return nil, &s, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return nil, &s, nil
	}
	err = json.Unmarshal(raw, &parts)
	return parts, nil, err
}

func joinText(parts []part) string {
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		} else {
			out = append(out, "["+p.Type+"]")
		}
	}
	return strings.Join(out, "\n")
}

func attachment(p part) string {
	s := "[" + p.Type
	if p.MediaType != "" {
		s += " " + p.MediaType
	}
	if p.Filename != "" {
		s += " " + p.Filename
	}
	return s + "]"
}

// output renders a tool result's output: {type: text|json|error-text|
// error-json|content|execution-denied, value} (AI SDK
// LanguageModelV2ToolResultOutput), or any other JSON as it is.
func output(raw json.RawMessage) (string, bool) {
	var o struct {
		Type   string          `json:"type"`
		Value  json.RawMessage `json:"value"`
		Reason string          `json:"reason"`
	}
	if json.Unmarshal(raw, &o) != nil || o.Type == "" {
		return parser.CompactJSON(raw), false
	}
	isErr := strings.HasPrefix(o.Type, "error-") || o.Type == "execution-denied"
	if o.Type == "execution-denied" {
		return "execution denied: " + o.Reason, true
	}
	if s, ok := parser.JSONString(o.Value); ok {
		return s, isErr
	}
	return parser.CompactJSON(o.Value), isErr
}

func headline(args json.RawMessage, name string) string {
	return parser.ArgHeadline(args, name, "command", "file_path", "path", "pattern", "query", "url", "task", "prompt", "code")
}

func parseConversation(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 64<<20)
	if err != nil {
		return err
	}
	var c conversation
	if err := json.Unmarshal(b, &c); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	w := locate(in.Path)
	md := c.Root.Metadata
	parent := w.parent
	if md.ParentTreeID != "" {
		parent = md.ParentTreeID
	}
	e := timeline.Event{TurnType: timeline.System, SessionID: w.conv, ParentSessionID: parent, ProjectPath: project(in, w.workspace),
		SourceLine: 1, TimeBasis: timeline.TimeNone, RecordID: w.conv + "#conversation", Model: md.Model.ID}
	if t, ok := msTime(c.Root.Timestamp); ok {
		e.Time, e.TimeBasis = t, timeline.TimeRecorded
	}
	kind := md.Kind
	if kind == "" {
		kind = "main"
	}
	parts := []string{"posit assistant conversation " + w.conv + " (" + kind + ")"}
	if c.Root.ID != "" && c.Root.ID != w.conv {
		parts = append(parts, "root id "+c.Root.ID)
	}
	if t := str(c.Root.Title); t != "" {
		parts = append(parts, "title "+t)
	}
	if s := str(c.Root.Summary); s != "" {
		parts = append(parts, "summary "+s)
	}
	if md.Task != "" {
		parts = append(parts, "task "+md.Task)
	}
	if md.GitBranch != "" {
		parts = append(parts, "git branch "+md.GitBranch)
	}
	if md.Model.ID != "" {
		parts = append(parts, "model "+md.Model.ID+" via "+md.Model.ProviderID)
	}
	inactive := 0
	for _, nd := range c.Messages {
		if !nd.IsActive {
			inactive++
		}
	}
	parts = append(parts, fmt.Sprintf("%d tree nodes, %d on inactive branches", len(c.Messages), inactive))
	e.Text = strings.Join(parts, "; ")
	out.Event(e)
	return nil
}

func parseIndex(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 64<<20)
	if err != nil {
		return err
	}
	var idx struct {
		Conversations []json.RawMessage `json:"conversations"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		out.Problem(0, parser.NotJSONObject("", err))
		return nil
	}
	ws := path.Dir(in.Path)
	proj := project(in, ws)
	for i, raw := range idx.Conversations {
		n := int64(i + 1)
		var c struct {
			ID        string  `json:"id"`
			Timestamp int64   `json:"timestamp"`
			Title     *string `json:"title"`
			Summary   *string `json:"summary"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || c.ID == "" {
			out.Problem(n, parser.NotJSONObject("index entry", err)+" with an id")
			continue
		}
		e := timeline.Event{TurnType: timeline.System, SessionID: c.ID, ProjectPath: proj, SourceLine: n, TimeBasis: timeline.TimeNone, RecordID: c.ID + "#index"}
		if t, ok := msTime(c.Timestamp); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		text := "conversation listed in the workspace index"
		if t := str(c.Title); t != "" {
			text += "; title " + t
		}
		if s := str(c.Summary); s != "" {
			text += "; summary " + s
		}
		if len(in.List(parser.GlobEscape(path.Join(ws, c.ID))+"/*")) == 0 {
			text += "; its folder was not collected (deleted, or outside the collection)"
		}
		e.Text = text
		out.Event(e)
	}
	return nil
}
