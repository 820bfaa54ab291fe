package continuedev

import (
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/continuesession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The winston line format and colour codes of the cn CLI log (continuesession).
var (
	logLine = continuesession.LogLine
	ansi    = continuesession.ANSI
)

var metadataPost = regexp.MustCompile(`^\[metadata\] POST (\S+)`)

// parseCLILog reads the cn CLI's log for its forensic lines only.
func parseCLILog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var spans []sessionSpan
	spansRead := false
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		m := logLine.FindStringSubmatch(string(line))
		if m == nil {
			out.Skip(n, "log_continuation") // a stack trace or wrapped continuation
			return nil
		}
		msg := ansi.ReplaceAllString(m[4], "")
		msg, meta := splitMeta(msg)
		e := timeline.Event{TurnType: timeline.System, SourceLine: n}
		if t, err := time.Parse("2006-01-02 15:04:05.999", m[1]); err == nil {
			e.Time, e.TimeBasis = t.UTC(), timeline.TimeLocalAsUTC
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		switch {
		case strings.TrimSpace(msg) == resumeMsg:
			// The line names no session: it is the one session created
			// before the resume and written after it, when only one is.
			if !spansRead {
				spans, spansRead = sessionSpans(in, continueDir(in.Path)), true
			}
			sid, cands := attributeResume(spans, e.Time)
			e.SessionID = sid
			e.Text = "session resumed: --resume loaded the session written last"
			if sid == "" {
				e.Text += fmt.Sprintf(" (not named in the log; %d collected session(s) were created before and written after it)", cands)
			}
		case metadataPost.MatchString(msg):
			var md struct {
				AgentID string   `json:"agentId"`
				Keys    []string `json:"metadataKeys"`
			}
			_ = json.Unmarshal(meta, &md)
			keys := append([]string(nil), md.Keys...)
			sort.Strings(keys)
			e.SessionID = md.AgentID
			e.Text = fmt.Sprintf("agent metadata posted: agent=%s keys=%s url=%s", md.AgentID, strings.Join(keys, ","), metadataPost.FindStringSubmatch(msg)[1])
		case strings.HasPrefix(msg, "Storage sync requested but"):
			e.Text = "storage upload requested, skipped: " + strings.TrimSpace(strings.TrimPrefix(msg, "Storage sync requested but"))
		case strings.HasPrefix(msg, "Storage sync enabled"):
			e.Text = "storage upload requested: " + strings.TrimSpace(msg)
		case strings.Contains(msg, "Storage uploads disabled for this session"):
			e.Text = "storage upload requested, failed: " + strings.TrimSpace(msg)
		case strings.HasPrefix(msg, "Added policy rule to permissions.yaml:"):
			rule := strings.TrimSpace(strings.TrimPrefix(msg, "Added policy rule to permissions.yaml:"))
			e.Text = "permission decision: allow always source=user rule=" + rule
		case msg == "Tool call denied":
			var d struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				Reason    string          `json:"reason"`
			}
			_ = json.Unmarshal(meta, &d)
			if d.Reason == "" {
				d.Reason = "user"
			}
			e.ToolName = d.Name
			e.ToolInput = parser.CompactJSON(d.Arguments)
			e.Text = fmt.Sprintf("permission decision: denied source=%s tool=%s", d.Reason, d.Name)
		default:
			out.Skip(n, "no_evidence:log_line")
			return nil
		}
		out.Event(e)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	return nil
}

// splitMeta separates the trailing metadata JSON object winston appends.
func splitMeta(msg string) (string, json.RawMessage) {
	if !strings.HasSuffix(msg, "}") {
		return msg, nil
	}
	for i := strings.Index(msg, " {"); i >= 0; {
		cand := msg[i+1:]
		if json.Valid([]byte(cand)) {
			return msg[:i], json.RawMessage(cand)
		}
		j := strings.Index(msg[i+1:], " {")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return msg, nil
}
