package goose

import (
	"bufio"
	"context"
	"fmt"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"go.yaml.in/yaml/v3"
)

// maxConfigBytes bounds the files read whole.
const maxConfigBytes = 4 << 20

func readWhole(in *parser.Input, out parser.Sink) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.Path, err)
	}
	if len(data) > maxConfigBytes {
		out.Problem(0, "larger than 4 MiB: not read")
		return nil, nil
	}
	return data, nil
}

// parseSettings reads the standing permission settings.
func parseSettings(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := readWhole(in, out)
	if err != nil || data == nil {
		return err
	}
	switch in.Base() {
	case "permission.yaml":
		return permissionYAML(in, data, out)
	case "roaming_trust.json":
		return roamingTrust(in, data, out)
	case "config.yaml":
		return configYAML(in, data, out)
	}
	return nil
}

// permissionYAML: {<category>: {always_allow: [..], ask_before: [..],
// never_allow: [..]}} where category is "user" (the user's choices) or
// "smart_approve" (goose's cache of tool annotations); config/permission.rs.
func permissionYAML(in *parser.Input, data []byte, out parser.Sink) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		out.Problem(0, "not valid YAML: "+err.Error())
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		out.Problem(0, "permission.yaml is not a mapping")
		return nil
	}
	file := parser.DisplayFile(&in.File)
	for i := 0; i+1 < len(root.Content); i += 2 {
		cat, levels := root.Content[i].Value, root.Content[i+1]
		if levels.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(levels.Content); j += 2 {
			level, list := levels.Content[j].Value, levels.Content[j+1]
			for _, tool := range list.Content {
				if tool.Kind != yaml.ScalarNode {
					continue
				}
				e := parser.SettingEvent(&in.File)
				e.SourceLine = int64(tool.Line)
				e.Text = fmt.Sprintf("permission setting: %s.%s=%s (from %s, file mtime)", cat, level, tool.Value, file)
				out.Event(e)
			}
		}
	}
	return nil
}

