package crush

import (
	"context"
	"database/sql"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"strconv"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

type session struct {
	id, parent, title string
	created           time.Time
	rowid             int64
}

type part struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

type textData struct {
	Text string `json:"text"`
}

type reasoningData struct {
	Thinking string `json:"thinking"`
}

type toolCallData struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input string `json:"input"`
}

type toolResultData struct {
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
	Content    string `json:"content"`
	MIMEType   string `json:"mime_type"`
	IsError    bool   `json:"is_error"`
}

type binaryData struct {
	Path     string
	MIMEType string
}

type imageURLData struct {
	URL string `json:"url"`
}

type shellData struct {
	Command  string `json:"command"`
	Output   string `json:"output"`
	ExitCode int    `json:"exit_code"`
}

// deniedText is the tool result Crush stores when the user refuses a
// permission prompt (internal/agent/tools/tools.go NewPermissionDeniedResponse).
const deniedText = "User denied permission"

func parseDB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	db, err := in.DB(ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	project := projectOf(in.Path)
	sessions := map[string]*session{}
	if ok, err := parser.HasTable(ctx, db, "sessions"); err != nil {
		return err
	} else if ok {
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM sessions ORDER BY created_at, rowid", func(m map[string]any) {
			s := &session{id: parser.SQLText(m["id"]), parent: parser.SQLText(m["parent_session_id"]), title: parser.SQLText(m["title"]), rowid: num(m["rowid_"])}
			s.created, _ = epoch(num(m["created_at"]))
			sessions[s.id] = s
			base := timeline.Event{SessionID: s.id, ProjectPath: project, SourceLine: s.rowid, TurnType: timeline.System}
			if s.created.IsZero() {
				base.TimeBasis = timeline.TimeNone
			} else {
				base.Time = s.created
			}
			if s.parent != "" {
				e := base
				e.Text = "subagent " + s.id + " of " + s.parent
				out.Event(e)
			}
			if s.title != "" {
				e := base
				e.Text = "session title: " + s.title
				out.Event(e)
			}
		})
		if err != nil {
			return fmt.Errorf("read sessions in %s: %w", in.Path, err)
		}
	}
	if ok, err := parser.HasTable(ctx, db, "messages"); err != nil {
		return err
	} else if ok {
		if err := readMessages(ctx, db, in, out, project, sessions); err != nil {
			return err
		}
	}
	if ok, err := parser.HasTable(ctx, db, "files"); err != nil {
		return err
	} else if ok {
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, session_id, path, version, created_at FROM files ORDER BY created_at, rowid", func(m map[string]any) {
			e := timeline.Event{SessionID: parser.SQLText(m["session_id"]), ProjectPath: project, SourceLine: num(m["rowid_"]), TurnType: timeline.System}
			e.Text = fmt.Sprintf("file snapshot: %s version=%d", parser.SQLText(m["path"]), num(m["version"]))
			if t, ok := epoch(num(m["created_at"])); ok {
				e.Time = t
			} else {
				e.TimeBasis = timeline.TimeNone
			}
			out.Event(e)
		})
		if err != nil {
			out.Problem(0, "files table: "+err.Error())
		}
	}
	if ok, err := parser.HasTable(ctx, db, "read_files"); err != nil {
		return err
	} else if ok {
		err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, session_id, path, read_at FROM read_files ORDER BY read_at, rowid", func(m map[string]any) {
			e := timeline.Event{SessionID: parser.SQLText(m["session_id"]), ProjectPath: project, SourceLine: num(m["rowid_"]), TurnType: timeline.System}
			e.Text = "file read: " + parser.SQLText(m["path"])
			if t, ok := epoch(num(m["read_at"])); ok {
				e.Time = t
			} else {
				e.TimeBasis = timeline.TimeNone
			}
			out.Event(e)
		})
		if err != nil {
			out.Problem(0, "read_files table: "+err.Error())
		}
	}
	return nil
}

