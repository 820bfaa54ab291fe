package outputs

import (
	_ "embed"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The ECS timeline (--format ecs): the rows of timeline.jsonl as Elastic
// Common Schema documents, one JSON object a line, and beside them the
// index template that maps their fields. Field names and types are those
// of ECS as published in github.com/elastic/ecs generated/ecs/ecs_flat.yml
// at commit b85f7573f0b48c03fddf90dad06fc743876f1b33 (ECS 9.5.0-dev, the
// first to define gen_ai.tool.call.arguments and .result); the fields we
// write are listed in testdata/ecs/fields.tsv, extracted from that file,
// and a test checks every written name and every template mapping against
// it. What ECS has no field for is under the custom doubleagent.* namespace.
// See output.md, timeline.ecs.jsonl.

// FormatECS is --format ecs.
const FormatECS = "ecs"

// ECS output file names.
const (
	TimelineECS    = "timeline.ecs.jsonl"
	ECSTemplateOut = "timeline.ecs-template.json"
)

// ECSVersion is the ECS version the documents and the template follow.
const ECSVersion = "9.5.0-dev"

// ECSTemplate is the composable index template written beside the ECS
// timeline (index pattern doubleagent-*).
//
//go:embed ecs-template.json
var ECSTemplate []byte

// ECSDoc is one document of timeline.ecs.jsonl. Every timeline field is in
// it (output.md maps each), so the ECS file loses nothing the JSON Lines
// timeline holds; empty values are left out, as ECS documents do.
type ECSDoc struct {
	Timestamp   string         `json:"@timestamp,omitempty"`
	ECS         ecsVersion     `json:"ecs"`
	Message     string         `json:"message,omitempty"`
	Event       ECSEvent       `json:"event"`
	Host        *ecsName       `json:"host,omitempty"`
	User        *ecsName       `json:"user,omitempty"`
	Process     *ECSProcess    `json:"process,omitempty"`
	File        *ecsPath       `json:"file,omitempty"`
	URL         *ecsURL        `json:"url,omitempty"`
	Log         ecsLog         `json:"log"`
	GenAI       ECSGenAI       `json:"gen_ai"`
	DoubleAgent ECSDoubleAgent `json:"doubleagent"`
}

type ecsVersion struct {
	Version string `json:"version"`
}

type ecsName struct {
	Name string `json:"name"`
}

type ecsPath struct {
	Path string `json:"path"`
}

type ecsURL struct {
	Full string `json:"full"`
}

type ecsLog struct {
	File ecsPath `json:"file"`
}

// ECSEvent is the event.* group.
type ECSEvent struct {
	Kind     string   `json:"kind"`
	Category []string `json:"category,omitempty"`
	Type     []string `json:"type,omitempty"`
	Action   string   `json:"action,omitempty"`
	Outcome  string   `json:"outcome,omitempty"`
	Module   string   `json:"module"`
	Dataset  string   `json:"dataset"`
}

// ECSProcess is process.* on an execute call.
type ECSProcess struct {
	CommandLine      string `json:"command_line"`
	WorkingDirectory string `json:"working_directory,omitempty"`
}

// ECSGenAI is the gen_ai.* group.
type ECSGenAI struct {
	Agent    ecsName      `json:"agent"`
	Tool     *ECSTool     `json:"tool,omitempty"`
	Response *ecsResponse `json:"response,omitempty"`
	Usage    *ECSUsage    `json:"usage,omitempty"`
}

// ECSUsage is gen_ai.usage.*: the token counts a row states.
type ECSUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// ecsUsageForms are the system rows whose text states token counts, in
// the wording their parser writes (each anchored at the start, so a
// system row quoting other text does not match): the expression's
// groups "in" and "out" are the input and output tokens, and scope says
// whether the row is one model call ("call") or a sum over several
// ("total": a session's or a model's totals, which a sum over calls
// must not add again).
var ecsUsageForms = []struct {
	re    *regexp.Regexp
	scope string
}{
	// The Cline task format's ui_messages.json (cline, roo-code, pearai ui-messages).
	{regexp.MustCompile(`^api_req_started: tokensIn=(?P<in>\d+) tokensOut=(?P<out>\d+)(?: |$)`), "call"},
	// copilot-cli events.jsonl assistant.usage, of the conversation or a utility call.
	{regexp.MustCompile(`^(?:assistant\.usage: |utility model [^:]*: )(?:.* )?inputTokens=(?P<in>\d+) (?:.* )?outputTokens=(?P<out>\d+)(?: |$)`), "call"},
	// pearai dev data tokens_generated.jsonl: one request.
	{regexp.MustCompile(`^model used: \S+ provider=\S+ prompt_tokens=(?P<in>\d+) generated_tokens=(?P<out>\d+)$`), "call"},
	// hermes state.db, per model: N api call(s).
	{regexp.MustCompile(`^model used: .* \d+ api call\(s\), (?P<in>\d+) input / (?P<out>\d+) output tokens, last seen `), "total"},
	// little-coder saved sessions.
	{regexp.MustCompile(`^little-coder session \S+ saved at [^:]+:\d\d:\d\d: \d+ turn\(s\), (?P<in>\d+) input / (?P<out>\d+) output tokens, `), "total"},
	// openhands base_state.json token usage per agent.
	{regexp.MustCompile(`^token usage \S+: model=\S* responses=\d+ prompt_tokens=(?P<in>\d+) completion_tokens=(?P<out>\d+)(?: |$)`), "total"},
}

// ecsUsage returns the token counts and their scope a system row's text
// states, or nil.
func ecsUsage(e *timeline.Event) (*ECSUsage, string) {
	if e.TurnType != timeline.System {
		return nil, ""
	}
	for _, f := range ecsUsageForms {
		m := f.re.FindStringSubmatch(e.Text)
		if m == nil {
			continue
		}
		in, err1 := strconv.ParseInt(m[f.re.SubexpIndex("in")], 10, 64)
		out, err2 := strconv.ParseInt(m[f.re.SubexpIndex("out")], 10, 64)
		// ECS types both integer (32 bits): a larger count is left out.
		if err1 != nil || err2 != nil || in > 1<<31-1 || out > 1<<31-1 {
			return nil, ""
		}
		return &ECSUsage{InputTokens: in, OutputTokens: out}, f.scope
	}
	return nil, ""
}

type ecsResponse struct {
	Model string `json:"model"`
}

// ECSTool is gen_ai.tool.*.
type ECSTool struct {
	Name string   `json:"name,omitempty"`
	Call *ECSCall `json:"call,omitempty"`
}

// ECSCall is gen_ai.tool.call.*: arguments and result are ECS flattened
// fields, so they hold the recorded JSON only when it is an object; other
// arguments stay in doubleagent.tool_input, other results in message.
type ECSCall struct {
	ID        string         `json:"id,omitempty"`
	Arguments jsontext.Value `json:"arguments,omitempty"`
	Result    jsontext.Value `json:"result,omitempty"`
}

// ECSDoubleAgent is the doubleagent.* custom namespace: the timeline
// fields ECS has no field for, under their timeline names.
type ECSDoubleAgent struct {
	SchemaVersion   string `json:"schema_version"`
	TurnType        string `json:"turn_type"`
	SessionID       string `json:"session_id,omitempty"`
	ParentSessionID string `json:"parent_session_id,omitempty"`
	ProjectPath     string `json:"project_path,omitempty"`
	ToolInput       string `json:"tool_input,omitempty"`
	IsError         string `json:"is_error,omitempty"`
	SourceLine      int64  `json:"source_line"`
	BundleID        string `json:"bundle_id,omitempty"`
	Parser          string `json:"parser,omitempty"`
	Secondary       string `json:"secondary,omitempty"`
	TimeBasis       string `json:"time_basis,omitempty"`
	RecordID        string `json:"record_id,omitempty"`
	Verified        string `json:"verified,omitempty"`
	// UsageScope says what gen_ai.usage counts: "call" (one model call)
	// or "total" (a sum over several calls); empty without usage.
	UsageScope string `json:"usage_scope,omitempty"`
	Recovered  string `json:"recovered,omitempty"`
	Provenance string `json:"provenance,omitempty"`
}

// ecsCategory maps an action to event.category and event.type (values
// from ECS's allowed lists; a write may create or replace a file).
var ecsCategory = map[timeline.Action][2][]string{
	timeline.ActExecute:    {{"process"}, {"start"}},
	timeline.ActFileRead:   {{"file"}, {"access"}},
	timeline.ActFileWrite:  {{"file"}, {"creation", "change"}},
	timeline.ActFileEdit:   {{"file"}, {"change"}},
	timeline.ActFileDelete: {{"file"}, {"deletion"}},
	timeline.ActSearch:     {{"file"}, {"access"}},
	timeline.ActWebFetch:   {{"network"}, {"connection"}},
	timeline.ActMCP:        {{"api"}, nil},
}

// ECSFlattenedDepth is the depth_limit of the template's flattened fields
// (Elasticsearch's default): a deeper object would make Elasticsearch
// reject the whole document, so an object nested ECSFlattenedDepth levels
// or more (objects and arrays counted, the outer object included: one
// level of margin) is written as text instead.
const ECSFlattenedDepth = 20

// jsonObject returns s as a raw JSON value when it is one valid JSON
// object (no duplicate names) nested fewer than ECSFlattenedDepth levels,
// else nil.
func jsonObject(s string) jsontext.Value {
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, "{") {
		return nil
	}
	v := jsontext.Value(s)
	if !v.IsValid() {
		return nil
	}
	dec := jsontext.NewDecoder(strings.NewReader(s))
	for {
		if _, err := dec.ReadToken(); err != nil {
			break
		}
		if dec.StackDepth() >= ECSFlattenedDepth {
			return nil
		}
	}
	return v
}

