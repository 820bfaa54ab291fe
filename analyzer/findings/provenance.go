package findings

import (
	"fmt"
	"path"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	ps "github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	surfacelist "github.com/doubleagent/doubleagent/analyzer/surface"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Finisher is a Detector that decides once every row has been seen (a
// write may come after the entry it wrote in timeline order): Finish
// reports each match with a note saying why, set on its first row.
type Finisher interface {
	Finish(report func(note string, rows ...Ref))
}

// Rule ids of the provenance detectors.
const (
	ClonedHookID         = "e1a7c3d9-5b2f-4e80-9c16-3d4f8a2b7e05"
	ApprovedMCPChangedID = "9b3e5f71-2c8d-4a06-b4e9-7f1d2c6a8e30"
	HeadlessBypassID     = "4f2c8e6a-1d3b-4a97-8e05-b6c9d2f1a734"
)

// surfaceRow is a control-surface row kept by a detector with its entry.
type surfaceRow struct {
	line int64
	r    *timeline.Row
	it   ps.Item
}

func asSurface(line int64, r *timeline.Row) (surfaceRow, bool) {
	if r.TurnType != string(timeline.System) || !strings.HasPrefix(r.Text, ps.Prefix) || !strings.HasSuffix(r.Parser, "/surface") {
		return surfaceRow{}, false
	}
	s := surfaceRow{line: line, r: r}
	if json.Unmarshal([]byte(r.ToolInput), &s.it) != nil {
		return surfaceRow{}, false
	}
	return s, true
}

// ClonedHook finds a hook or helper command in a project's committed
// settings that no agent turn of the timeline wrote: it came with the
// project (a clone, a package, an archive) or from a person's editor, and
// runs when the agent opens the project. A *.local.* settings file (which
// Claude Code keeps out of git) is not "arrived with the project" and is
// left to the project-settings rule.
type ClonedHook struct {
	tr    *surfacelist.Tracker
	hooks []surfaceRow
}

// NewClonedHook returns the detector.
func NewClonedHook() *ClonedHook { return &ClonedHook{tr: surfacelist.NewTracker()} }

func (d *ClonedHook) ID() string { return ClonedHookID }
func (d *ClonedHook) Title() string {
	return "A project hook arrived with the project: no agent turn wrote it"
}
func (d *ClonedHook) Level() string { return "high" }
func (d *ClonedHook) Class() string { return "project-settings" }

func (d *ClonedHook) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	d.tr.Observe(line, r)
	s, ok := asSurface(line, r)
	if !ok || s.it.Scope != "project" || s.it.BackupOf != "" || (s.it.Kind != ps.KindHook && s.it.Kind != ps.KindHelper) {
		return
	}
	if strings.Contains(path.Base(strings.ReplaceAll(s.it.File, `\`, "/")), ".local.") {
		return
	}
	d.hooks = append(d.hooks, s)
}

func (d *ClonedHook) Finish(report func(note string, rows ...Ref)) {
	for _, h := range d.hooks {
		if len(d.tr.WrittenBy(h.r.Host, h.r.User, h.it.File)) > 0 {
			continue
		}
		what := h.it.Event
		if what == "" {
			what = h.it.Name
		}
		report(fmt.Sprintf("no agent turn in this timeline wrote %s (%s %s runs %q when an agent opens %s): it came with the project (a clone, a package, an archive) or from a person's editor",
			h.it.File, strings.ReplaceAll(h.it.Kind, "_", " "), what, h.it.Command, h.it.Project), Ref{Line: h.line, Row: h.r})
	}
}

// ApprovedMCPChanged finds a project MCP server the person approved by
// name (Claude Code's enabledMcpjsonServers, which 2.1.x keeps in the
// project's .claude/settings.local.json) whose definition in .mcp.json an
// agent turn rewrote (the note says whether after the approval's file
// time, or whether that order is not shown), or, no agent turn having
// written it, whose file time is later than the approval's (a pull, a
// checkout). Claude Code does not ask again for a name it approved, so the
// command that runs is not necessarily the one approved (the MCPoison
// shape, CVE-2025-54136).
type ApprovedMCPChanged struct {
	tr        *surfacelist.Tracker
	approvals []approval
	servers   []surfaceRow
}

type approval struct {
	line    int64
	r       *timeline.Row
	project string
	name    string
}

// NewApprovedMCPChanged returns the detector.
func NewApprovedMCPChanged() *ApprovedMCPChanged {
	return &ApprovedMCPChanged{tr: surfacelist.NewTracker()}
}

func (d *ApprovedMCPChanged) ID() string { return ApprovedMCPChangedID }
func (d *ApprovedMCPChanged) Title() string {
	return "An MCP server the person approved by name was redefined by an agent turn or after the approval"
}
func (d *ApprovedMCPChanged) Level() string { return "high" }
func (d *ApprovedMCPChanged) Class() string { return "persistence" }

const approvalPrefix = "permission setting: enabledMcpjsonServers="

func (d *ApprovedMCPChanged) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	d.tr.Observe(line, r)
	if r.TurnType == string(timeline.System) && r.Agent == "claude-code" && strings.HasPrefix(r.Text, approvalPrefix) && r.ProjectPath != "" {
		name := strings.TrimPrefix(r.Text, approvalPrefix)
		if i := strings.Index(name, " (from "); i >= 0 {
			name = name[:i]
		}
		d.approvals = append(d.approvals, approval{line: line, r: r, project: r.ProjectPath, name: name})
		return
	}
	s, ok := asSurface(line, r)
	if ok && s.it.Kind == ps.KindMCP && s.it.Scope == "project" && s.it.BackupOf == "" && path.Base(strings.ReplaceAll(s.it.File, `\`, "/")) == ".mcp.json" {
		d.servers = append(d.servers, s)
	}
}

func (d *ApprovedMCPChanged) Finish(report func(note string, rows ...Ref)) {
	for _, s := range d.servers {
		for _, a := range d.approvals {
			if a.r.Host != s.r.Host || a.r.User != s.r.User || a.project != s.it.Project || a.name != s.it.Name {
				continue
			}
			at := a.r.TimestampUTC
			lines, rows := d.tr.WriteRows(s.r.Host, s.r.User, s.it.File)
			refs := []Ref{{Line: s.line, Row: s.r}, {Line: a.line, Row: a.r}}
			var after, before []string
			for i, w := range rows {
				refs = append(refs, Ref{Line: lines[i], Row: w})
				at1 := fmt.Sprintf("session %s row %d at %s", w.SessionID, lines[i], w.TimestampUTC)
				if at != "" && w.TimestampUTC > at {
					after = append(after, at1)
				} else {
					before = append(before, at1)
				}
			}
			head := fmt.Sprintf("%q is approved for %s by name (%s, file time %s) and now runs %q: ", a.name, a.project, path.Base(a.r.SourceFile), at, ps.Detail(&s.it))
			switch {
			case len(after) > 0:
				report(head+fmt.Sprintf("agent turns rewrote %s after the approval's file time (%s); Claude Code does not ask again for a name it approved", s.it.File, strings.Join(after, "; ")), refs...)
			case len(before) > 0:
				report(head+fmt.Sprintf("agent turns rewrote %s (%s); the approval's file time is later, but Claude Code rewrites that file on its own, so the order is not shown by it: an approval by name covers whatever the file defines", s.it.File, strings.Join(before, "; ")), refs...)
			case at != "" && s.r.TimestampUTC > at:
				report(head+fmt.Sprintf("%s changed after the approval's file time (file time %s) and no agent turn wrote it (a pull, a checkout, a person); Claude Code does not ask again for a name it approved", s.it.File, s.r.TimestampUTC), refs...)
			}
		}
	}
}

// HeadlessBypass finds an agent session started headless by a process
// (the transcript's entry point: Claude Code sdk-cli and the other sdk-*
// entry points of claude -p and the Agent SDK, Codex codex_exec / source
// exec) that ran with its guard rails off: nobody was at a prompt to
// refuse a call, and its prompt came from the arguments or stdin of the
// process that started it (the s1ngularity runs).
type HeadlessBypass struct {
	sess  map[key]*headless
	order []key
}

type headless struct {
	entry, mode, prompt *keptRow // nil until seen
	// Gemini CLI: the prompt log names the session (typed in the
	// interactive UI); the calls headless default mode would not run,
	// by call id, and the first of them that succeeded.
	logged  bool
	pending map[string]*keptRow
	ran     *keptRow
}

// geminiNoPromptTools are the Gemini CLI tools a headless (-p) session
// does not have unless --yolo (or an allow rule: --allowed-tools,
// tools.allowed, a policy) gives them: they ask for confirmation, and
// with nobody to ask the CLI leaves them out (real 0.61 -p with
// --approval-mode default: 'Tool "run_shell_command" not found').
var geminiNoPromptTools = map[string]bool{"run_shell_command": true, "write_file": true, "replace": true, "edit": true}

// NewHeadlessBypass returns the detector.
func NewHeadlessBypass() *HeadlessBypass { return &HeadlessBypass{sess: map[key]*headless{}} }

func (d *HeadlessBypass) ID() string { return HeadlessBypassID }
func (d *HeadlessBypass) Title() string {
	return "Headless agent session, started by a process, ran with its guard rails off"
}
func (d *HeadlessBypass) Level() string { return "high" }
func (d *HeadlessBypass) Class() string { return "guard-rails" }

// IsHeadlessEntry reports whether a system row is a session entry point
// that no interactive terminal or editor gives.
func IsHeadlessEntry(r *timeline.Row) bool {
	if r.TurnType != string(timeline.System) {
		return false
	}
	t := r.Text
	switch {
	case strings.HasPrefix(t, "session surface: sdk-"):
		return true
	case strings.HasPrefix(t, "session origin: local (") && (strings.Contains(t, "originator=codex_exec") || strings.Contains(t, " source=exec)")):
		return true
	}
	return false
}

// bypassWords are the permission modes that ask nobody (the
// guard-rails rule's list).
var bypassWords = []string{"bypasspermissions", "danger-full-access", "yolo", "allow-all", "allow_all", "trust-all"}

func isBypassMode(r *timeline.Row) bool {
	if r.TurnType != string(timeline.System) || !strings.HasPrefix(r.Text, "permission mode: ") {
		return false
	}
	t := strings.ToLower(r.Text)
	for _, w := range bypassWords {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

func (d *HeadlessBypass) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	if r.SessionID == "" {
		return
	}
	if r.Agent == "gemini-cli" {
		d.gemini(line, r)
		return
	}
	entry, mode, prompt := IsHeadlessEntry(r), isBypassMode(r), r.TurnType == string(timeline.User)
	if !entry && !mode && !prompt {
		return
	}
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	h := d.sess[k]
	if h == nil {
		h = &headless{}
		k = k.clone()
		d.sess[k] = h
		d.order = append(d.order, k)
	}
	switch {
	case entry && h.entry == nil:
		h.entry = keep(line, r)
	case mode && h.mode == nil:
		h.mode = keep(line, r)
	case prompt && h.prompt == nil:
		// Every session's first prompt is held to the end of the run,
		// most of them for sessions that never prove headless: held as a
		// copy of what is listed (keep), not as the row.
		h.prompt = keep(line, r)
	}
}

// gemini keeps what a Gemini CLI session's rows say of how it started.
// Its chat file records no entry point (ConversationRecord at
// google-gemini/gemini-cli 5411f113: sessionId, projectHash, times,
// messages, kind main|subagent), but the interactive UI writes each typed
// prompt to the project's logs.json (useGeminiStream and useAgentStream
// call Logger.logMessage; nonInteractiveCli never does), and a -p session
// has no tool that asks for confirmation unless its guard rails are off.
func (d *HeadlessBypass) gemini(line int64, r *timeline.Row) {
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	h := d.sess[k]
	if h == nil {
		h = &headless{}
		k = k.clone()
		d.sess[k] = h
		d.order = append(d.order, k)
	}
	switch {
	case r.Parser == "gemini-cli/logs":
		h.logged = true
	case r.Parser != "gemini-cli/chat":
	case r.TurnType == string(timeline.User) && h.prompt == nil:
		h.prompt = keep(line, r)
	case r.TurnType == string(timeline.ToolUse) && geminiNoPromptTools[r.ToolName] && r.ToolUseID != "":
		if h.pending == nil {
			h.pending = map[string]*keptRow{}
		}
		h.pending[strings.Clone(r.ToolUseID)] = keep(line, r)
	case r.TurnType == string(timeline.ToolResult) && r.IsError != "true" && h.ran == nil:
		if c, ok := h.pending[r.ToolUseID]; ok {
			h.ran = c
		}
	}
}

// geminiFinish reports a Gemini CLI session that no prompt-log row names
// (so no one typed in the interactive UI) and that ran a tool a headless
// session has only with its guard rails off: rows, the first prompt and
// that call.
func geminiFinish(k key, h *headless, report func(note string, rows ...Ref)) {
	if h.logged || h.prompt == nil || h.ran == nil {
		return
	}
	note := fmt.Sprintf("no prompt of this session is in logs.json, the prompt log Gemini CLI's interactive UI writes for every typed prompt (its -p/non-interactive entry point writes none): the first prompt (row %d) came from the arguments or stdin of the process that started it; "+
		"%s ran (row %d), a tool a -p session has only with --yolo or an allow rule (--allowed-tools, tools.allowed, a policy): no call was put to anyone. Check that logs.json was collected before reading its absence", h.prompt.line, h.ran.toolName, h.ran.line)
	report(note, h.prompt.ref(k), h.ran.ref(k))
}

func (d *HeadlessBypass) Finish(report func(note string, rows ...Ref)) {
	for _, k := range d.order {
		if k.agent == "gemini-cli" {
			geminiFinish(k, d.sess[k], report)
		}
	}
	sort.SliceStable(d.order, func(i, j int) bool { return d.sess[d.order[i]].entry.lineOf() < d.sess[d.order[j]].entry.lineOf() })
	for _, k := range d.order {
		h := d.sess[k]
		if k.agent == "gemini-cli" || h.entry == nil || h.mode == nil {
			continue
		}
		refs := []Ref{h.entry.ref(k), h.mode.ref(k)}
		note := fmt.Sprintf("entry point %q: started by a process, not an interactive terminal or editor; %q: no tool call was put to anyone", h.entry.text, h.mode.text)
		if h.prompt != nil {
			refs = append(refs, h.prompt.ref(k))
			note += "; the first prompt (row " + fmt.Sprint(h.prompt.line) + ") came from that process's arguments or stdin"
		}
		report(note, refs...)
	}
}
