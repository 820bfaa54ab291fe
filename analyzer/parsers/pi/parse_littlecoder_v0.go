package pi

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The retired v0.0.x Python releases of little-coder (itayinbarr/little-coder
// at tag v0.0.5, 424f7a4b9f9214a36a6bcb69e1f3435ca3e68d03: config.py,
// little_coder.py cmd_save / save_latest / _build_session_data, agent.py,
// local/quality.py, checkpoint/store.py and types.py) kept their own state
// under ~/.little-coder:
//
//	sessions/daily/<YYYY-MM-DD>/session_<HHMMSS>_<sid>.json   saved at /exit
//	sessions/session_<YYYYmmdd_HHMMSS>_<sid>.json (or a name) /save
//	sessions/mr_sessions/session_latest.json                   copy of the last exit save
//	sessions/mr_sessions/*.json                                older releases' saves
//	sessions/history.json                                      {total_turns, sessions: [copies]}
//	input_history.txt                                          readline history
//	checkpoints/<sid>/snapshots.json (+ backups/<hash>@v<N>)   /checkpoint, /rewind
//	config.json                                                settings (API keys too)
//
// A saved session is {session_id (8 hex), saved_at ("YYYY-MM-DD HH:MM:SS",
// host local time), messages, turn_count, total_input_tokens,
// total_output_tokens}; its messages are the agent's neutral format:
// {role: user, content, images?}, {role: assistant, content, tool_calls:
// [{id, name, input}]}, {role: tool, tool_call_id, name, content}, or
// Anthropic-style content block lists.

// lcHarness starts the user-role messages little-coder itself writes: the
// small-model corrections (local/quality.py build_correction_message)
// and the prompts of /brainstorm, its todo list, the worker and the
// promote step (little_coder.py).
var lcHarness = []string{
	"Your previous response was empty. Please respond",
	"Your tool call had an empty name.",
	"You just made the exact same tool call as your previous turn.",
	"The arguments for tool '",
	"Issue detected: ",
	"I have just completed a multi-agent brainstorming session regarding:",
	"Based on the Master Plan you just synthesized, generate a todo list file at ",
	"You are the Worker. Your job is to implement this task:",
	"Read the brainstorm file ",
}

var lcUnknownTool = regexp.MustCompile(`^Tool '[^']*' does not exist\. Available tools are:`)

func lcHarnessText(s string) bool {
	s = strings.TrimSpace(s)
	if lcUnknownTool.MatchString(s) {
		return true
	}
	for _, p := range lcHarness {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// lcDenied is the tool result agent.py writes for a call the permission
// gate or the person refused.
const lcDenied = "Denied: user rejected this operation"

// lcSession is one saved session.
type lcSession struct {
	SessionID         string            `json:"session_id"`
	SavedAt           string            `json:"saved_at"`
	Messages          []json.RawMessage `json:"messages"`
	TurnCount         json.RawMessage   `json:"turn_count"`
	TotalInputTokens  json.RawMessage   `json:"total_input_tokens"`
	TotalOutputTokens json.RawMessage   `json:"total_output_tokens"`
}

type lcMessage struct {
	Role       string            `json:"role"`
	Content    json.RawMessage   `json:"content"`
	ToolCalls  []lcToolCall      `json:"tool_calls"`
	ToolCallID string            `json:"tool_call_id"`
	Name       string            `json:"name"`
	Images     []json.RawMessage `json:"images"`
}

type lcToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type lcBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   *bool           `json:"is_error"`
}

// isLCCopy says whether a sessions/ file is a copy of sessions saved
// elsewhere: history.json (every exit save) and
// mr_sessions/session_latest.json (the last one).
func isLCCopy(p string) bool {
	b := path.Base(p)
	return (b == "history.json" && path.Base(path.Dir(p)) == "sessions") ||
		(b == "session_latest.json" && path.Base(path.Dir(p)) == "mr_sessions")
}

// lcSessionParser matches the saved sessions (copy false) or their copies
// (copy true) among .little-coder/sessions/**/*.json.
type lcSessionParser struct {
	parser.Parser
	copy bool
}

func (p *lcSessionParser) Match(f *parser.File) bool {
	return p.Parser.Match(f) && isLCCopy(f.Path) == p.copy && strings.Contains(f.Path, "/.little-coder/sessions/")
}

// Spec returns the wrapped parser's spec (for the generated parser list).
func (p *lcSessionParser) Spec() parser.Spec { return p.Parser.(parser.Specced).Spec() }

// parseLCSessions reads a saved session file, or history.json's list of
// copies. Every row is at the save time (host local time, the only time a
// session records); positions count the session record and then its
// messages, in order, through the file.
func parseLCSessions(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 256<<20)
	if err != nil {
		return err
	}
	secondary := isLCCopy(in.Path)
	var sessions []json.RawMessage
	if path.Base(in.Path) == "history.json" {
		var h struct {
			Sessions []json.RawMessage `json:"sessions"`
		}
		if err := json.Unmarshal(b, &h); err != nil {
			out.Problem(0, "history.json is not {total_turns, sessions}: "+parser.JSONError(err))
			return nil
		}
		sessions = h.Sessions
		if len(sessions) == 0 {
			out.Skip(0, "no_evidence:empty_history")
		}
	} else {
		sessions = []json.RawMessage{b}
	}
	w := &lcWriter{out: out, secondary: secondary}
	for _, raw := range sessions {
		if err := ctx.Err(); err != nil {
			return err
		}
		w.session(in, raw)
	}
	return nil
}

type lcWriter struct {
	out       parser.Sink
	secondary bool
	pos       int64
}

func (w *lcWriter) session(in *parser.Input, raw json.RawMessage) {
	w.pos++
	var s lcSession
	if err := json.Unmarshal(raw, &s); err != nil {
		w.out.Problem(w.pos, "not a saved session object: "+parser.JSONError(err))
		return
	}
	sid := s.SessionID
	if sid == "" && !w.secondary {
		// a /save with no id in it: the name is session_<time>_<sid>.json
		base := strings.TrimSuffix(path.Base(in.Path), ".json")
		if i := strings.LastIndex(base, "_"); i >= 0 {
			sid = base[i+1:]
		}
	}
	t, terr := time.Parse("2006-01-02 15:04:05", strings.TrimSpace(s.SavedAt))
	rid := func(suffix string) string {
		if sid == "" {
			return ""
		}
		return sid + suffix
	}
	ev := func(tt timeline.TurnType, text, id string, n int64) timeline.Event {
		e := timeline.Event{SessionID: sid, TurnType: tt, Text: text, SourceLine: n, Secondary: w.secondary, RecordID: id}
		if terr == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		return e
	}
	if terr != nil && s.SavedAt != "" {
		w.out.Problem(w.pos, "bad saved_at: "+s.SavedAt)
	}
	w.out.Event(ev(timeline.System, fmt.Sprintf("little-coder session %s saved at %s: %s turn(s), %s input / %s output tokens, %d message(s)",
		orDash(sid), orDash(s.SavedAt), orDash(parser.JSONText(s.TurnCount)), orDash(parser.JSONText(s.TotalInputTokens)),
		orDash(parser.JSONText(s.TotalOutputTokens)), len(s.Messages)), rid("#session"), w.pos))
	tools := map[string]string{}
	for i, mraw := range s.Messages {
		w.pos++
		n := w.pos
		base := rid("/" + strconv.Itoa(i))
		sub := func(word string) string {
			if base == "" {
				return ""
			}
			return base + "#" + word
		}
		var m lcMessage
		if err := json.Unmarshal(mraw, &m); err != nil {
			w.out.Problem(n, "message "+strconv.Itoa(i)+" is not an object: "+parser.JSONError(err))
			continue
		}
		rows := 0
		put := func(e timeline.Event) {
			w.out.Event(e)
			rows++
		}
		var str string
		isStr := json.Unmarshal(m.Content, &str) == nil
		var blocks []lcBlock
		if !isStr {
			_ = json.Unmarshal(m.Content, &blocks)
		}
		switch m.Role {
		case "user":
			if isStr {
				if strings.TrimSpace(str) != "" {
					tt := timeline.User
					if lcHarnessText(str) {
						tt = timeline.System
					}
					put(ev(tt, str, base, n))
				}
			}
			for k, b := range blocks {
				id := sub(strconv.Itoa(k))
				switch b.Type {
				case "text":
					if strings.TrimSpace(b.Text) == "" {
						continue
					}
					tt := timeline.User
					if lcHarnessText(b.Text) {
						tt = timeline.System
					}
					put(ev(tt, b.Text, id, n))
				case "tool_result":
					e := ev(timeline.ToolResult, contentText(b.Content), id, n)
					e.ToolUseID, e.ToolName = b.ToolUseID, tools[b.ToolUseID]
					if b.IsError != nil {
						e.IsError = strconv.FormatBool(*b.IsError)
					}
					put(e)
				default:
					put(ev(timeline.User, "["+b.Type+"]", id, n))
				}
			}
			for k := range m.Images {
				put(ev(timeline.User, "[image attached]", sub("image"+strconv.Itoa(k)), n))
			}
		case "assistant":
			if isStr && strings.TrimSpace(str) != "" {
				put(ev(timeline.Assistant, str, base, n))
			}
			for k, b := range blocks {
				id := sub(strconv.Itoa(k))
				switch b.Type {
				case "text":
					if strings.TrimSpace(b.Text) != "" {
						put(ev(timeline.Assistant, b.Text, id, n))
					}
				case "thinking":
					put(ev(timeline.Thinking, b.Thinking, id, n))
				case "tool_use":
					e := ev(timeline.ToolUse, mainArg(b.Input), id, n)
					e.ToolName, e.ToolUseID, e.ToolInput = b.Name, b.ID, parser.CompactJSON(b.Input)
					tools[b.ID] = b.Name
					put(e)
				default:
					put(ev(timeline.Assistant, "["+b.Type+"]", id, n))
				}
			}
			for k, c := range m.ToolCalls {
				e := ev(timeline.ToolUse, mainArg(c.Input), sub("tool"+strconv.Itoa(k)), n)
				e.ToolName, e.ToolUseID, e.ToolInput = c.Name, c.ID, parser.CompactJSON(c.Input)
				tools[c.ID] = c.Name
				put(e)
			}
		case "tool":
			text := str
			if !isStr {
				text = contentText(m.Content)
			}
			name := m.Name
			if name == "" {
				name = tools[m.ToolCallID]
			}
			e := ev(timeline.ToolResult, text, base, n)
			e.ToolName, e.ToolUseID = name, m.ToolCallID
			if strings.HasPrefix(text, lcDenied) {
				e.IsError = "true"
			}
			put(e)
			if strings.HasPrefix(text, lcDenied) {
				d := ev(timeline.System, "permission decision: denied", sub("decision"), n)
				d.ToolName, d.ToolUseID = name, m.ToolCallID
				put(d)
			}
		default:
			text := str
			if !isStr {
				text = contentText(m.Content)
			}
			put(ev(timeline.System, orDash(m.Role)+": "+text, base, n))
		}
		if rows == 0 {
			w.out.Skip(n, "no_evidence:empty_message")
		}
	}
}

// parseLCInputHistory reads input_history.txt, readline's history: one
// prompt a line (libedit writes a _HiStOrY_V2_ first line and \040 for
// spaces; GNU readline with timestamps a "#<epoch seconds>" line before
// an entry). One secondary user row per prompt, no session, timed only by
// such a timestamp line.
func parseLCInputHistory(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var stamp time.Time
	var stampLine int64
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		s := string(line)
		if n == 1 && s == "_HiStOrY_V2_" {
			out.Skip(n, "state_only:history-version-header")
			return nil
		}
		if len(s) > 1 && s[0] == '#' {
			if sec, err := strconv.ParseInt(s[1:], 10, 64); err == nil && sec > 0 {
				if stampLine != 0 {
					out.Skip(stampLine, "state_only")
				}
				stamp, stampLine = time.Unix(sec, 0).UTC(), n
				return nil
			}
		}
		s = strings.ReplaceAll(s, `\040`, " ")
		e := timeline.Event{TurnType: timeline.User, Text: s, SourceLine: n, Secondary: true, TimeBasis: timeline.TimeNone}
		if !stamp.IsZero() {
			e.Time, e.TimeBasis = stamp, timeline.TimeRecorded
			out.Skip(stampLine, "state_only")
			stamp, stampLine = time.Time{}, 0
		}
		out.Event(e)
		return nil
	})
}

