package n8n

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// gatewayMeta is the JSON the computer-use logger appends to a line
// (packages/@n8n/computer-use/src/logger.ts printToolCall, printToolResult,
// printConnected).
type gatewayMeta struct {
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	DurationMs *float64        `json:"durationMs"`
	Error      string          `json:"error"`
	URL        string          `json:"url"`
}

// parseGatewayLog reads ~/.n8n-local-gateway/log: one line per entry,
// "[<ISO time>] [<LEVEL>] <message> <meta JSON>". The log names no session
// and no call id: a result pairs with the oldest unanswered call of the
// same tool, and the rows carry no session.
func parseGatewayLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	pending := map[string][]string{}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		ts, msg, meta, ok := gatewayLine(line)
		if !ok {
			if len(bytes.TrimSpace(line)) > 0 {
				out.Problem(n, "not a gateway log line")
			}
			return nil
		}
		base := timeline.Event{SourceLine: n}
		if t, ok := parser.ParseTime(ts); ok {
			base.Time = t
		} else {
			base.TimeBasis = timeline.TimeNone
		}
		switch {
		case meta.Tool != "" && meta.DurationMs == nil && len(meta.Args) > 0:
			id := fmt.Sprintf("gateway:%d", n)
			pending[meta.Tool] = append(pending[meta.Tool], id)
			args := parser.RedactSecrets(parser.CompactJSON(meta.Args))
			e := base
			e.TurnType, e.ToolName, e.ToolInput, e.ToolUseID, e.RecordID = timeline.ToolUse, meta.Tool, args, id, id
			e.Text = gatewayText(meta.Tool, meta.Args)
			out.Event(e)
		case meta.Tool != "" && meta.DurationMs != nil:
			e := base
			e.TurnType, e.ToolName = timeline.ToolResult, meta.Tool
			e.RecordID = fmt.Sprintf("gateway:%d", n)
			if q := pending[meta.Tool]; len(q) > 0 {
				e.ToolUseID, pending[meta.Tool] = q[0], q[1:]
			}
			e.IsError = strconv.FormatBool(meta.Error != "")
			e.Text = fmt.Sprintf("%s (%s ms)", meta.Tool, strconv.FormatFloat(*meta.DurationMs, 'f', -1, 64))
			if meta.Error != "" {
				e.Text += ": " + parser.RedactSecrets(meta.Error)
			}
			out.Event(e)
		case meta.URL != "":
			e := base
			e.TurnType, e.Text = timeline.System, "computer-use gateway connected to "+meta.URL
			out.Event(e)
		case strings.Contains(msg, "Disconnected"), strings.Contains(msg, "Shutting down"), strings.Contains(msg, "Authentication failed"):
			e := base
			e.TurnType, e.Text = timeline.System, "computer-use gateway: "+strings.TrimSpace(strings.TrimLeft(msg, " ●✗▸"))
			out.Event(e)
		default:
			out.Skip(n, "no_evidence:gateway_status")
		}
		return nil
	})
}

// gatewayLine splits a log line into its time, message and meta. The meta
// is the JSON object at the line's end: the first " {" from which the rest
// of the line decodes as one object (a message can hold braces of its own).
func gatewayLine(line []byte) (ts, msg string, meta gatewayMeta, ok bool) {
	s := strings.TrimRight(string(line), "\r\n")
	if !strings.HasPrefix(s, "[") {
		return "", "", meta, false
	}
	end := strings.Index(s, "] [")
	if end < 0 {
		return "", "", meta, false
	}
	ts = s[1:end]
	rest := s[end+3:]
	lv := strings.Index(rest, "] ")
	if lv < 0 {
		if strings.HasSuffix(rest, "]") {
			return ts, "", meta, true
		}
		return "", "", meta, false
	}
	msg = rest[lv+2:]
	for i := 0; i < len(msg); i++ {
		if msg[i] != '{' || (i > 0 && msg[i-1] != ' ') {
			continue
		}
		var m gatewayMeta
		if json.Unmarshal([]byte(msg[i:]), &m) == nil {
			return ts, msg[:i], m, true
		}
	}
	return ts, msg, meta, true
}

// gatewayText is a call's most telling argument, else its arguments.
func gatewayText(tool string, raw json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"command", "path", "url", "query", "pattern", "text"} {
			if s, ok := m[k].(string); ok && s != "" {
				return parser.RedactSecrets(s)
			}
		}
	}
	return parser.RedactSecrets(strings.TrimSpace(tool + " " + parser.CompactJSON(raw)))
}