// roamingTrust: the goose roam allowlist {"allowed": [key..] or {key:
// scope}, "revoked_keys": [key..]} (goose-roaming trust.rs TrustBook). The
// keys are peers' public keys.
func roamingTrust(in *parser.Input, data []byte, out parser.Sink) error {
	var doc struct {
		Allowed json.RawMessage `json:"allowed"`
		Revoked []string        `json:"revoked_keys"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		out.Problem(0, parser.NotJSON("", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	lines := strings.Split(string(data), "\n")
	emit := func(key, value string) {
		e := parser.SettingEvent(&in.File)
		e.SourceLine = lineWith(lines, value)
		e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, file)
		out.Event(e)
	}
	var list []string
	var scoped map[string]json.RawMessage
	if json.Unmarshal(doc.Allowed, &list) == nil {
		for _, k := range list {
			emit("allowed", k)
		}
	} else if json.Unmarshal(doc.Allowed, &scoped) == nil {
		keys := make([]string, 0, len(scoped))
		for k := range scoped {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			e := parser.SettingEvent(&in.File)
			e.SourceLine = lineWith(lines, k)
			e.Text = fmt.Sprintf("permission setting: allowed=%s scope=%s (from %s, file mtime)", k, parser.CompactJSON(scoped[k]), file)
			out.Event(e)
		}
	}
	for _, k := range doc.Revoked {
		emit("revoked_keys", k)
	}
	return nil
}

// configYAML reads only GOOSE_MODE (auto, approve, smart_approve, chat: the
// standing approval mode) and the default GOOSE_PROVIDER/GOOSE_MODEL;
// secrets live in secrets.yaml, which is not read.
func configYAML(in *parser.Input, data []byte, out parser.Sink) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		out.Problem(0, "not valid YAML: "+err.Error())
		return nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	file := parser.DisplayFile(&in.File)
	var provider, model string
	var modelLine int
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "GOOSE_MODE":
			e := parser.SettingEvent(&in.File)
			e.SourceLine = int64(k.Line)
			e.Text = fmt.Sprintf("permission setting: GOOSE_MODE=%s (from %s, file mtime)", v.Value, file)
			out.Event(e)
		case "GOOSE_PROVIDER":
			provider = v.Value
		case "GOOSE_MODEL":
			model, modelLine = v.Value, k.Line
		}
	}
	if model != "" {
		if provider != "" {
			model = provider + "/" + model
		}
		e := parser.SettingEvent(&in.File)
		e.SourceLine = int64(modelLine)
		e.Text = fmt.Sprintf("model setting: %s (from %s, file mtime)", model, file)
		out.Event(e)
	}
	return nil
}

func lineWith(lines []string, value string) int64 {
	q, _ := json.Marshal(value)
	for i, l := range lines {
		if strings.Contains(l, string(q)) {
			return int64(i + 1)
		}
	}
	return 0
}

// parseSchedule reads schedule.json, a JSON array of ScheduledJob {id,
// source, cron, last_run, currently_running, paused, current_session_id,
// process_start_time} (scheduler/common.rs): one "scheduled task: id=..
// cron=.. source=.." row per job at its last run (else the file mtime).
func parseSchedule(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := readWhole(in, out)
	if err != nil || data == nil {
		return err
	}
	type job struct {
		ID               string `json:"id"`
		Source           string `json:"source"`
		Cron             string `json:"cron"`
		LastRun          string `json:"last_run"`
		Running          bool   `json:"currently_running"`
		Paused           bool   `json:"paused"`
		CurrentSessionID string `json:"current_session_id"`
	}
	var jobs []job
	if err := json.Unmarshal(data, &jobs); err != nil {
		var wrapped struct {
			Jobs []job `json:"jobs"`
		}
		if err2 := json.Unmarshal(data, &wrapped); err2 != nil || wrapped.Jobs == nil {
			out.Problem(0, parser.NotJSONArray("jobs list", err))
			return nil
		}
		jobs = wrapped.Jobs
	}
	for i, j := range jobs {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := parser.SettingEvent(&in.File)
		e.SourceLine = int64(i + 1)
		e.SessionID = j.CurrentSessionID
		e.Text = fmt.Sprintf("scheduled task: id=%s cron=%s source=%s", j.ID, j.Cron, j.Source)
		if j.Paused {
			e.Text += " paused"
		}
		if j.Running {
			e.Text += " running"
		}
		if t, ok := sqlTime(j.LastRun); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
			e.Text += " (last run)"
		}
		out.Event(e)
	}
	return nil
}

// parseHistory reads the goose CLI prompt history, a rustyline history
// file: an optional "#V2" header, then one entry per line with "\\" and
// "\n" escaped. No time is recorded: rows are undated and secondary.
func parseHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	v2 := false
	return parser.Lines(ctx, bufio.NewReader(rc), out, func(n int64, line []byte) error {
		s := string(line)
		if n == 1 && s == "#V2" {
			v2 = true
			out.Skip(n, "state_only:header")
			return nil
		}
		if v2 {
			s = unescapeV2(s)
		}
		if strings.TrimSpace(s) == "" {
			out.Skip(n, "empty_prompt")
			return nil
		}
		out.Event(timeline.Event{TurnType: timeline.User, Text: s, SourceLine: n, Secondary: true, TimeBasis: timeline.TimeNone})
		return nil
	})
}

func unescapeV2(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parseLLMRequest reads one provider-call log (providers/utils.rs
// RequestLog, the last 10 kept as llm_request.<n>.jsonl): line 1 is
// {"model_config", "input"[, "session_id"]}, later lines {"data",
// "usage"} chunks or {"error"}. The file records no time, so rows carry
// the file mtime and are secondary: "llm request: model=<model>", the last
// user message of the request (a user row, which the engine drops where a
// transcript has the same prompt) and "llm request error: <error>".
func parseLLMRequest(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	var sid string
	base := func(n int64) timeline.Event {
		e := parser.SettingEvent(&in.File)
		e.SourceLine, e.Secondary, e.SessionID = n, true, sid
		return e
	}
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		var rec struct {
			ModelConfig *struct {
				ModelName string `json:"model_name"`
			} `json:"model_config"`
			Input     json.RawMessage `json:"input"`
			SessionID string          `json:"session_id"`
			Error     *string         `json:"error"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			out.Problem(n, parser.BadJSONLine(nil))
			return nil
		}
		if rec.ModelConfig != nil {
			sid = rec.SessionID
			e := base(n)
			e.Text = "llm request: model=" + rec.ModelConfig.ModelName
			out.Event(e)
			if p := lastPrompt(rec.Input); p != "" {
				u := base(n)
				u.TurnType, u.Text = timeline.User, p
				out.Event(u)
			}
		}
		if rec.Error != nil {
			e := base(n)
			e.Text = "llm request error: " + *rec.Error
			out.Event(e)
		}
		if rec.ModelConfig == nil && rec.Error == nil {
			out.Skip(n, "no_evidence:response chunk")
		}
		return nil
	})
}

// lastPrompt returns the text of the last user message of a provider
// request ({"messages":[{role, content: string | [{type:"text",text}]}]},
// the OpenAI and Anthropic shapes); "" when there is none.
func lastPrompt(input json.RawMessage) string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(input, &req) != nil {
		return ""
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			var texts []string
			for _, p := range parts {
				if p.Type == "text" && p.Text != "" {
					texts = append(texts, p.Text)
				}
			}
			if len(texts) > 0 {
				return strings.Join(texts, "\n")
			}
			// A user message of tool results only: keep looking back.
			continue
		}
		return ""
	}
	return ""
}
