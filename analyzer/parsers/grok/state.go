package grok

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The session folder's state files: rewind_points.jsonl (the files each
// prompt touched, as they were before and after it), feedback.jsonl (the
// person's ratings) and plan.json (the to-do list), as Grok Build writes
// them at 19d42e3 (xai-grok-workspace session/file_state.rs RewindPoint
// and FileSnapshot; xai-grok-shell session/persistence.rs
// LocalFeedbackEntry and prod/mc/cli-chat-proxy-types feedback_types.rs
// FeedbackSubmission; xai-grok-tools grok_build/todo TodoState, written
// by storage/jsonl write_plan_state). agentsview 538600744 reads none of
// the three.

// snapshot is a FileSnapshot: its content is measured, never kept (a
// snapshot holds a whole file, which may hold secrets; the bundle keeps
// the file itself).
type snapshot struct {
	Path       string      `json:"path"`
	Content    snapContent `json:"content"`
	CapturedAt string      `json:"captured_at"`
}

// snapContent is a snapshot's content: its length in bytes, or absent
// (null: the file did not exist when the snapshot was taken).
type snapContent struct {
	set, null bool
	n         int
}

func (c *snapContent) UnmarshalJSON(b []byte) error {
	c.set = true
	if string(b) == "null" {
		c.null = true
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	c.n = len(s)
	return nil
}

// rewindPoint is one rewind_points.jsonl line.
type rewindPoint struct {
	PromptIndex    *int                `json:"prompt_index"`
	CreatedAt      string              `json:"created_at"`
	FileSnapshots  map[string]snapshot `json:"file_snapshots"`
	AfterSnapshots map[string]snapshot `json:"after_snapshots"`
}

// parseRewindPoints reads rewind_points.jsonl: one system row per point at
// its created_at, naming every file snapshotted before the prompt ran and
// after it (the path, and the size of the content kept, or "did not
// exist"). A rewind to prompt N reverts the files to the before-snapshots
// of the points from N on and then drops (or, keeping the files, folds
// into point N-1) those points (file_state.rs merge_rewind_points_from),
// so the file holds the points that survived.
func parseRewindPoints(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var p rewindPoint
		if err := json.Unmarshal(b, &p); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if p.PromptIndex == nil || p.FileSnapshots == nil {
			out.Report(n, parser.KindSkippedRecord, "a rewind point without prompt_index or file_snapshots")
			return nil
		}
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: n, TurnType: timeline.System, TimeBasis: timeline.TimeNone}
		if t, ok := parser.ParseTime(p.CreatedAt); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		e.Text = fmt.Sprintf("rewind point of prompt %d (rewind_points.jsonl): %s before the prompt ran; %s after it (contents kept in the file, not shown)",
			*p.PromptIndex, snapshots(p.FileSnapshots), snapshots(p.AfterSnapshots))
		out.Event(e)
		return nil
	})
}

// snapshots names each snapshot, by path: "2 file(s) snapshotted: a.go
// (120 bytes), b.go (did not exist)".
func snapshots(m map[string]snapshot) string {
	if len(m) == 0 {
		return "no file snapshotted"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		c := m[k].Content
		switch {
		case !c.set:
			parts = append(parts, k+" (no content recorded)")
		case c.null:
			parts = append(parts, k+" (did not exist)")
		default:
			parts = append(parts, fmt.Sprintf("%s (%d bytes)", k, c.n))
		}
	}
	return fmt.Sprintf("%d file(s) snapshotted: %s", len(keys), strings.Join(parts, ", "))
}

// feedback is one feedback.jsonl line: a LocalFeedbackEntry, tagged by
// type (user_feedback is the only one).
type feedback struct {
	Type        string      `json:"type"`
	SubmittedAt string      `json:"submittedAt"`
	SessionID   string      `json:"sessionId"`
	TurnNumber  *int64      `json:"turnNumber"`
	Solicited   bool        `json:"solicited"`
	RequestID   string      `json:"requestId"`
	Dismissed   bool        `json:"dismissed"`
	Submission  *submission `json:"submission"`
}

type submission struct {
	ClientType         string   `json:"clientType"`
	FeedbackType       string   `json:"feedbackType"`
	TurnNumber         *int64   `json:"turnNumber"`
	RatingType         string   `json:"ratingType"`
	RatingValue        *int     `json:"ratingValue"`
	FeedbackText       string   `json:"feedbackText"`
	FeedbackCategories []string `json:"feedbackCategories"`
	MessageID          string   `json:"messageId"`
	ModelID            string   `json:"modelId"`
	ContextType        string   `json:"contextType"`
	ToolName           string   `json:"toolName"`
	PreferredModelID   string   `json:"preferredModelId"`
}