func readMessages(ctx context.Context, db *sql.DB, in *parser.Input, out parser.Sink, project string, sessions map[string]*session) error {
	lastModel := map[string]string{}
	err := parser.EachRow(ctx, db, "SELECT rowid AS rowid_, * FROM messages ORDER BY created_at, rowid", func(m map[string]any) {
		rowid := num(m["rowid_"])
		sid := parser.SQLText(m["session_id"])
		role := parser.SQLText(m["role"])
		base := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: rowid}
		if t, ok := epoch(num(m["created_at"])); ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		model := parser.SQLText(m["model"])
		if p := parser.SQLText(m["provider"]); p != "" && model != "" {
			model = p + "/" + model
		}
		summary := num(m["is_summary_message"]) != 0
		var parts []part
		if err := json.Unmarshal([]byte(parser.SQLText(m["parts"])), &parts); err != nil {
			out.Problem(rowid, "message parts are not a JSON array: "+err.Error())
			return
		}
		if role == "assistant" && model != "" && model != lastModel[sid] {
			e := base
			e.TurnType = timeline.System
			if old := lastModel[sid]; old == "" {
				e.Text = "model: " + model
			} else {
				e.Text = "model: " + old + " -> " + model
			}
			lastModel[sid] = model
			out.Event(e)
		}
		delegated := false
		if s := sessions[sid]; s != nil && s.parent != "" {
			delegated = true
		}
		for i, p := range parts {
			e := base
			switch p.Type {
			case "text":
				var d textData
				if json.Unmarshal(p.Data, &d) != nil || strings.TrimSpace(d.Text) == "" {
					continue
				}
				e.Text = d.Text
				switch {
				case summary:
					e.TurnType, e.Text = timeline.System, "summary: "+d.Text
				case role == "user" && delegated:
					e.TurnType, e.Text = timeline.System, "subagent prompt: "+d.Text
				case role == "user":
					e.TurnType = timeline.User
				case role == "assistant":
					e.TurnType, e.Model = timeline.Assistant, model
				default:
					e.TurnType = timeline.System
				}
			case "reasoning":
				var d reasoningData
				if json.Unmarshal(p.Data, &d) != nil || strings.TrimSpace(d.Thinking) == "" {
					continue
				}
				e.TurnType, e.Text, e.Model = timeline.Thinking, d.Thinking, model
			case "tool_call":
				var d toolCallData
				if err := json.Unmarshal(p.Data, &d); err != nil {
					out.Problem(rowid, "tool_call part: "+err.Error())
					continue
				}
				e.TurnType, e.Model = timeline.ToolUse, model
				e.ToolName, e.ToolUseID = d.Name, d.ID
				e.ToolInput = parser.CompactJSON([]byte(d.Input))
				e.Text = identifying(d.Input)
			case "tool_result":
				var d toolResultData
				if err := json.Unmarshal(p.Data, &d); err != nil {
					out.Problem(rowid, "tool_result part: "+err.Error())
					continue
				}
				e.TurnType, e.ToolName, e.ToolUseID = timeline.ToolResult, d.Name, d.ToolCallID
				e.Text = d.Content
				if e.Text == "" && d.MIMEType != "" {
					e.Text = "[" + d.MIMEType + " data]"
				}
				e.IsError = strconv.FormatBool(d.IsError)
				out.Event(e)
				if d.IsError && strings.TrimSpace(d.Content) == deniedText {
					pd := base
					pd.TurnType, pd.Text, pd.ToolName, pd.ToolUseID = timeline.System, "permission decision: denied source=user", d.Name, d.ToolCallID
					out.Event(pd)
				}
				continue
			case "binary":
				var d binaryData
				_ = json.Unmarshal(p.Data, &d)
				e.TurnType, e.Text = timeline.System, "attachment: "+d.Path
				if d.MIMEType != "" {
					e.Text += " (" + d.MIMEType + ")"
				}
			case "image_url":
				var d imageURLData
				_ = json.Unmarshal(p.Data, &d)
				u := d.URL
				if strings.HasPrefix(u, "data:") {
					if i := strings.IndexByte(u, ','); i > 0 {
						u = u[:i] + ",..."
					}
				}
				e.TurnType, e.Text = timeline.System, "image: "+u
			case "shell_command":
				var d shellData
				if json.Unmarshal(p.Data, &d) != nil {
					continue
				}
				// A bang-mode command the user typed and Crush ran.
				id := fmt.Sprintf("%s#shell%d", parser.SQLText(m["id"]), i)
				u := e
				u.TurnType, u.Text = timeline.User, "!"+d.Command
				out.Event(u)
				c := e
				c.TurnType, c.ToolName, c.ToolUseID, c.Text = timeline.ToolUse, "shell", id, d.Command
				in, _ := json.Marshal(map[string]string{"command": d.Command})
				c.ToolInput = string(in)
				out.Event(c)
				r := e
				r.TurnType, r.ToolName, r.ToolUseID = timeline.ToolResult, "shell", id
				r.Text = strings.TrimRight(d.Output, "\n") + fmt.Sprintf("\nexit code: %d", d.ExitCode)
				r.IsError = strconv.FormatBool(d.ExitCode != 0)
				out.Event(r)
				continue
			case "finish":
				continue
			default:
				out.Problem(rowid, "unknown part type "+strconv.Quote(p.Type))
				continue
			}
			out.Event(e)
		}
	})
	if err != nil {
		return fmt.Errorf("read messages in %s: %w", in.Path, err)
	}
	return nil
}

// num is parser.SQLInt, 0 when the value is no integer.
func num(v any) int64 { n, _ := parser.SQLInt(v); return n }
