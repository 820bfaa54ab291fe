package grok

import (
	"context"
	"fmt"
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