// parseFeedback reads feedback.jsonl: each entry a system row at its
// submittedAt, "feedback (feedback.jsonl): ..." with the rating (thumbs
// -1 down, 0 neutral, 1 up; stars 1-5; nps 0-10), the text the person
// wrote, the categories, the turn, the model rated, and whether Grok asked
// for it; a dismissed request is a row too. The person's words are not a
// prompt to the agent: the row is a system row.
func parseFeedback(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var f feedback
		if err := json.Unmarshal(b, &f); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if f.Type != "user_feedback" {
			out.Report(n, parser.KindSkippedRecord, "a feedback entry tagged "+strconv.Quote(f.Type))
			return nil
		}
		e := timeline.Event{SessionID: sid, ProjectPath: project, SourceLine: n, TurnType: timeline.System, TimeBasis: timeline.TimeNone}
		if f.SessionID != "" {
			e.SessionID = f.SessionID
		}
		if t, ok := parser.ParseTime(f.SubmittedAt); ok {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		var d []string
		add := func(s string) {
			if s != "" {
				d = append(d, s)
			}
		}
		turn := f.TurnNumber
		if s := f.Submission; s != nil {
			if turn == nil {
				turn = s.TurnNumber
			}
			add(rating(s.RatingType, s.RatingValue))
			if s.FeedbackText != "" {
				add("text: " + s.FeedbackText)
			}
			if len(s.FeedbackCategories) > 0 {
				add("categories " + strings.Join(s.FeedbackCategories, ", "))
			}
			if s.FeedbackType != "" {
				add("type " + s.FeedbackType)
			}
			if s.ContextType != "" {
				add("about " + s.ContextType)
			}
			if s.ToolName != "" {
				add("tool " + s.ToolName)
			}
			if s.MessageID != "" {
				add("message " + s.MessageID)
			}
			if s.PreferredModelID != "" {
				add("preferred model " + s.PreferredModelID)
			}
			if s.ClientType != "" {
				add("from " + s.ClientType)
			}
			e.Model = s.ModelID
			if s.ModelID != "" {
				add("model " + s.ModelID)
			}
		}
		if turn != nil {
			add("turn " + strconv.FormatInt(*turn, 10))
		}
		if f.Solicited {
			r := "asked for by Grok"
			if f.RequestID != "" {
				r += " (request " + f.RequestID + ")"
			}
			add(r)
		}
		head := "feedback (feedback.jsonl)"
		if f.Dismissed {
			head = "feedback request dismissed (feedback.jsonl)"
		}
		if len(d) == 0 {
			e.Text = head
		} else {
			e.Text = head + ": " + strings.Join(d, "; ")
		}
		out.Event(e)
		return nil
	})
}

// rating words a rating as FeedbackSubmission defines it.
func rating(kind string, v *int) string {
	if kind == "" && v == nil {
		return ""
	}
	if v == nil {
		return "rating " + kind + " with no value"
	}
	s := fmt.Sprintf("rating %s %d", kind, *v)
	if kind == "thumbs" {
		switch *v {
		case -1:
			s += " (down)"
		case 0:
			s += " (neutral)"
		case 1:
			s += " (up)"
		}
	}
	return s
}

