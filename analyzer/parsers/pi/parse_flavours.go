package pi

import (
	"context"
	"fmt"
	"path"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Prime Agent (Prime Intellect) and OhMyPi (omp, can1357/oh-my-pi) are
// forks of pi's coding agent that keep pi's session format under their own
// home folders; the session format reader reads them with each fork's
// entry types and parent links on top.

// basePath is the last element of a path written on any OS.
func basePath(p string) string { return path.Base(strings.ReplaceAll(p, `\`, "/")) }

// parsePrimeSession reads ~/.prime/agent/sessions/<file>.jsonl. Prime
// Agent's file name need not carry the session id (v0.7.0 names the file
// before the header), and parentSession is the parent's file path, maybe
// as another machine (a container) saw it: the parent's id is the header
// of that file where it was collected, else of the file of that name
// beside this one, else the file name.
func parsePrimeSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	s := pisession.NewSession(in, out, pisession.Options{
		Agent: PrimeAgent, Contract: true,
		ParentID: func(in *parser.Input, p string) string {
			b := basePath(p)
			if id, ok := pisession.HeaderID(ctx, in, path.Dir(in.Path)+"/"+b); ok && id != "" {
				return id
			}
			return strings.TrimSuffix(b, path.Ext(b))
		},
		Extra: primeEntry,
	})
	s.SetID(strings.TrimSuffix(path.Base(in.Path), ".jsonl"))
	return s.ReadLines(ctx, rc)
}

// primeEntry reads Prime Agent's child_usage_attributed: the tokens its
// subagents spent, attributed to one of this session's messages.
func primeEntry(s *pisession.Session, n int64, typ string, raw []byte) bool {
	if typ != "child_usage_attributed" {
		return false
	}
	var e struct {
		ID        string          `json:"id"`
		Timestamp string          `json:"timestamp"`
		TargetID  string          `json:"targetId"`
		Child     json.RawMessage `json:"childUsage"`
		Aggregate json.RawMessage `json:"aggregateUsage"`
	}
	_ = json.Unmarshal(raw, &e)
	t, _ := parser.ParseTime(e.Timestamp)
	text := "subagent usage attributed to message " + e.TargetID
	if len(e.Child) > 0 {
		text += ": child " + parser.CompactJSON(e.Child)
	}
	if len(e.Aggregate) > 0 {
		text += "; aggregate " + parser.CompactJSON(e.Aggregate)
	}
	s.Emit(t, timeline.System, text, n, e.ID)
	return true
}

// parseOMPSession reads ~/.omp/agent/sessions/<cwd>/<time>_<id>.jsonl and
// the subagent transcripts OhMyPi writes beside their parent,
// <time>_<id>/<agent>.jsonl. parentSession is the parent's id itself. A
// subagent's header names no parent: the parent is the session whose file
// is the folder's name plus .jsonl (its header id where it was collected,
// else the id in the folder's name), and the subagent's user messages are
// the task the parent agent wrote, never typed by a person.
func parseOMPSession(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	dir := path.Dir(in.Path)
	parent := ""
	if id, ok := pisession.HeaderID(ctx, in, dir+".jsonl"); ok {
		parent = id
		if parent == "" {
			parent = pisession.SessionIDOfPath(dir + ".jsonl")
		}
	} else if id := pisession.SessionIDOfPath(dir + ".jsonl"); id != "" && !strings.HasSuffix(dir, "/sessions") && pisession.SessionIDOfPath(in.Path) == "" {
		// The parent file was not collected: a <time>_<id> folder holding a
		// file whose name is no session file's is a subagent's.
		parent = id
	}
	o := pisession.Options{
		Agent: OMP, Contract: true,
		Leading:  []string{"title"},
		ParentID: func(_ *parser.Input, p string) string { return strings.TrimSpace(p) },
		Extra:    ompEntry,
	}
	if parent != "" {
		o.UserOrigin = func([]byte) string { return "subagent task from the parent agent (not typed): " }
	}
	s := pisession.NewSession(in, out, o)
	switch id := pisession.SessionIDOfPath(in.Path); {
	case id != "":
		s.SetID(id)
	case parent != "":
		// A subagent file cut before its header: its name (the agent's)
		// repeats across parents, so the session is "<parent>/<name>".
		s.SetID(parent + "/" + strings.TrimSuffix(path.Base(in.Path), ".jsonl"))
	default:
		s.SetID(strings.TrimSuffix(path.Base(in.Path), ".jsonl"))
	}
	if parent != "" {
		s.SetParent(parent)
	}
	err = s.ReadLines(ctx, rc)
	if parent != "" && parent != s.ID() {
		out.Session(timeline.SessionState{Key: timeline.SessionKey{Agent: OMP, SessionID: s.ID()}, ParentSessionID: parent})
	}
	return err
}

// ompEntry reads the entry types OhMyPi adds to pi's (session-entries.ts
// in @oh-my-pi/pi-coding-agent 18.3.4).
func ompEntry(s *pisession.Session, n int64, typ string, raw []byte) bool {
	var e struct {
		ID            string          `json:"id"`
		Timestamp     string          `json:"timestamp"`
		UpdatedAt     string          `json:"updatedAt"`
		Title         string          `json:"title"`
		PreviousTitle string          `json:"previousTitle"`
		Source        string          `json:"source"`
		Trigger       string          `json:"trigger"`
		Purpose       string          `json:"purpose"`
		Role          string          `json:"role"`
		Provider      string          `json:"provider"`
		Model         string          `json:"model"`
		StopReason    string          `json:"stopReason"`
		ErrorMessage  string          `json:"errorMessage"`
		Usage         json.RawMessage `json:"usage"`
		ServiceTier   json.RawMessage `json:"serviceTier"`
		Rules         []string        `json:"injectedRules"`
		Hash          string          `json:"hash"`
		SystemPrompt  string          `json:"systemPrompt"`
		Task          string          `json:"task"`
		Tools         []string        `json:"tools"`
		Agent         string          `json:"agent"`
		Resolved      string          `json:"resolvedModel"`
		ReadOnly      bool            `json:"readOnly"`
		Isolated      bool            `json:"isolated"`
		Mode          string          `json:"mode"`
		Data          json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return false
	}
	ts := e.Timestamp
	if typ == "title" {
		ts = e.UpdatedAt
	}
	t, _ := parser.ParseTime(ts)
	var text string
	switch typ {
	case "title":
		// The fixed-width slot on line 1, rewritten in place: the current
		// title only (title_change entries keep the history).
		if e.Title == "" {
			s.Skip(n, "no_evidence:title")
			return true
		}
		text = fmt.Sprintf("session title (current, %s): %s", orNone(e.Source), e.Title)
		s.Emit(t, timeline.System, text, n, "#title")
		return true
	case "title_change":
		text = "session title: " + e.Title
		if e.PreviousTitle != "" {
			text = "session title: " + e.PreviousTitle + " -> " + e.Title
		}
		text += " (" + orNone(e.Source)
		if e.Trigger != "" {
			text += ", " + e.Trigger
		}
		text += ")"
	case "model_usage":
		text = fmt.Sprintf("model call outside the transcript (%s", orNone(e.Purpose))
		if e.Role != "" {
			text += ", role " + e.Role
		}
		text += "): " + e.Provider + "/" + e.Model + " stop=" + e.StopReason
		if e.ErrorMessage != "" {
			text += " error: " + e.ErrorMessage
		}
		if len(e.Usage) > 0 {
			text += " usage " + parser.CompactJSON(e.Usage)
		}
	case "service_tier_change":
		text = "service tier: " + parser.CompactJSON(e.ServiceTier)
	case "reset_boundary":
		text = "context reset (/clear): the entries before stay in the file, the model no longer sees them"
	case "ttsr_injection":
		text = "rules injected into the context (not typed): " + strings.Join(e.Rules, ", ")
	case "credential_pin":
		text = "account pinned for provider " + e.Provider + " (hash " + e.Hash + ")"
	case "session_init":
		text = fmt.Sprintf("subagent %s started: task %q; tools %s; system prompt %d characters", orNone(e.Agent), e.Task, strings.Join(e.Tools, ","), len(e.SystemPrompt))
		if e.Resolved != "" {
			text += "; model " + e.Resolved
		}
		if e.ReadOnly {
			text += "; read-only"
		}
		if e.Isolated {
			text += "; isolated worktree"
		}
	case "mode_change":
		text = "mode: " + e.Mode
		if len(e.Data) > 0 {
			text += " " + parser.CompactJSON(e.Data)
		}
	default:
		return false
	}
	s.Emit(t, timeline.System, text, n, e.ID)
	return true
}

func orNone(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}
