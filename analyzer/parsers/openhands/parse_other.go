package openhands

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// metaFile is meta.json (agent_server models.py StoredConversation): the
// conversation config with the server's id, title, UTC created_at and
// fork origin.
type metaFile struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Workspace *struct {
		WorkingDir string `json:"working_dir"`
	} `json:"workspace"`
	Worktree                 bool   `json:"worktree"`
	ParentConversationID     string `json:"parent_conversation_id"`
	ForkedFromConversationID string `json:"forked_from_conversation_id"`
	ForkedFromEventID        string `json:"forked_from_event_id"`
}

func (m *metaFile) workingDir() string {
	if m.Workspace == nil {
		return ""
	}
	return m.Workspace.WorkingDir
}

// sessionOf is the session id a conversation folder gives: the folder
// name (the conversation id's hex form).
func sessionOf(p string) string { return path.Base(convDir(p)) }

func parseMeta(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "meta.json not read: "+err.Error())
		return nil
	}
	var m metaFile
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, "not a conversation meta.json: "+parser.JSONError(err))
		return nil
	}
	sid := sessionOf(in.Path)
	e := timeline.Event{SessionID: sid, ProjectPath: m.workingDir(), TurnType: timeline.System, SourceLine: 1}
	if t, naive, ok := naiveTime(m.CreatedAt); ok {
		e.Time = t
		if naive {
			e.TimeBasis = timeline.TimeLocalAsUTC
		}
	} else {
		e.TimeBasis = timeline.TimeNone
	}
	e.Text = "conversation created: " + m.Title
	if m.workingDir() != "" {
		e.Text += " (working directory " + m.workingDir() + ")"
	}
	if m.Worktree {
		e.Text += " in a scratch git worktree"
	}
	if ci := conversation(in); ci.known {
		e.Text += "; event times are host-local with no zone, corrected by " + offsetText(ci.offset) + " (the offset this created_at implies)"
	}
	out.Event(e)
	e.Text = strings.SplitN(e.Text, "; event times", 2)[0]
	st := timeline.SessionState{Key: timeline.SessionKey{Agent: agentName, SessionID: sid}}
	if f := dehyphen(m.ForkedFromConversationID); f != "" {
		fe := e
		fe.Text = "conversation forked from " + f
		if m.ForkedFromEventID != "" {
			fe.Text += " at event " + parser.Shown(m.ForkedFromEventID)
		}
		out.Event(fe)
		st.ForkedFrom = f
	}
	if p := dehyphen(m.ParentConversationID); p != "" {
		pe := e
		pe.Text, pe.ParentSessionID = "subagent "+parser.Shown(sid)+" of "+parser.Shown(p), p
		out.Event(pe)
		st.ParentSessionID = p
	}
	if st.ForkedFrom != "" || st.ParentSessionID != "" {
		out.Session(st)
	}
	return nil
}

// dehyphen writes a conversation UUID as its folder name (hex, no
// hyphens), so a link names the folder's session.
func dehyphen(id string) string { return strings.ReplaceAll(id, "-", "") }

// baseState is the part of base_state.json (sdk conversation/state.py
// ConversationState) the rows use.
type baseState struct {
	Agent *struct {
		LLM struct {
			Model string `json:"model"`
		} `json:"llm"`
	} `json:"agent"`
	ConfirmationPolicy json.RawMessage   `json:"confirmation_policy"`
	SecurityAnalyzer   json.RawMessage   `json:"security_analyzer"`
	BlockedActions     map[string]string `json:"blocked_actions"`
	BlockedMessages    map[string]string `json:"blocked_messages"`
	ExecutionStatus    string            `json:"execution_status"`
	Stats              struct {
		UsageToMetrics map[string]struct {
			ModelName   string `json:"model_name"`
			TokenUsages []struct {
				Model            string `json:"model"`
				PromptTokens     int64  `json:"prompt_tokens"`
				CompletionTokens int64  `json:"completion_tokens"`
				ResponseID       string `json:"response_id"`
			} `json:"token_usages"`
		} `json:"usage_to_metrics"`
	} `json:"stats"`
}

