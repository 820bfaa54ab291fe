package augment

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Node types of the Augment chat protocol (request and response nodes).
const (
	nodeText       = 0 // request: text_node; response: raw text
	nodeToolResult = 1 // request: tool_result_node
	nodeImage      = 2 // request: image_node
	nodeIdeState   = 4 // request: ide_state_node (workspace folders, terminal cwd)
	nodeToolUse    = 5 // response: tool_use
	nodeThinking   = 8 // response: thinking
)

type session struct {
	SessionID   string      `json:"sessionId"`
	Created     string      `json:"created"`
	Modified    string      `json:"modified"`
	ChatHistory []chatEntry `json:"chatHistory"`
	AgentState  struct {
		ModelID string `json:"modelId"`
	} `json:"agentState"`
	RootTaskUUID string `json:"rootTaskUuid"`
	ParentID     string `json:"parentConversationId"`
	RootID       string `json:"rootConversationId"`
}

type chatEntry struct {
	Exchange struct {
		RequestMessage string `json:"request_message"`
		ResponseText   string `json:"response_text"`
		RequestID      string `json:"request_id"`
		ModelID        string `json:"model_id"`
		RequestNodes   []node `json:"request_nodes"`
		ResponseNodes  []node `json:"response_nodes"`
	} `json:"exchange"`
	Completed         *bool    `json:"completed"`
	SequenceID        int      `json:"sequenceId"`
	FinishedAt        string   `json:"finishedAt"`
	ChangedFiles      []any    `json:"changedFiles"`
	IsHistorySummary  bool     `json:"isHistorySummary"`
	Source            string   `json:"source"`
	ChangedFilesSkip  []string `json:"changedFilesSkipped"`
	HistorySummaryVer int      `json:"historySummaryVersion"`
}

