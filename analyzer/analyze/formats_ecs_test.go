package analyze_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ecsField is one line of testdata/ecs/fields.tsv (extracted from ECS's
// ecs_flat.yml, see extract.sh).
type ecsField struct {
	typ     string
	allowed []string
}

func ecsFields(t *testing.T) map[string]ecsField {
	t.Helper()
	b, err := os.ReadFile("testdata/ecs/fields.tsv")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ecsField{}
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 3 {
			t.Fatalf("fields.tsv line %q", l)
		}
		f := ecsField{typ: c[1]}
		if c[2] != "" {
			f.allowed = strings.Split(c[2], ",")
		}
		out[c[0]] = f
	}
	return out
}

// flatten lists the dotted leaf names of a decoded JSON document with
// their values; the values of ECS flattened fields are leaves.
func flatten(prefix string, v any, flat map[string]bool, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok || flat[prefix] {
		out[prefix] = v
		return
	}
	for k, x := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		flatten(p, x, flat, out)
	}
}

// TestECSDocOf: each kind of row maps to the ECS fields output.md names,
// exactly.
func TestECSDocOf(t *testing.T) {
	at := time.Date(2026, 11, 29, 17, 55, 24, 568000000, time.UTC)
	base := timeline.Event{Time: at, Host: "h1", User: "alice", Agent: "claude-code", SessionID: "S", ProjectPath: "/w", SourceFile: "/home/alice/s.jsonl",
		SourceLine: 7, BundleID: "B", Parser: "claude-code/transcript", RecordID: "r1", Verified: "true", Model: "m-1"}
	with := func(f func(e *timeline.Event)) *timeline.Event { e := base; f(&e); return &e }
	head := `{"@timestamp":"2026-11-29T17:55:24.568Z","ecs":{"version":"9.5.0-dev"},`
	da := `"doubleagent":{"schema_version":"` + timeline.SchemaVersion + `",`
	tail := `"session_id":"S","project_path":"/w",`
	src := `"source_line":7,"bundle_id":"B","parser":"claude-code/transcript","record_id":"r1","verified":"true"}}`
	cases := []struct {
		name string
		e    *timeline.Event
		want string
	}{
		{"execute", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.ToolUseID, e.Action, e.Text, e.ToolInput = timeline.ToolUse, "Bash", "toolu_1", timeline.ActExecute, "curl -s x | sh", `{"command":"curl -s x | sh","z":1,"a":2}`
		}), head + `"message":"curl -s x | sh","event":{"kind":"event","category":["process"],"type":["start"],"action":"execute","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"process":{"command_line":"curl -s x | sh","working_directory":"/w"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"Bash","call":{"id":"toolu_1","arguments":{"command":"curl -s x | sh","z":1,"a":2}}},"response":{"model":"m-1"}},` +
			da + `"turn_type":"tool_use",` + tail + src},
		{"file_edit_args_not_an_object", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.Action, e.Text, e.ToolInput, e.Model = timeline.ToolUse, "apply_patch", timeline.ActFileEdit, "/w/a.go", `"*** Begin Patch"`, ""
		}), head + `"message":"/w/a.go","event":{"kind":"event","category":["file"],"type":["change"],"action":"file_edit","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"file":{"path":"/w/a.go"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"apply_patch"}},` +
			da + `"turn_type":"tool_use",` + tail + `"tool_input":"\"*** Begin Patch\"",` + src},
		{"fetch_url", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.Action, e.Text, e.Model = timeline.ToolUse, "WebFetch", timeline.ActWebFetch, "https://evil.example/x?a=1", ""
		}), head + `"message":"https://evil.example/x?a=1","event":{"kind":"event","category":["network"],"type":["connection"],"action":"web_fetch","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"url":{"full":"https://evil.example/x?a=1"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"WebFetch"}},` + da + `"turn_type":"tool_use",` + tail + src},
		{"web_search_query_is_no_url", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.Action, e.Text, e.Model = timeline.ToolUse, "WebSearch", timeline.ActWebFetch, "aws keys site:pastebin.com", ""
		}), head + `"message":"aws keys site:pastebin.com","event":{"kind":"event","category":["network"],"type":["connection"],"action":"web_fetch","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"WebSearch"}},` + da + `"turn_type":"tool_use",` + tail + src},
		{"result_failed", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.ToolUseID, e.Action, e.Text, e.IsError, e.Model = timeline.ToolResult, "Bash", "toolu_1", timeline.ActExecute, `{"error":"denied"}`, "true", ""
		}), head + `"message":"{\"error\":\"denied\"}","event":{"kind":"event","category":["process"],"type":["start"],"action":"execute","outcome":"failure","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"Bash","call":{"id":"toolu_1"}}},` + da + `"turn_type":"tool_result",` + tail + `"is_error":"true",` + src},
		{"result_object", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.ToolUseID, e.Action, e.Text, e.IsError, e.Model = timeline.ToolResult, "mcp__db__q", "c2", timeline.ActMCP, `{"rows":3}`, "false", ""
		}), head + `"message":"{\"rows\":3}","event":{"kind":"event","category":["api"],"action":"mcp","outcome":"success","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"mcp__db__q","call":{"id":"c2","result":{"rows":3}}}},` + da + `"turn_type":"tool_result",` + tail + `"is_error":"false",` + src},
		{"undated_system_row_has_no_timestamp", with(func(e *timeline.Event) {
			e.Time, e.TurnType, e.Text, e.Model, e.TimeBasis, e.Host, e.User, e.ProjectPath, e.SessionID = time.Time{}, timeline.System, "permission mode: bypassPermissions", "", timeline.TimeNone, "", "", "", ""
		}), `{"ecs":{"version":"9.5.0-dev"},"message":"permission mode: bypassPermissions","event":{"kind":"event","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"log":{"file":{"path":"/home/alice/s.jsonl"}},"gen_ai":{"agent":{"name":"claude-code"}},` + da + `"turn_type":"system",` +
			`"source_line":7,"bundle_id":"B","parser":"claude-code/transcript","time_basis":"none","record_id":"r1","verified":"true"}}`},
		{"duplicate_names_are_not_an_object", with(func(e *timeline.Event) {
			e.TurnType, e.ToolName, e.Action, e.Text, e.ToolInput, e.Model = timeline.ToolUse, "Read", timeline.ActFileRead, "/etc/passwd", `{"p":"/a","p":"/etc/passwd"}`, ""
		}), head + `"message":"/etc/passwd","event":{"kind":"event","category":["file"],"type":["access"],"action":"file_read","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"file":{"path":"/etc/passwd"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"Read"}},` + da + `"turn_type":"tool_use",` + tail + `"tool_input":"{\"p\":\"/a\",\"p\":\"/etc/passwd\"}",` + src},
		{"invalid_utf8_is_replaced", with(func(e *timeline.Event) {
			e.TurnType, e.Text, e.Model, e.ToolInput, e.ToolName, e.Action = timeline.ToolUse, "a\xffb", "", "{\"k\":\"\xfe\"}", "Read", timeline.ActFileRead
		}), head + `"message":"a�b","event":{"kind":"event","category":["file"],"type":["access"],"action":"file_read","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"file":{"path":"a�b"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"Read"}},` + da + `"turn_type":"tool_use",` + tail + `"tool_input":"{\"k\":\"�\"}",` + src},
		{"too_deep_for_flattened", with(func(e *timeline.Event) {
			e.TurnType, e.Text, e.Model, e.ToolName, e.Action = timeline.ToolUse, "x", "", "mcp__a__b", timeline.ActMCP
			e.ToolInput = strings.Repeat(`{"a":`, analyze.ECSFlattenedDepth-1) + `[1]` + strings.Repeat(`}`, analyze.ECSFlattenedDepth-1)
		}), head + `"message":"x","event":{"kind":"event","category":["api"],"action":"mcp","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"mcp__a__b"}},` + da + `"turn_type":"tool_use",` + tail +
			`"tool_input":"` + strings.Repeat(`{\"a\":`, analyze.ECSFlattenedDepth-1) + `[1]` + strings.Repeat(`}`, analyze.ECSFlattenedDepth-1) + `",` + src},
		{"deep_but_not_too_deep", with(func(e *timeline.Event) {
			e.TurnType, e.Text, e.Model, e.ToolName, e.Action = timeline.ToolUse, "x", "", "mcp__a__b", timeline.ActMCP
			e.ToolInput = strings.Repeat(`{"a":`, analyze.ECSFlattenedDepth-1) + `1` + strings.Repeat(`}`, analyze.ECSFlattenedDepth-1)
		}), head + `"message":"x","event":{"kind":"event","category":["api"],"action":"mcp","module":"doubleagent","dataset":"doubleagent.timeline"},` +
			`"host":{"name":"h1"},"user":{"name":"alice"},"log":{"file":{"path":"/home/alice/s.jsonl"}},` +
			`"gen_ai":{"agent":{"name":"claude-code"},"tool":{"name":"mcp__a__b","call":{"arguments":` + strings.Repeat(`{"a":`, analyze.ECSFlattenedDepth-1) + `1` + strings.Repeat(`}`, analyze.ECSFlattenedDepth-1) + `}}},` +
			da + `"turn_type":"tool_use",` + tail + src},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := timeline.AppendJSON(&buf, analyze.ECSDocOf(c.e)); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSuffix(buf.String(), "\n"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// templateFields lists the leaf mappings of the index template: dotted
// name -> type.
func templateFields(t *testing.T, b []byte) map[string]string {
	t.Helper()
	var tpl struct {
		IndexPatterns []string `json:"index_patterns"`
		Template      struct {
			Mappings struct {
				Properties map[string]any `json:"properties"`
			} `json:"mappings"`
		} `json:"template"`
	}
	if err := json.Unmarshal(b, &tpl); err != nil {
		t.Fatal(err)
	}
	if len(tpl.IndexPatterns) != 1 || tpl.IndexPatterns[0] != "doubleagent-*" {
		t.Fatalf("index patterns %v", tpl.IndexPatterns)
	}
	out := map[string]string{}
	var walk func(prefix string, props map[string]any)
	walk = func(prefix string, props map[string]any) {
		for k, v := range props {
			m := v.(map[string]any)
			if sub, ok := m["properties"].(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k], _ = m["type"].(string)
		}
	}
	walk("", tpl.Template.Mappings.Properties)
	return out
}

// TestECSFieldsAgainstTheSchema runs every fixture root (the real-agent
// homes and the s1ngularity replay) with
// --format jsonl,ecs and checks: every field name written is an ECS field
// of fields.tsv (extracted from ECS's ecs_flat.yml) or under doubleagent.*;
// event.kind, category, type and outcome hold only ECS's allowed values;
// the template maps every field written, with ECS's type; and every
// document gives back its timeline.jsonl row exactly (the ECS file loses
// nothing).
func TestECSFieldsAgainstTheSchema(t *testing.T) {
	ecs := ecsFields(t)
	tplFields := templateFields(t, analyze.ECSTemplate)
	for name, typ := range tplFields {
		if strings.HasPrefix(name, "doubleagent.") {
			continue
		}
		f, ok := ecs[name]
		switch {
		case !ok:
			t.Errorf("template maps %s, not an ECS field", name)
		case f.typ != typ:
			t.Errorf("template maps %s as %s, ECS says %s", name, typ, f.typ)
		}
	}
	var raw map[string]any
	if err := json.Unmarshal(analyze.ECSTemplate, &raw); err != nil {
		t.Fatal(err)
	}
	call := raw["template"].(map[string]any)["mappings"].(map[string]any)["properties"].(map[string]any)["gen_ai"].(map[string]any)["properties"].(map[string]any)["tool"].(map[string]any)["properties"].(map[string]any)["call"].(map[string]any)["properties"].(map[string]any)
	for _, k := range []string{"arguments", "result"} {
		m := call[k].(map[string]any)
		// A leaf over 32,766 bytes or an object deeper than depth_limit
		// would make Elasticsearch reject the whole document.
		if m["depth_limit"] != float64(analyze.ECSFlattenedDepth) || m["ignore_above"] != float64(8191) {
			t.Errorf("template gen_ai.tool.call.%s %v", k, m)
		}
	}
	flat := map[string]bool{}
	for name, f := range ecs {
		if f.typ == "flattened" {
			flat[name] = true
		}
	}
	roots, err := filepath.Glob("../../fixtures/roots/*")
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, r := range roots {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			inputs = append(inputs, r)
		}
	}
	if len(inputs) < 6 {
		t.Fatalf("fixture roots %v", inputs)
	}
	sum, out := run(t, analyze.Options{Inputs: inputs, Format: "jsonl,ecs"})
	var names []string
	for _, f := range sum.Files {
		names = append(names, filepath.Base(f))
	}
	if got := strings.Join(names[:3], " "); got != "timeline.jsonl timeline.ecs.jsonl timeline.ecs-template.json" {
		t.Fatalf("files %s", got)
	}
	tb, err := os.ReadFile(filepath.Join(out, analyze.ECSTemplateOut))
	if err != nil || !bytes.Equal(tb, analyze.ECSTemplate) {
		t.Fatalf("template written %d bytes, %v", len(tb), err)
	}
	rows := rows(t, out)
	f, err := os.Open(filepath.Join(out, analyze.TimelineECS))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	seen := map[string]bool{}
	n := 0
	for sc.Scan() {
		var doc map[string]any
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		leaves := map[string]any{}
		flatten("", doc, flat, leaves)
		for name, v := range leaves {
			seen[name] = true
			if _, ok := tplFields[name]; !ok {
				t.Errorf("line %d: %s is not in the template", n+1, name)
			}
			if strings.HasPrefix(name, "doubleagent.") {
				continue
			}
			ef, ok := ecs[name]
			if !ok {
				t.Errorf("line %d: %s is no ECS field", n+1, name)
				continue
			}
			if ef.allowed == nil {
				continue
			}
			vals, _ := v.([]any)
			if s, ok := v.(string); ok {
				vals = []any{s}
			}
			for _, x := range vals {
				if s, _ := x.(string); !slices.Contains(ef.allowed, s) {
					t.Errorf("line %d: %s = %v, ECS allows %v", n+1, name, x, ef.allowed)
				}
			}
		}
		if n >= len(rows) {
			t.Fatalf("more ECS documents than rows")
		}
		back := rowOfECS(leaves)
		if args, ok := leaves["gen_ai.tool.call.arguments"]; ok {
			// The arguments object is the recorded JSON, embedded as it is.
			var want any
			if err := json.Unmarshal([]byte(rows[n].ToolInput), &want); err != nil || !reflect.DeepEqual(args, want) {
				t.Errorf("line %d: arguments %v, tool_input %s", n+1, args, rows[n].ToolInput)
			}
			back.ToolInput = rows[n].ToolInput
		}
		if back != rows[n] {
			t.Errorf("line %d: ECS gives back\n%+v\nthe row is\n%+v", n+1, back, rows[n])
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(rows) || n < 1000 {
		t.Fatalf("%d ECS documents, %d rows", n, len(rows))
	}
	// The fixture exercises the fields that matter.
	var got []string
	for k := range seen {
		got = append(got, k)
	}
	sort.Strings(got)
	for _, want := range []string{"@timestamp", "process.command_line", "file.path", "gen_ai.tool.call.arguments", "gen_ai.tool.call.id", "gen_ai.tool.name", "gen_ai.response.model", "event.outcome", "host.name", "user.name"} {
		if !seen[want] {
			t.Errorf("no document has %s (seen %v)", want, got)
		}
	}
}

// rowOfECS maps an ECS document's leaves back to the timeline row.
func rowOfECS(l map[string]any) timeline.Row {
	s := func(k string) string { v, _ := l[k].(string); return v }
	r := timeline.Row{TimestampUTC: s("@timestamp"), Host: s("host.name"), User: s("user.name"), Agent: s("gen_ai.agent.name"),
		SessionID: s("doubleagent.session_id"), ProjectPath: s("doubleagent.project_path"), TurnType: s("doubleagent.turn_type"),
		Model: s("gen_ai.response.model"), ToolName: s("gen_ai.tool.name"), ToolUseID: s("gen_ai.tool.call.id"), Text: s("message"),
		ToolInput: s("doubleagent.tool_input"), IsError: s("doubleagent.is_error"), SourceFile: s("log.file.path"),
		BundleID: s("doubleagent.bundle_id"), Parser: s("doubleagent.parser"), Secondary: s("doubleagent.secondary"),
		TimeBasis: s("doubleagent.time_basis"), RecordID: s("doubleagent.record_id"), ParentSessID: s("doubleagent.parent_session_id"),
		Verified: s("doubleagent.verified"), Action: s("event.action"), Recovered: s("doubleagent.recovered"), Provenance: s("doubleagent.provenance")}
	if n, ok := l["doubleagent.source_line"].(float64); ok {
		r.SourceLine = int64(n)
	}
	return r
}

// TestECSUsage: gen_ai.usage.input_tokens and output_tokens, with
// doubleagent.usage_scope, come from the system rows whose parser states
// token counts, in each parser's wording (the texts below are those of the
// parsers' goldens); a user's words, a quoted form, a count ECS's integer
// cannot hold, or another order give none.
func TestECSUsage(t *testing.T) {
	sys, user := timeline.System, timeline.User
	for _, c := range []struct {
		turn       timeline.TurnType
		text       string
		in, out    int64
		scope      string
		wantsUsage bool
	}{
		{sys, "api_req_started: tokensIn=1200 tokensOut=80 cacheReads=0 cacheWrites=0 cost=0.0123", 1200, 80, "call", true},
		{sys, "api_req_started: tokensIn=10 tokensOut=5 cost=0.001", 10, 5, "call", true},
		{sys, "api_req_started: tokensIn=10 tokensOut=5", 10, 5, "call", true},
		{sys, "utility model gpt-4.1-mini: duration=310 initiator=session-title inputTokens=120 interactionType=conversation-background outputTokens=8", 120, 8, "call", true},
		{sys, "assistant.usage: model=claude-sonnet-4.5 inputTokens=5012 outputTokens=311 cacheReadTokens=4800 duration=2100", 5012, 311, "call", true},
		{sys, "model used: claude-3-5-sonnet provider=pearai_server prompt_tokens=1200 generated_tokens=88", 1200, 88, "call", true},
		{sys, "model used: anthropic/claude-sonnet-4.5 (openrouter): 3 api call(s), 1500 input / 200 output tokens, last seen 2026-08-10T09:00:04Z", 1500, 200, "total", true},
		{sys, "little-coder session a1b2c3d4 saved at 2026-04-20 10:15:00: 3 turn(s), 1200 input / 80 output tokens, 9 message(s)", 1200, 80, "total", true},
		{sys, "little-coder session 9f8e7d6c saved at 2026-04-20 10:12:00: 0 turn(s), 0 input / 0 output tokens, 1 message(s)", 0, 0, "total", true},
		{sys, "token usage agent: model=anthropic/claude-sonnet-4-5 responses=2 prompt_tokens=2600 completion_tokens=100 (from .openhands/conversations/0f1e2d3c4b5a69788796a5b4c3d2e1f0/base_state.json, file mtime)", 2600, 100, "total", true},
		// What a person typed is never usage, even in the same words.
		{user, "api_req_started: tokensIn=10 tokensOut=5", 0, 0, "", false},
		// A form quoted inside another system row.
		{sys, "permission mode: x api_req_started: tokensIn=10 tokensOut=5", 0, 0, "", false},
		{sys, "api_req_started: tokensIn=10 tokensOut=5x", 0, 0, "", false},
		{sys, "utility model m: outputTokens=8 inputTokens=120", 0, 0, "", false},
		{sys, "api_req_started: tokensIn=2147483648 tokensOut=5", 0, 0, "", false},
		{sys, "api_req_started: tokensIn=99999999999999999999999 tokensOut=5", 0, 0, "", false},
		{sys, "api_req_started: tokensIn=-1 tokensOut=5", 0, 0, "", false},
	} {
		d := analyze.ECSDocOf(&timeline.Event{TurnType: c.turn, Text: c.text})
		switch {
		case !c.wantsUsage && (d.GenAI.Usage != nil || d.DoubleAgent.UsageScope != ""):
			t.Errorf("%s %q: usage %+v %q, want none", c.turn, c.text, d.GenAI.Usage, d.DoubleAgent.UsageScope)
		case c.wantsUsage && (d.GenAI.Usage == nil || *d.GenAI.Usage != analyze.ECSUsage{InputTokens: c.in, OutputTokens: c.out} || d.DoubleAgent.UsageScope != c.scope):
			t.Errorf("%q: usage %+v %q, want %d/%d %s", c.text, d.GenAI.Usage, d.DoubleAgent.UsageScope, c.in, c.out, c.scope)
		}
	}
	b, _ := json.Marshal(analyze.ECSDocOf(&timeline.Event{TurnType: sys, Text: "api_req_started: tokensIn=7 tokensOut=0"}))
	if !strings.Contains(string(b), `"usage":{"input_tokens":7,"output_tokens":0}`) || !strings.Contains(string(b), `"usage_scope":"call"`) {
		t.Errorf("document %s", b)
	}
	// Every parser golden row that states tokens in a form gives usage:
	// a parser whose wording changes fails here, not silently in Kibana.
	goldens, _ := filepath.Glob("../parsers/*/testdata/*.golden.jsonl")
	states := regexp.MustCompile(`\d+ input / \d+ output tokens|tokensIn=\d|inputTokens=\d|prompt_tokens=\d`)
	n := 0
	for _, g := range goldens {
		f, err := os.Open(g)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var r timeline.Row
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", g, err)
			}
			if r.TurnType != "system" || !states.MatchString(r.Text) {
				continue
			}
			n++
			if d := analyze.ECSDocOf(&timeline.Event{TurnType: timeline.System, Text: r.Text}); d.GenAI.Usage == nil {
				t.Errorf("%s (%s): %q states tokens, gives no gen_ai.usage", g, r.Parser, r.Text)
			}
		}
		f.Close()
	}
	if n < 14 {
		t.Errorf("%d golden rows state tokens, want the 14 of cline, roo-code, pearai, copilot-cli, hermes, little-coder and openhands", n)
	}
}