// ECSDocOf maps one timeline row to its ECS document.
func ECSDocOf(e *timeline.Event) ECSDoc {
	r := e.ToRow()
	d := ECSDoc{
		Timestamp: r.TimestampUTC,
		ECS:       ecsVersion{ECSVersion},
		Message:   r.Text,
		Event:     ECSEvent{Kind: "event", Action: r.Action, Module: "doubleagent", Dataset: "doubleagent.timeline"},
		Log:       ecsLog{File: ecsPath{r.SourceFile}},
		GenAI:     ECSGenAI{Agent: ecsName{r.Agent}},
		DoubleAgent: ECSDoubleAgent{SchemaVersion: timeline.SchemaVersion, TurnType: r.TurnType, SessionID: r.SessionID, ParentSessionID: r.ParentSessID,
			ProjectPath: r.ProjectPath, IsError: r.IsError, SourceLine: r.SourceLine, BundleID: r.BundleID, Parser: r.Parser,
			Secondary: r.Secondary, TimeBasis: r.TimeBasis, RecordID: r.RecordID, Verified: r.Verified,
			Recovered: r.Recovered, Provenance: r.Provenance},
	}
	if r.Host != "" {
		d.Host = &ecsName{r.Host}
	}
	if r.User != "" {
		d.User = &ecsName{r.User}
	}
	if r.Model != "" {
		d.GenAI.Response = &ecsResponse{r.Model}
	}
	d.GenAI.Usage, d.DoubleAgent.UsageScope = ecsUsage(e)
	if c, ok := ecsCategory[e.Action]; ok {
		d.Event.Category, d.Event.Type = c[0], c[1]
	}
	if e.TurnType == timeline.ToolResult {
		switch e.IsError {
		case "true":
			d.Event.Outcome = "failure"
		case "false":
			d.Event.Outcome = "success"
		}
	}
	if r.ToolName != "" || r.ToolUseID != "" || r.ToolInput != "" {
		t := &ECSTool{Name: r.ToolName}
		call := &ECSCall{ID: r.ToolUseID}
		if r.ToolInput != "" {
			if v := jsonObject(r.ToolInput); v != nil {
				call.Arguments = v
			} else {
				d.DoubleAgent.ToolInput = r.ToolInput
			}
		}
		if e.TurnType == timeline.ToolResult && e.IsError != "true" {
			if v := jsonObject(r.Text); v != nil {
				call.Result = v
			}
		}
		if call.ID != "" || call.Arguments != nil || call.Result != nil {
			t.Call = call
		}
		d.GenAI.Tool = t
	}
	if e.TurnType == timeline.ToolUse && r.Text != "" {
		switch {
		case e.Action == timeline.ActExecute:
			d.Process = &ECSProcess{CommandLine: r.Text, WorkingDirectory: r.ProjectPath}
		case e.Action == timeline.ActFileRead || e.Action == timeline.ActFileWrite || e.Action == timeline.ActFileEdit || e.Action == timeline.ActFileDelete:
			d.File = &ecsPath{r.Text}
		case e.Action == timeline.ActWebFetch:
			// A web search's query is no URL: only an absolute http(s) URL.
			if u, err := url.Parse(r.Text); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
				d.URL = &ecsURL{r.Text}
			}
		}
	}
	return d
}

// ecsRows writes timeline.ecs.jsonl.
type ecsRows struct{ jsonlRows }

func (w *ecsRows) write(e *timeline.Event) error { return w.w.Write(ECSDocOf(e)) }

// openECS creates timeline.ecs.jsonl and writes the index template beside
// it.
func openECS(dir string) (rowWriter, string, error) {
	tf, err := createOutput(filepath.Join(dir, ECSTemplateOut))
	if err != nil {
		return nil, "", err
	}
	if _, err := tf.Write(ECSTemplate); err != nil {
		tf.Close()
		return nil, "", err
	}
	if err := tf.Close(); err != nil {
		return nil, "", err
	}
	f, err := createOutput(filepath.Join(dir, TimelineECS))
	if err != nil {
		return nil, "", err
	}
	return &ecsRows{jsonlRows{f: f, w: timeline.NewWriter(f)}}, TimelineECS, nil
}
