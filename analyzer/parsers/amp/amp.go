package amp

import (
	"bytes"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Agent is the catalog name.
const Agent = "amp"

// Parsers returns the Amp parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: "amp/history", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"history"}, Names: []string{"history.jsonl"},
			Doc: ".local/share/amp/history.jsonl: typed prompts with their working directory (secondary user rows, no time, no thread)",
			Secondary: &parser.Secondary{Window: 0, TurnTypes: []timeline.TurnType{timeline.User},
				Basis: "@ampcode/cli 0.0.1790142911 embedded JS: {text, cwd} lines, no time or thread id; the thread itself is server-side"},
		}, parseHistory),
		parser.New(parser.Spec{
			ID: "amp/log", Agent: Agent, Version: 2,
			Actions: actions,
			Targets: []string{"thread-logs"}, Names: []string{"*.log"},
			Doc: ".cache/amp/logs/threads/<T-id>.log and cli.log: LogTape JSON Lines records (system rows per thread; tool names, errors)",
		}, parseLog),
		parser.New(parser.Spec{
			ID: "amp/terminal-history", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"terminal-history"}, Names: []string{"history"},
			Doc: ".cache/amp/terminal/<thread>/history: shell commands of the terminal tool (system rows, no time)",
		}, parseTerminalHistory),
		parser.New(parser.Spec{
			ID: "amp/settings", Agent: Agent, Version: 1,
			Actions: actions,
			Targets: []string{"settings"}, Names: []string{"settings.json", "settings.jsonc"},
			Doc: ".config/amp/settings.json: amp.permissions, amp.dangerouslyAllowAll, amp.commands.allowlist, amp.tools.disable, MCP server names and the other amp.* keys (file mtime; env and header values never read)",
		}, parseSettings),
	}
}

// parseHistory reads history.jsonl: one {"text", "cwd"} object a line,
// appended on every submit (a repeat of the previous prompt is not
// appended). Nothing records when or in which thread.
func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r struct {
			Text *string `json:"text"`
			Cwd  string  `json:"cwd"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if r.Text == nil {
			out.Report(n, parser.KindSkippedRecord, "history line without text")
			return nil
		}
		if strings.TrimSpace(*r.Text) == "" {
			out.Skip(n, "empty_prompt")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.User, TimeBasis: timeline.TimeNone, Text: *r.Text, ProjectPath: r.Cwd, SourceLine: n, Secondary: true})
		return nil
	})
}

var threadRx = regexp.MustCompile(`^T-[0-9A-Za-z-]+$`)

// parseLog reads a LogTape JSON Lines log (properties flattened into the
// record): {"@timestamp", "level", "message", "logger", ...}. Each record is
// a system row "log LEVEL logger: message" with the properties that name a
// tool, server, error or directory; the thread is the threadId property, or
// the file's name for a per-thread log.
func parseLog(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	fileThread := strings.TrimSuffix(path.Base(strings.ReplaceAll(in.Path, "\\", "/")), ".log")
	if !threadRx.MatchString(fileThread) {
		fileThread = ""
	}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var r map[string]any
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&r); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		msg, ok := r["message"].(string)
		if !ok {
			out.Report(n, parser.KindSkippedRecord, "log record without a message")
			return nil
		}
		e := timeline.Event{TurnType: timeline.System, SourceLine: n, SessionID: fileThread}
		if ts, _ := r["@timestamp"].(string); ts != "" {
			if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				e.Time = t.UTC()
			}
		}
		if e.Time.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		if t, ok := r["threadId"].(string); ok && t != "" {
			e.SessionID = t
		} else if t, ok := r["threadID"].(string); ok && t != "" {
			e.SessionID = t
		}
		for _, k := range []string{"toolName", "tool", "longName"} {
			if s, ok := r[k].(string); ok && s != "" && e.ToolName == "" {
				e.ToolName = s
			}
		}
		if s, ok := r["workingDirectory"].(string); ok {
			e.ProjectPath = s
		}
		level, _ := r["level"].(string)
		logger, _ := r["logger"].(string)
		var b strings.Builder
		b.WriteString("log " + level)
		if logger != "" {
			b.WriteString(" " + logger)
		}
		b.WriteString(": " + msg)
		var extra []string
		for _, k := range []string{"toolName", "serverName", "tool", "error", "errorName", "reason", "status", "model", "mode", "workingDirectory"} {
			if v, ok := r[k]; ok && v != nil {
				s := fmt.Sprint(v)
				if m, ok := v.(map[string]any); ok {
					bb, _ := json.Marshal(m)
					s = string(bb)
				}
				extra = append(extra, k+"="+s)
			}
		}
		if len(extra) > 0 {
			b.WriteString(" (" + strings.Join(extra, " ") + ")")
		}
		e.Text = parser.RedactSecrets(b.String())
		out.Event(e)
		return nil
	})
}

// parseTerminalHistory reads the terminal tool's shell history: one
// command a line, no time; the thread is the parent directory's name.
func parseTerminalHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	thread := path.Base(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")))
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		cmd := strings.TrimSpace(string(line))
		if cmd == "" {
			out.Skip(n, "empty_line")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.System, TimeBasis: timeline.TimeNone, SessionID: thread, SourceLine: n,
			ToolName: "terminal", Text: parser.RedactSecrets("terminal command: " + cmd)})
		return nil
	})
}

// parseSettings reads settings.json (JSONC allowed): the permission keys
// as permission setting rows, MCP servers by name and command only, the
// other amp.* keys as setting rows.
func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, 16<<20))
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(parser.StandardJSON(b), &doc); err != nil {
		out.Problem(0, "settings: "+parser.JSONError(err))
		return nil
	}
	row := func(text string, line int64) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = line
		e.Text = parser.RedactSecrets(text) + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
		out.Event(e)
	}
	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := doc[k]
		short := strings.TrimPrefix(k, "amp.")
		switch {
		case short == "permissions":
			list, _ := v.([]any)
			for i, p := range list {
				bb, _ := json.Marshal(p)
				row("permission setting: "+k+"["+fmt.Sprint(i)+"]="+string(bb), int64(i+1))
			}
		case short == "mcpServers":
			m, _ := v.(map[string]any)
			names := make([]string, 0, len(m))
			for n := range m {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				s, _ := m[n].(map[string]any)
				text := "setting: " + k + " " + n
				if c, ok := s["command"].(string); ok {
					text += " command=" + c
				}
				if u, ok := s["url"].(string); ok {
					text += " url=" + u
				}
				row(text, 0)
			}
		default:
			kind := "setting"
			lk := strings.ToLower(short)
			switch {
			case strings.Contains(lk, "dangerously") || strings.Contains(lk, "allowlist") || strings.Contains(lk, "tools.disable") || strings.Contains(lk, "permission"):
				kind = "permission setting"
			case strings.Contains(lk, "model") || strings.HasPrefix(lk, "anthropic") || strings.HasPrefix(lk, "mode"):
				kind = "model setting"
			case strings.Contains(lk, "token") || strings.Contains(lk, "key") || strings.Contains(lk, "secret") || strings.Contains(lk, "header") || strings.Contains(lk, "env"):
				continue
			}
			bb, _ := json.Marshal(v)
			s := string(bb)
			if str, ok := v.(string); ok {
				s = str
			}
			if len(s) > 500 {
				s = s[:500] + "..."
			}
			row(kind+": "+k+"="+s, 0)
		}
	}
	return nil
}
