package findings

import (
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Detectors returns the built-in detectors.
func Detectors() []Detector {
	return []Detector{NewPromptInjection(), NewClonedHook(), NewApprovedMCPChanged(), NewHeadlessBypass(), NewForbiddenDestruction(), NewScanRate(), NewPromptLock(), NewSecretDetector()}
}

// PromptInjectionID is the rule id of the prompt-injection detector.
const PromptInjectionID = "c3e42366-7720-4fdc-bfd8-fce305cdd551"

// Bounds of what the detector keeps per session.
const (
	maxFetchText     = 256 << 10 // characters of one fetched result kept
	maxFetchesKept   = 8         // fetched results kept per session (the latest)
	maxUserText      = 1 << 20   // characters of typed prompts kept per session
	minFollowedChars = 8         // a shorter command is too common to call followed
)

// PromptInjection finds tool results that carried instructions the agent
// then followed: within one session, a tool call fetched a URL (a web_fetch
// call, an MCP fetch or browse tool, or a shell command running curl, wget
// or the like on an http(s) URL); before the person typed anything again,
// the agent ran a shell command whose text (white space folded, at least 8
// characters) appears verbatim in what the fetch returned, and which the
// person never typed in that session. The finding names the fetch call,
// its result and the command run.
//
// Sigma cannot say this: it needs two rows of one session in order and a
// comparison of one row's text with another's.
type PromptInjection struct {
	sessions map[key]*injState
}

type injState struct {
	fetchCalls map[string]Ref // tool_use_id -> the fetch call
	fetched    []fetched      // results of fetch calls since the last typed prompt
	typed      strings.Builder
}

type fetched struct {
	call, result Ref
	text         string // folded
}

// NewPromptInjection returns the detector.
func NewPromptInjection() *PromptInjection { return &PromptInjection{sessions: map[key]*injState{}} }

func (*PromptInjection) ID() string { return PromptInjectionID }
func (*PromptInjection) Title() string {
	return "Agent ran a command that a fetched page or file told it to run (prompt-injection trace)"
}
func (*PromptInjection) Level() string { return "high" }
func (*PromptInjection) Class() string { return "prompt-injection" }

var (
	fetchCmd  = regexp.MustCompile(`(?i)\b(curl|wget|Invoke-WebRequest|iwr|Invoke-RestMethod|irm|http|https|xh|lynx|w3m|links)\b[^|;&\n]*https?://`)
	fetchTool = regexp.MustCompile(`(?i)(fetch|brows|navigate|scrape|crawl|read_?url|get_?url|web)`)
)

// isFetch reports whether a tool call fetches a URL.
func isFetch(r *timeline.Row) bool {
	switch r.Action {
	case string(timeline.ActWebFetch):
		return true
	case string(timeline.ActExecute):
		// Every fetchCmd match holds "://": most commands are rejected
		// without the regexp.
		return strings.Contains(r.Text, "://") && fetchCmd.MatchString(r.Text)
	case string(timeline.ActMCP):
		return fetchTool.MatchString(r.ToolName)
	}
	return false
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

func (p *PromptInjection) Row(line int64, r *timeline.Row, report func(rows ...Ref)) {
	if r.SessionID == "" {
		return
	}
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	st := p.sessions[k]
	switch r.TurnType {
	case string(timeline.User):
		if st == nil {
			st = &injState{}
			p.sessions[k.clone()] = st
		}
		st.fetched = nil // the person typed again: a new turn
		if st.typed.Len() < maxUserText {
			st.typed.WriteString(fold(r.Text))
			st.typed.WriteByte('\n')
		}
	case string(timeline.ToolUse):
		rc := *r
		if isFetch(r) && r.ToolUseID != "" {
			if st == nil {
				st = &injState{}
				p.sessions[k.clone()] = st
			}
			if st.fetchCalls == nil {
				st.fetchCalls = map[string]Ref{}
			}
			st.fetchCalls[r.ToolUseID] = Ref{Line: line, Row: &rc}
		}
		if st == nil || len(st.fetched) == 0 || r.Action != string(timeline.ActExecute) {
			return
		}
		cmd := fold(r.Text)
		if len(cmd) < minFollowedChars || strings.Contains(st.typed.String(), cmd) {
			return
		}
		for _, f := range st.fetched {
			if f.call.Row.ToolUseID == r.ToolUseID || fold(f.call.Row.Text) == cmd {
				continue
			}
			if strings.Contains(f.text, cmd) {
				report(f.call, f.result, Ref{Line: line, Row: &rc})
				return
			}
		}
	case string(timeline.ToolResult):
		if st == nil || r.ToolUseID == "" {
			return
		}
		call, ok := st.fetchCalls[r.ToolUseID]
		if !ok {
			return
		}
		delete(st.fetchCalls, r.ToolUseID)
		txt := r.Text
		if len(txt) > maxFetchText {
			txt = txt[:maxFetchText]
		}
		rc := *r
		st.fetched = append(st.fetched, fetched{call: call, result: Ref{Line: line, Row: &rc}, text: fold(txt)})
		if len(st.fetched) > maxFetchesKept {
			st.fetched = st.fetched[len(st.fetched)-maxFetchesKept:]
		}
	}
}