func parseBaseState(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "base_state.json not read: "+err.Error())
		return nil
	}
	var s baseState
	if err := json.Unmarshal(b, &s); err != nil {
		out.Problem(0, "not a conversation base_state.json: "+parser.JSONError(err))
		return nil
	}
	sid := sessionOf(in.Path)
	file := parser.DisplayFile(&in.File)
	emit := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.SessionID, e.SourceLine, e.Text = sid, 1, text+" (from "+file+", file mtime)"
		out.Event(e)
	}
	if s.Agent != nil && s.Agent.LLM.Model != "" {
		emit("model setting: " + s.Agent.LLM.Model)
	}
	if len(s.ConfirmationPolicy) > 0 {
		emit("permission setting: confirmation_policy=" + policyName(s.ConfirmationPolicy))
	}
	if len(s.SecurityAnalyzer) > 0 {
		emit("permission setting: security_analyzer=" + policyName(s.SecurityAnalyzer))
	}
	for _, k := range sortedKeys(s.BlockedActions) {
		emit("permission decision: denied source=hook: action " + k + ": " + s.BlockedActions[k])
	}
	for _, k := range sortedKeys(s.BlockedMessages) {
		emit("permission decision: denied source=hook: message " + k + ": " + s.BlockedMessages[k])
	}
	usage := make([]string, 0, len(s.Stats.UsageToMetrics))
	for k := range s.Stats.UsageToMetrics {
		usage = append(usage, k)
	}
	sort.Strings(usage)
	for _, k := range usage {
		m := s.Stats.UsageToMetrics[k]
		var p, c int64
		models := map[string]bool{}
		for _, u := range m.TokenUsages {
			p += u.PromptTokens
			c += u.CompletionTokens
			if u.Model != "" {
				models[u.Model] = true
			}
		}
		emit(fmt.Sprintf("token usage %s: model=%s responses=%d prompt_tokens=%d completion_tokens=%d", k, strings.Join(sortedSet(models), ","), len(m.TokenUsages), p, c))
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	k := make([]string, 0, len(m))
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

func sortedSet(m map[string]bool) []string {
	k := make([]string, 0, len(m))
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

// parsePromptHistory reads the CLI's prompt_history.json
// (openhands_cli/stores/prompt_history.py): a JSON list of {text,
// timestamp (host-local isoformat)}, oldest first, the last 100.
func parsePromptHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "prompt history not read: "+err.Error())
		return nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(b, &entries); err != nil {
		out.Problem(0, "not a prompt history list: "+parser.JSONError(err))
		return nil
	}
	for i, raw := range entries {
		n := int64(i + 1)
		var en struct {
			Text      *string `json:"text"`
			Timestamp string  `json:"timestamp"`
		}
		if json.Unmarshal(raw, &en) != nil || en.Text == nil {
			out.Report(n, parser.KindSkippedRecord, "prompt history entry without text")
			continue
		}
		e := timeline.Event{TurnType: timeline.User, Text: *en.Text, SourceLine: n, Secondary: true}
		if t, naive, ok := naiveTime(en.Timestamp); ok {
			e.Time = t
			if naive {
				e.TimeBasis = timeline.TimeLocalAsUTC
			}
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

// parseLegacy gives one system row per legacy 0.x session (read from its
// first event file, 0.json); the other event files are Skips.
func parseLegacy(ctx context.Context, in *parser.Input, out parser.Sink) error {
	if in.Base() != "0.json" {
		out.Skip(0, "legacy_session_not_parsed")
		return nil
	}
	dir := path.Dir(strings.ReplaceAll(in.Path, "\\", "/"))
	sid := path.Base(path.Dir(dir))
	n := len(in.List(parser.GlobEscape(dir) + "/*.json"))
	if n == 0 {
		n = 1
	}
	e := parser.SettingEvent(&in.File)
	e.SessionID, e.SourceLine = sid, 0
	e.Text = fmt.Sprintf("legacy OpenHands 0.x session %s: %d event file(s) collected, not parsed (first event file mtime)", sid, n)
	out.Event(e)
	return nil
}

// offsetText renders a host offset as +hh:mm.
func offsetText(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	return fmt.Sprintf("%s%02d:%02d", sign, int(d.Hours()), int(d.Minutes())%60)
}
