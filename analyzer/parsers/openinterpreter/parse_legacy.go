package openinterpreter

import (
	"bytes"
	"context"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// lmcMessage is one message of the legacy Python tool's conversation file
// (interpreter/core/core.py dumps self.messages): LMC messages
// {role: user|assistant|computer, type: message|code|console|image|
// confirmation|file, format, content}.
type lmcMessage struct {
	Role    string          `json:"role"`
	Type    string          `json:"type"`
	Format  string          `json:"format"`
	Content json.RawMessage `json:"content"`
}

// nameTimeRe is the "<first words>__<%B_%d_%Y_%H-%M-%S>.json" file name
// core.py gives a conversation: host local time, no zone.
var nameTimeRe = regexp.MustCompile(`__([A-Z][a-z]+_\d{2}_\d{4}_\d{2}-\d{2}-\d{2})\.json$`)

func parseLegacy(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "conversation not read: "+err.Error())
		return nil
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(b, &msgs); err != nil {
		out.Problem(0, "not a conversation (a JSON array of messages): "+parser.JSONError(err))
		return nil
	}
	base := path.Base(strings.ReplaceAll(in.Path, "\\", "/"))
	sid := strings.TrimSuffix(base, ".json")
	if m := nameTimeRe.FindStringSubmatch(base); m != nil {
		if t, err := time.Parse("January_02_2006_15-04-05", m[1]); err == nil {
			out.Event(timeline.Event{Time: t, TimeBasis: timeline.TimeLocalAsUTC, SessionID: sid, TurnType: timeline.System,
				Text: "conversation started (time from the file name, host local time); its messages record no time", SourceLine: 0})
		}
	}
	lastCode := ""
	for i, raw := range msgs {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var m lmcMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			out.Report(n, parser.KindSkippedRecord, "not an LMC message: "+parser.JSONError(err))
			continue
		}
		e := timeline.Event{SessionID: sid, TimeBasis: timeline.TimeNone, SourceLine: n}
		text := contentText(m.Content)
		switch {
		case m.Role == "user" && m.Type == "message":
			e.TurnType, e.Text = timeline.User, text
		case m.Role == "assistant" && m.Type == "message":
			e.TurnType, e.Text = timeline.Assistant, text
		case m.Role == "assistant" && m.Type == "code":
			lastCode = strconv.FormatInt(n, 10)
			in, _ := json.Marshal(map[string]string{"language": m.Format, "code": text})
			e.TurnType, e.ToolName, e.ToolUseID, e.Text, e.ToolInput = timeline.ToolUse, "execute", lastCode, text, string(in)
		case m.Role == "computer" && m.Type == "console":
			e.TurnType, e.ToolName, e.ToolUseID, e.Text = timeline.ToolResult, "execute", lastCode, text
		case m.Role == "computer" && m.Type == "confirmation":
			e.TurnType, e.ToolUseID, e.Text = timeline.System, lastCode, "permission decision: ask source=confirmation ("+text+")"
		case m.Type == "image" || m.Type == "file":
			e.TurnType, e.Text = timeline.System, m.Role+" "+m.Type+" ("+m.Format+", "+strconv.Itoa(len(text))+" characters, not shown)"
		default:
			e.TurnType, e.Text = timeline.System, m.Role+" "+m.Type+": "+text
		}
		out.Event(e)
	}
	return nil
}

// contentText is a message's content: a string as is, other JSON compact.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		return string(raw)
	}
	return c.String()
}
