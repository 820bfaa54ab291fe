package aider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var llmHeadRx = regexp.MustCompile(`^(TO LLM|LLM RESPONSE) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\s*$`)

var roles = []string{"SYSTEM", "USER", "ASSISTANT", "TOOL", "FUNCTION"}

// splitRole returns the role prefix of a format_messages line and the text.
func splitRole(s string) (role, text string, ok bool) {
	for _, r := range roles {
		if s == r {
			return r, "", true
		}
		if strings.HasPrefix(s, r+" ") {
			return r, s[len(r)+1:], true
		}
	}
	return "", "", false
}

// parseLLM reads .aider.llm.history. A TO LLM block holds the whole
// context sent (system prompt, repo map, files, earlier turns), so only its
// last USER message, the prompt of that request, gives a row; each LLM
// RESPONSE block gives the reply. Both are secondary to the chat history.
func parseLLM(ctx context.Context, in *parser.Input, out parser.Sink) error {
	starts := runStarts(ctx, in, out)
	proj := projectPath(in.Path)
	dec := &decoder{out: out}
	var (
		kind     string // "TO LLM", "LLM RESPONSE" or ""
		t        time.Time
		head     int64
		curRole  string
		cur      []string
		curFirst int64
		lastUser []string
		lastLine int64
		reply    string // the text of the last LLM RESPONSE
		// sent: the line of the first request of a run (its session)
		// with a last message, by run and text. Never across runs: the
		// same words in another run are a prompt typed again.
		sent = map[string]int64{}
	)
	endMsg := func() {
		if curRole == "" {
			return
		}
		if curRole == "USER" {
			lastUser, lastLine = cur, curFirst
		}
		curRole, cur = "", nil
	}
	emit := func(tt timeline.TurnType, text string, line int64) {
		e := event(t, runOf(starts, t), proj, tt, text, line)
		e.Secondary = true
		out.Event(e)
	}
	endBlock := func() {
		switch kind {
		case "TO LLM":
			endMsg()
			text := stripReminder(strings.TrimSpace(strings.Join(lastUser, "\n")))
			key := runOf(starts, t) + "\x00" + text
			first, again := sent[key]
			switch {
			case text == "":
				out.Skip(head, "no_evidence:empty_request")
			case again:
				// The same last message sent again in the same run (a
				// retry, a lint reflection repeated): kept as a system row
				// naming the first, never a second prompt typed.
				emit(timeline.System, fmt.Sprintf("request sent again (the same last message as the request at line %d): %s", first, text), lastLine)
			case reply != "" && text == reply:
				// The architect's answer handed to the editor model: the
				// reply's row holds it.
				out.Skip(head, "copy_of_reply")
			case aiderSaid(text):
				// A message aider wrote itself (files added, a commit, a
				// reflection of lint errors or a failed edit).
				emit(timeline.System, text, lastLine)
			default:
				emit(timeline.User, text, lastLine)
			}
			if text != "" && !again {
				sent[key] = lastLine
			}
		case "LLM RESPONSE":
			text := strings.TrimSpace(strings.Join(cur, "\n"))
			reply = text
			think, answer := splitThinking(text)
			if think != "" {
				emit(timeline.Thinking, think, head)
			}
			if answer != "" {
				emit(timeline.Assistant, answer, head)
			}
			if think == "" && answer == "" {
				out.Skip(head, "no_evidence:empty_response")
			}
		}
		kind, curRole, cur, lastUser = "", "", nil, nil
	}
	err := readLines(ctx, in, out, func(n int64, raw []byte) error {
		s := dec.text(n, raw)
		if m := llmHeadRx.FindStringSubmatch(s); m != nil {
			endBlock()
			kind, head = m[1], n
			var err error
			if t, err = time.Parse("2006-01-02T15:04:05", m[2]); err != nil {
				out.Problem(n, "bad block time: "+m[2])
			}
			return nil
		}
		if strings.HasPrefix(s, "TO LLM ") || strings.HasPrefix(s, "LLM RESPONSE ") {
			endBlock()
			out.Problem(n, "bad block header: "+s)
			return nil
		}
		if kind == "" {
			out.Problem(n, "line outside a TO LLM or LLM RESPONSE block")
			return nil
		}
		if s == "-------" {
			endMsg()
			return nil
		}
		role, text, ok := splitRole(s)
		if !ok {
			// A line without a role prefix: a value with an embedded
			// newline (list content); keep it with the message.
			cur = append(cur, s)
			return nil
		}
		if role != curRole && kind == "TO LLM" {
			endMsg()
			curRole, curFirst = role, n
		}
		if kind == "LLM RESPONSE" {
			curRole = role
		}
		cur = append(cur, text)
		return nil
	})
	endBlock()
	return err
}

// reminders are the headings of aider's edit-format system_reminder, which
// is appended to the last user message for models that take no system
// message at the end.
var reminders = []string{
	"\n\n# *SEARCH/REPLACE block* Rules:",
	"\n\n# V4A Diff Format Rules:",
	"\n\n# File editing rules:",
	"\n\nTo suggest changes to a file you MUST return the entire content",
}

func stripReminder(s string) string {
	for _, r := range reminders {
		if i := strings.Index(s, r); i >= 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// aiderPrefixes start the user-role messages aider writes itself
// (aider/coders/base_prompts.py, base_coder.py, linter.py).
var aiderPrefixes = []string{
	"I added these files to the chat:",
	"I committed the changes with git hash",
	"I updated the files.",
	"I didn't see any properly formatted edits",
	"I edited the files myself.",
	"I switched to a new code base.",
	"# Fix any errors below",
	"The LLM did not conform to the edit format.",
	"Only 3 reflections allowed",
}

var failedRx = regexp.MustCompile(`^# \d+ SEARCH/REPLACE blocks? failed to match`)

func aiderSaid(s string) bool {
	if failedRx.MatchString(s) {
		return true
	}
	for _, p := range aiderPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