// lcSnapshot is one entry of checkpoints/<sid>/snapshots.json.
type lcSnapshot struct {
	ID                json.RawMessage            `json:"id"`
	SessionID         string                     `json:"session_id"`
	CreatedAt         string                     `json:"created_at"`
	TurnCount         json.RawMessage            `json:"turn_count"`
	MessageIndex      json.RawMessage            `json:"message_index"`
	UserPromptPreview string                     `json:"user_prompt_preview"`
	FileBackups       map[string]json.RawMessage `json:"file_backups"`
}

var lcRewindRx = regexp.MustCompile(`^\[rewind to #(\d+)\]$`)

// parseLCSnapshots reads a v0.0.x checkpoints/<sid>/snapshots.json: one
// system row per snapshot, "little-coder checkpoint #<id>: turn <n>
// message <i> prompt=<preview>; files: <path> (backup <name>|did not
// exist), ...", at its created_at (host local time); a snapshot /rewind
// made (preview "[rewind to #N]") reads "little-coder checkpoint #<id>:
// rewound to checkpoint #<N> (conversation cut to message <i> and/or
// files restored)". Session id: the checkpoint's session id (the run's,
// not the id a later save gives the session).
func parseLCSnapshots(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 64<<20)
	if err != nil {
		return err
	}
	var snaps []json.RawMessage
	if err := json.Unmarshal(b, &snaps); err != nil {
		out.Problem(0, parser.NotJSONArray("snapshots.json", err))
		return nil
	}
	dirID := path.Base(path.Dir(in.Path))
	if len(snaps) == 0 {
		out.Skip(0, "no_evidence:no_snapshots")
	}
	for i, raw := range snaps {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := int64(i + 1)
		var s lcSnapshot
		if err := json.Unmarshal(raw, &s); err != nil {
			out.Problem(n, "snapshot is not an object: "+parser.JSONError(err))
			continue
		}
		sid := s.SessionID
		if sid == "" {
			sid = dirID
		}
		id := parser.JSONText(s.ID)
		var files []string
		for _, p := range sortedKeys(s.FileBackups) {
			var fb struct {
				BackupFilename *string `json:"backup_filename"`
			}
			_ = json.Unmarshal(s.FileBackups[p], &fb)
			if fb.BackupFilename == nil || *fb.BackupFilename == "" {
				files = append(files, p+" (did not exist)")
			} else {
				files = append(files, p+" (backup "+*fb.BackupFilename+")")
			}
		}
		text := "little-coder checkpoint #" + orDash(id) + ": turn " + orDash(parser.JSONText(s.TurnCount)) + " message " + orDash(parser.JSONText(s.MessageIndex))
		if m := lcRewindRx.FindStringSubmatch(s.UserPromptPreview); m != nil {
			text = "little-coder checkpoint #" + orDash(id) + ": rewound to checkpoint #" + m[1] + " (conversation cut to message " +
				orDash(parser.JSONText(s.MessageIndex)) + " and/or files restored)"
		} else {
			text += " prompt=" + strconv.Quote(s.UserPromptPreview)
		}
		if len(files) > 0 {
			text += "; files: " + strings.Join(files, ", ")
		}
		e := timeline.Event{SessionID: sid, TurnType: timeline.System, Text: text, SourceLine: n}
		if id != "" {
			e.RecordID = sid + "/checkpoint/" + id
		}
		if t, err := time.Parse("2006-01-02T15:04:05.999999", s.CreatedAt); err == nil {
			e.Time, e.TimeBasis = t, timeline.TimeLocalAsUTC
		} else if t, ok := parser.ParseTime(s.CreatedAt); ok {
			e.Time = t
		} else {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	return nil
}

// parseLCConfig reads three keys of v0.0.x's config.json (a file that
// also holds API keys, never read): the permission mode, the GitHub Gist
// sync (/cloudsave: cloudsave_auto, the last gist id, whether a gist
// token is set) and the Telegram relay (the chat id, whether a bot token
// is set), one row each at the file's modification time.
func parseLCConfig(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, 4<<20)
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		out.Problem(0, parser.NotJSONObject("config.json", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	present := func(k string) string {
		if parser.StringValue(m[k]) != "" {
			return "present"
		}
		return "absent"
	}
	rows := 0
	emit := func(text string) {
		e := parser.SettingEvent(&in.File)
		e.Text = text + " (from " + file + ", file mtime)"
		out.Event(e)
		rows++
	}
	if v, ok := m["permission_mode"]; ok {
		emit("permission setting: permission_mode=" + parser.JSONText(v))
	}
	_, a := m["cloudsave_auto"]
	_, g := m["gist_token"]
	_, l := m["cloudsave_last_gist_id"]
	if a || g || l {
		emit("gist sync setting: cloudsave_auto=" + orDash(parser.JSONText(m["cloudsave_auto"])) + " gist_token=" + present("gist_token") +
			" last_gist_id=" + orDash(parser.JSONText(m["cloudsave_last_gist_id"])))
	}
	_, c := m["telegram_chat_id"]
	_, tk := m["telegram_token"]
	if c || tk {
		emit("telegram relay setting: telegram_chat_id=" + orDash(parser.JSONText(m["telegram_chat_id"])) + " telegram_token=" + present("telegram_token"))
	}
	if rows == 0 {
		out.Skip(0, "setting_not_read")
	}
	return nil
}