// todo is one TodoItem of plan.json.
type todo struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// parsePlan reads plan.json, the session's to-do list ({todos: {id:
// item}} in the order Grok keeps them): one system row per item at the
// file mtime (the file records no time), "plan item <id> [<status>]
// (priority <p>): <content>"; an empty list is a Skip.
func parsePlan(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "plan.json not read: "+err.Error())
		return nil
	}
	var top struct {
		Todos json.RawMessage `json:"todos"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		out.Problem(0, parser.NotJSONObject("plan.json", err))
		return nil
	}
	if len(top.Todos) == 0 || string(top.Todos) == "null" {
		out.Report(0, parser.KindSkippedRecord, "plan.json without a todos list")
		return nil
	}
	k := 0
	err = parser.ObjectMembers(top.Todos, func(id string, raw json.RawMessage) {
		k++
		var t todo
		if err := json.Unmarshal(raw, &t); err != nil {
			out.Problem(int64(k), "plan item "+parser.Shown(id)+" not read: "+parser.JSONError(err))
			return
		}
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.ProjectPath, e.SourceLine, e.TurnType = sid, project, int64(k), timeline.System
		e.Text = "plan item " + parser.Shown(id) + " [" + t.Status + "]"
		if t.Priority != "" {
			e.Text += " (priority " + t.Priority + ")"
		}
		e.Text += ": " + t.Content
		out.Event(e)
	})
	if err != nil {
		out.Problem(0, "plan.json todos is not an object: "+parser.JSONError(err))
	}
	if k == 0 && err == nil {
		out.Skip(1, "no_evidence:empty_plan")
	}
	return nil
}

// btwEntry is one btw_history.jsonl line (session/persistence.rs BtwEntry).
type btwEntry struct {
	BtwSessionID    string `json:"btwSessionId"`
	ParentSessionID string `json:"parentSessionId"`
	AskedAt         string `json:"askedAt"`
	Question        string `json:"question"`
	Answer          string `json:"answer"`
	Model           string `json:"model"`
	Success         *bool  `json:"success"`
	Error           string `json:"error"`
	Attempts        *int   `json:"attempts"`
}

// parseBtw reads btw_history.jsonl, the /btw side questions (one model
// call over the session's context, saved under a btw-<uuid> session of
// its own, recap.rs handle_side_question): the question the person typed
// a user row at askedAt, the answer an assistant row with its model at
// the same time (inherited: the answer's own time is not recorded), a
// failure a system row with its error and attempts. The btw session's
// parent is the session it asked about.
func parseBtw(ctx context.Context, in *parser.Input, out parser.Sink) error {
	sid, project := where(in.Path)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, b []byte) error {
		var x btwEntry
		if err := json.Unmarshal(b, &x); err != nil {
			out.Problem(n, parser.BadJSONLine(err))
			return nil
		}
		if x.Question == "" && x.Answer == "" {
			out.Report(n, parser.KindSkippedRecord, "a /btw entry with no question or answer")
			return nil
		}
		e := timeline.Event{SessionID: x.BtwSessionID, ParentSessionID: x.ParentSessionID, ProjectPath: project, SourceLine: n, TimeBasis: timeline.TimeNone}
		if e.SessionID == "" {
			e.SessionID = sid
		}
		if e.ParentSessionID == "" && e.SessionID != sid {
			e.ParentSessionID = sid
		}
		t, dated := parser.ParseTime(x.AskedAt)
		if dated {
			e.Time, e.TimeBasis = t, timeline.TimeRecorded
		}
		if x.Question != "" {
			q := e
			q.TurnType, q.Text = timeline.User, x.Question
			out.Event(q)
		}
		if dated {
			e.TimeBasis = timeline.TimeInherited
		}
		if x.Answer != "" {
			a := e
			a.TurnType, a.Text, a.Model = timeline.Assistant, x.Answer, x.Model
			out.Event(a)
		}
		if x.Success != nil && !*x.Success {
			f := e
			f.TurnType, f.Model = timeline.System, x.Model
			f.Text = "side question (/btw) failed"
			if x.Attempts != nil {
				f.Text += fmt.Sprintf(" after %d attempt(s)", *x.Attempts)
			}
			if x.Error != "" {
				f.Text += ": " + x.Error
			}
			out.Event(f)
		}
		return nil
	})
}

// subagentMeta is subagents/<id>/meta.json (xai-grok-shell
// agent/subagent/mod.rs SubagentMeta): the link from a child session to
// the session that spawned it.
type subagentMeta struct {
	SubagentID      string  `json:"subagent_id"`
	ParentSessionID string  `json:"parent_session_id"`
	ChildSessionID  string  `json:"child_session_id"`
	SubagentType    string  `json:"subagent_type"`
	Description     string  `json:"description"`
	Prompt          string  `json:"prompt"`
	Status          string  `json:"status"`
	StartedAt       string  `json:"started_at"`
	CompletedAt     string  `json:"completed_at"`
	DurationMs      *int64  `json:"duration_ms"`
	ToolCalls       *int64  `json:"tool_calls"`
	Turns           *int64  `json:"turns"`
	Error           string  `json:"error"`
	Context         string  `json:"effective_context_source"`
	Persona         string  `json:"persona"`
	ResumedFrom     string  `json:"resumed_from"`
	ChildCwd        string  `json:"child_cwd"`
	WorktreePath    string  `json:"worktree_path"`
	SnapshotRef     string  `json:"snapshot_ref"`
	Model           string  `json:"effective_model_id"`
	ForkCopyError   *string `json:"fork_copy_error"`
}

// subagentWhere gives the parent session (the folder above subagents/)
// and its project of a file under <session>/subagents/<id>/.
func subagentWhere(p string) (parent, project, id string) {
	p = strings.ReplaceAll(p, "\\", "/")
	dir := path.Dir(p)
	id = path.Base(dir)
	parent, project = where(path.Dir(path.Dir(dir)) + "/x")
	return parent, project, id
}

// parseSubagent reads a subagent's meta.json and output.json. meta.json:
// a system row in the child session (ParentSessionID the session that
// spawned it) at started_at, "subagent <type> <id> (<status>)" with its
// description, counters, model, worktree and error, and a second system
// row "subagent task (written by the parent's model, not typed): ..."
// with the prompt the parent's model gave it, and a row at completed_at.
// output.json {schema_version, output}: the output the subagent returned,
// a system row in the child session at meta.json's completed_at
// (inherited; the file records no time).
func parseSubagent(ctx context.Context, in *parser.Input, out parser.Sink) error {
	parent, project, id := subagentWhere(in.Path)
	if in.Base() == "output.json" {
		return parseSubagentOutput(in, out, parent, project, id)
	}
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "subagent meta.json not read: "+err.Error())
		return nil
	}
	var m subagentMeta
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSONObject("subagent meta.json", err))
		return nil
	}
	e := subagentBase(&m, parent, project, id)
	e.SourceLine, e.TurnType = 1, timeline.System
	start := e
	if t, ok := parser.ParseTime(m.StartedAt); ok {
		start.Time, start.TimeBasis = t, timeline.TimeRecorded
	}
	var d []string
	add := func(k, v string) {
		if v != "" {
			d = append(d, k+v)
		}
	}
	add("", m.Description)
	add("parent ", m.ParentSessionID)
	add("persona ", m.Persona)
	add("context ", m.Context)
	add("resumed from ", m.ResumedFrom)
	add("cwd ", m.ChildCwd)
	add("worktree ", m.WorktreePath)
	add("snapshot ", m.SnapshotRef)
	add("model ", m.Model)
	for _, c := range []struct {
		k string
		v *int64
	}{{"turns ", m.Turns}, {"tool calls ", m.ToolCalls}, {"duration ms ", m.DurationMs}} {
		if c.v != nil {
			add(c.k, strconv.FormatInt(*c.v, 10))
		}
	}
	add("error ", m.Error)
	if m.ForkCopyError != nil {
		add("fork copy error ", *m.ForkCopyError)
	}
	start.Text = "subagent " + parser.Shown(m.SubagentType) + " " + parser.Shown(m.SubagentID) + " started"
	if m.Status != "" {
		start.Text += " (status " + m.Status + ")"
	}
	if len(d) > 0 {
		start.Text += ": " + strings.Join(d, "; ")
	}
	out.Event(start)
	if m.Prompt != "" {
		p := start
		p.Text = "subagent task (written by the parent's model, not typed): " + m.Prompt
		out.Event(p)
	}
	if t, ok := parser.ParseTime(m.CompletedAt); ok {
		c := e
		c.Time, c.TimeBasis = t, timeline.TimeRecorded
		c.Text = "subagent " + parser.Shown(m.SubagentID) + " ended (status " + m.Status + ")"
		out.Event(c)
	}
	return nil
}

func subagentBase(m *subagentMeta, parent, project, id string) timeline.Event {
	e := timeline.Event{SessionID: m.ChildSessionID, ParentSessionID: m.ParentSessionID, ProjectPath: project, Model: m.Model, TimeBasis: timeline.TimeNone}
	if e.ParentSessionID == "" {
		e.ParentSessionID = parent
	}
	if e.SessionID == "" {
		e.SessionID = id
	}
	if m.ChildCwd != "" {
		e.ProjectPath = m.ChildCwd
	}
	return e
}

func parseSubagentOutput(in *parser.Input, out parser.Sink, parent, project, id string) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "subagent output.json not read: "+err.Error())
		return nil
	}
	var o struct {
		SchemaVersion *int    `json:"schema_version"`
		Output        *string `json:"output"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		out.Problem(0, parser.NotJSONObject("subagent output.json", err))
		return nil
	}
	if o.Output == nil {
		out.Report(0, parser.KindSkippedRecord, "subagent output.json without output")
		return nil
	}
	var m subagentMeta
	if mb, ok := in.ReadRelated(path.Join(path.Dir(strings.ReplaceAll(in.Path, "\\", "/")), "meta.json"), maxWhole); ok {
		_ = json.Unmarshal(mb, &m)
	}
	e := subagentBase(&m, parent, project, id)
	e.SourceLine, e.TurnType = 1, timeline.System
	if t, ok := parser.ParseTime(m.CompletedAt); ok {
		e.Time, e.TimeBasis = t, timeline.TimeInherited
	}
	e.Text = "subagent output returned to the parent (output.json): " + *o.Output
	out.Event(e)
	return nil
}