type node struct {
	ID          int    `json:"id"`
	Type        int    `json:"type"`
	Content     string `json:"content"`
	TimestampMs int64  `json:"timestamp_ms"`
	TextNode    *struct {
		Content string `json:"content"`
	} `json:"text_node"`
	ToolResultNode *struct {
		ToolUseID   string `json:"tool_use_id"`
		Content     string `json:"content"`
		IsError     bool   `json:"is_error"`
		DurationMs  int64  `json:"duration_ms"`
		StartTimeMs int64  `json:"start_time_ms"`
	} `json:"tool_result_node"`
	IdeStateNode *struct {
		WorkspaceFolders []struct {
			RepositoryRoot string `json:"repository_root"`
			FolderRoot     string `json:"folder_root"`
		} `json:"workspace_folders"`
		CurrentTerminal struct {
			Cwd string `json:"current_working_directory"`
		} `json:"current_terminal"`
	} `json:"ide_state_node"`
	ToolUse *struct {
		ToolUseID     string `json:"tool_use_id"`
		ToolName      string `json:"tool_name"`
		InputJSON     string `json:"input_json"`
		StartedAtMs   int64  `json:"started_at_ms"`
		CompletedAtMs int64  `json:"completed_at_ms"`
	} `json:"tool_use"`
	Thinking *struct {
		Content string `json:"content"`
	} `json:"thinking"`
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

func ms(v int64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

// deniedPrefix starts the tool result auggie records when a --permission
// rule or settings.json toolPermissions deny a call.
const deniedPrefix = "Tool execution denied:"

func parseSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 1<<30))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		out.Report(0, parser.KindSkippedRecord, "empty session file (0 bytes of JSON): a write cut short")
		return nil
	}
	var s session
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(0, "session: "+parser.JSONError(err))
		return nil
	}
	sid := s.SessionID
	if sid == "" {
		sid = strings.TrimSuffix(path.Base(strings.ReplaceAll(in.Path, "\\", "/")), ".json")
	}
	created := parseTime(s.Created)
	parent := s.ParentID
	if parent == sid {
		parent = ""
	}
	if parent != "" {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: Agent, SessionID: sid}, ParentSessionID: parent})
	}
	project := ""
	for _, c := range s.ChatHistory {
		for _, n := range c.Exchange.RequestNodes {
			if n.IdeStateNode != nil && len(n.IdeStateNode.WorkspaceFolders) > 0 && project == "" {
				project = n.IdeStateNode.WorkspaceFolders[0].FolderRoot
			}
		}
	}
	emit := func(e timeline.Event) {
		e.SessionID, e.ProjectPath, e.ParentSessionID = sid, project, parent
		if e.Time.IsZero() && e.TimeBasis == timeline.TimeRecorded {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	head := timeline.Event{TurnType: timeline.System, Time: created, SourceLine: 0, RecordID: sid + "#session",
		Text: fmt.Sprintf("session: %s created %s modified %s, %d exchange(s)", sid, s.Created, s.Modified, len(s.ChatHistory))}
	if s.AgentState.ModelID != "" {
		head.Text += ", last model " + parser.Shown(s.AgentState.ModelID)
	}
	if parent != "" {
		head.Text = "subagent " + parser.Shown(sid) + " of " + parser.Shown(parent) + "; " + head.Text
	}
	emit(head)

	model := ""
	last := created
	for i, c := range s.ChatHistory {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		ex := c.Exchange
		rid := ex.RequestID
		k := 0
		id := func() string {
			k++
			if rid == "" {
				return ""
			}
			return fmt.Sprintf("%s#%d", rid, k-1)
		}
		// The request carries no time of its own: it is dated by the first
		// response node (the model answered it), else finishedAt.
		reqTime := time.Time{}
		for _, rn := range ex.ResponseNodes {
			if t := ms(rn.TimestampMs); !t.IsZero() {
				reqTime = t
				break
			}
		}
		fin := parseTime(c.FinishedAt)
		if reqTime.IsZero() {
			reqTime = fin
		}
		if reqTime.IsZero() {
			reqTime = last
		}
		if !reqTime.IsZero() {
			last = reqTime
		}
		rows := 0
		if ex.ModelID != "" && ex.ModelID != model {
			e := timeline.Event{TurnType: timeline.System, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, Model: ex.ModelID}
			if model == "" {
				e.Text = "model: " + parser.Shown(ex.ModelID)
			} else {
				e.Text = "model: " + model + " -> " + parser.Shown(ex.ModelID)
			}
			if rid != "" {
				e.RecordID = rid + "#model"
			}
			model = ex.ModelID
			emit(e)
			rows++
		}
		if c.IsHistorySummary {
			emit(timeline.Event{TurnType: timeline.System, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, Model: ex.ModelID,
				RecordID: rid + "#summary", Text: "history summary (earlier exchanges compacted into this one): " + ex.RequestMessage})
			rows++
		}
		typed := false
		for _, rn := range ex.RequestNodes {
			switch rn.Type {
			case nodeText:
				if rn.TextNode == nil || rn.TextNode.Content == "" {
					continue
				}
				tt := timeline.User
				if c.IsHistorySummary {
					tt = timeline.System
				}
				emit(timeline.Event{TurnType: tt, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, RecordID: id(), Text: rn.TextNode.Content})
				typed, rows = true, rows+1
			case nodeToolResult:
				tr := rn.ToolResultNode
				if tr == nil {
					continue
				}
				t := ms(tr.StartTimeMs + tr.DurationMs)
				if tr.StartTimeMs == 0 {
					t = reqTime
				}
				e := timeline.Event{TurnType: timeline.ToolResult, Time: t, SourceLine: n, RecordID: id(), ToolUseID: tr.ToolUseID,
					Text: tr.Content, IsError: boolStr(tr.IsError || strings.HasPrefix(tr.Content, deniedPrefix))}
				if tr.StartTimeMs == 0 {
					e.TimeBasis = timeline.TimeInherited
				}
				emit(e)
				rows++
				if strings.HasPrefix(tr.Content, deniedPrefix) {
					d := e
					d.TurnType, d.IsError, d.RecordID = timeline.System, "", rid+"#decision"
					d.Text = "permission decision: deny (" + firstLine(tr.Content) + ")"
					if r := ruleLine(tr.Content); r != "" {
						d.Text = "permission decision: deny (" + firstLine(tr.Content) + "; " + r + ")"
					}
					emit(d)
					rows++
				}
			case nodeImage:
				emit(timeline.Event{TurnType: timeline.User, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, RecordID: id(), Text: "[image]"})
				rows++
			case nodeIdeState:
				// Workspace folders and terminal cwd: folded into project_path.
			default:
				emit(timeline.Event{TurnType: timeline.System, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, RecordID: id(),
					Text: fmt.Sprintf("request node type %d", rn.Type)})
				rows++
			}
		}
		if !typed && !c.IsHistorySummary && strings.TrimSpace(ex.RequestMessage) != "" {
			emit(timeline.Event{TurnType: timeline.User, Time: reqTime, TimeBasis: timeline.TimeInherited, SourceLine: n, RecordID: rid + "#message", Text: ex.RequestMessage})
			rows++
		}
		texts := 0
		for _, rn := range ex.ResponseNodes {
			t := ms(rn.TimestampMs)
			switch rn.Type {
			case nodeText:
				if rn.Content == "" {
					continue
				}
				emit(timeline.Event{TurnType: timeline.Assistant, Time: t, SourceLine: n, RecordID: id(), Model: ex.ModelID, Text: rn.Content})
				rows, texts = rows+1, texts+1
			case nodeToolUse:
				tu := rn.ToolUse
				if tu == nil {
					continue
				}
				if st := ms(tu.StartedAtMs); !st.IsZero() {
					t = st
				}
				emit(timeline.Event{TurnType: timeline.ToolUse, Time: t, SourceLine: n, RecordID: id(), Model: ex.ModelID,
					ToolName: tu.ToolName, ToolUseID: tu.ToolUseID, ToolInput: parser.CompactJSON([]byte(tu.InputJSON)), Text: callText(tu.ToolName, tu.InputJSON)})
				rows++
			case nodeThinking:
				txt := rn.Content
				if rn.Thinking != nil && rn.Thinking.Content != "" {
					txt = rn.Thinking.Content
				}
				emit(timeline.Event{TurnType: timeline.Thinking, Time: t, SourceLine: n, RecordID: id(), Model: ex.ModelID, Text: txt})
				rows++
			}
		}
		if texts == 0 && strings.TrimSpace(ex.ResponseText) != "" {
			emit(timeline.Event{TurnType: timeline.Assistant, Time: fin, SourceLine: n, RecordID: rid + "#response", Model: ex.ModelID, Text: ex.ResponseText})
			rows++
		}
		if len(c.ChangedFiles) > 0 {
			b, _ := json.Marshal(c.ChangedFiles)
			emit(timeline.Event{TurnType: timeline.System, Time: fin, SourceLine: n, RecordID: rid + "#changed", Text: "changed files: " + string(b)})
			rows++
		}
		if c.Completed != nil && !*c.Completed {
			emit(timeline.Event{TurnType: timeline.System, Time: fin, SourceLine: n, RecordID: rid + "#incomplete", Text: "exchange not completed (interrupted or failed)"})
			rows++
		}
		if rows == 0 {
			out.Skip(n, "no_evidence:empty_exchange")
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return strings.TrimSpace(s)
}

// ruleLine is the "Denied by ..." line of a denial, naming the rule.
func ruleLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "Denied by") {
			return l
		}
	}
	return ""
}

func callText(name, input string) string {
	var in map[string]any
	if json.Unmarshal([]byte(input), &in) == nil {
		for _, k := range []string{"command", "path", "file_path", "query", "url", "information_request"} {
			if s, ok := in[k].(string); ok && s != "" {
				return name + ": " + s
			}
		}
	}
	return name
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
