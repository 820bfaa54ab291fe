package surface

import (
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// NoAgentTurn is an entry's provenance when no agent turn in the timeline
// wrote its file: an installer, a clone, a package, a person.
const NoAgentTurn = "no agent turn wrote this"

// AgentTurn is an entry's provenance when an agent turn wrote its file.
const AgentTurn = "written by an agent turn"

// Writer is one agent turn that wrote a file: a tool call of action
// file_write or file_edit naming it, or a shell command that writes it
// (a redirection, tee, cp, mv, install, ln, sed -i, curl -o, dd of=,
// Set-Content, Out-File, Copy-Item, ...).
type Writer struct {
	Agent        string `json:"agent"`
	SessionID    string `json:"session_id"`
	TimelineLine int64  `json:"timeline_line"`
	RecordID     string `json:"record_id"`
	TimestampUTC string `json:"timestamp_utc"`
	Action       string `json:"action"`
	ToolName     string `json:"tool_name"`
	Text         string `json:"text"` // the call's text, cut to 300 characters
}

// maxHay is the text of one call kept to find the paths it names.
const maxHay = 64 << 10

type pending struct {
	w         Writer
	row       *timeline.Row
	toolUseID string
	failed    bool // its result is an error: nothing was written
	project   string
	hay       string   // file_write/file_edit: text and tool_input
	targets   []string // execute: the paths the command writes
}

type hostUser struct{ host, user string }

// Tracker remembers the agent turns that wrote files, from every row of a
// timeline seen in order, and answers which of them wrote a given file.
// It holds the writing calls only (their text cut to 64 KiB), never the
// timeline.
type Tracker struct {
	writes map[hostUser][]pending
}

// NewTracker returns an empty Tracker.
func NewTracker() *Tracker { return &Tracker{writes: map[hostUser][]pending{}} }

// Observe sees one timeline row (line is its timeline.jsonl line).
func (t *Tracker) Observe(line int64, r *timeline.Row) {
	if r.TurnType == string(timeline.ToolResult) && r.IsError == "true" && r.ToolUseID != "" {
		// A refused or failed call wrote nothing (Claude Code's "requested
		// permissions to edit ... a sensitive file"): its write is struck.
		ws := t.writes[hostUser{r.Host, r.User}]
		for i := len(ws) - 1; i >= 0; i-- {
			if ws[i].w.SessionID == r.SessionID && ws[i].toolUseID == r.ToolUseID {
				ws[i].failed = true
				break
			}
		}
		return
	}
	if r.TurnType != string(timeline.ToolUse) {
		return
	}
	p := pending{project: slash(r.ProjectPath), toolUseID: r.ToolUseID, row: r, w: Writer{Agent: r.Agent, SessionID: r.SessionID, TimelineLine: line, RecordID: r.RecordID,
		TimestampUTC: r.TimestampUTC, Action: r.Action, ToolName: r.ToolName, Text: cut(r.Text, 300)}}
	switch r.Action {
	case "file_write", "file_edit":
		p.hay = slash(cut(r.Text, maxHay) + "\n" + inputPaths(r.ToolInput))
	case "execute":
		p.targets = WriteTargets(cut(r.Text, maxHay))
		if len(p.targets) == 0 {
			return
		}
	default:
		return
	}
	k := hostUser{r.Host, r.User}
	t.writes[k] = append(t.writes[k], p)
}

// WrittenBy returns the turns of host and user that wrote file (its
// original host path), in timeline order. project is the entry's project
// folder ("" for none): a path a call names relative to its own project
// folder is resolved against it.
func (t *Tracker) WrittenBy(host, user, file string) []Writer {
	file = slash(file)
	if file == "" {
		return nil
	}
	var out []Writer
	for _, p := range t.writes[hostUser{host, user}] {
		if !p.failed && p.names(file, user) {
			out = append(out, p.w)
		}
	}
	return out
}

// WriteRows is WrittenBy giving the calls' rows (as Observe saw them)
// and their timeline lines.
func (t *Tracker) WriteRows(host, user, file string) ([]int64, []*timeline.Row) {
	file = slash(file)
	if file == "" {
		return nil, nil
	}
	var lines []int64
	var rows []*timeline.Row
	for _, p := range t.writes[hostUser{host, user}] {
		if !p.failed && p.names(file, user) {
			lines, rows = append(lines, p.w.TimelineLine), append(rows, p.row)
		}
	}
	return lines, rows
}

func (p *pending) names(file, user string) bool {
	if p.hay != "" {
		if containsPath(p.hay, file) {
			return true
		}
		if rel, ok := under(file, p.project); ok && containsPath(p.hay, rel) {
			return true
		}
		return false
	}
	for _, tg := range p.targets {
		if samePath(tg, file, p.project, user) {
			return true
		}
	}
	return false
}

// under gives file relative to dir when it lies inside it.
func under(file, dir string) (string, bool) {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" || !strings.HasPrefix(file, dir+"/") {
		return "", false
	}
	return file[len(dir)+1:], true
}

// containsPath reports whether hay names path as a whole path: not as
// the tail of a longer name (".mcp.json" is not "x.mcp.json" nor
// "a/.mcp.json" unless path is absolute) nor the head of one.
func containsPath(hay, path string) bool {
	abs := strings.HasPrefix(path, "/") || (len(path) > 2 && path[1] == ':')
	for i := 0; ; {
		j := strings.Index(hay[i:], path)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(path)
		okStart := j == 0 || boundary(hay[j-1]) || (!abs && hay[j-1] == '/' && j >= 2 && hay[j-2] == '.' && (j == 2 || boundary(hay[j-3])))
		okEnd := end == len(hay) || boundary(hay[end])
		if okStart && okEnd {
			return true
		}
		i = j + 1
	}
}

// boundary is a character that cannot be part of a path word.
func boundary(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '=', ':', '>', '<', '(', ')', '[', ']', '{', '}', ',', ';', '|', '&':
		return true
	}
	return false
}

// samePath reports whether a path a shell command writes (as written:
// absolute, ~/, $HOME/, or relative to the call's project folder) is file.
func samePath(target, file, project, user string) bool {
	target = strings.TrimPrefix(slash(target), "./")
	switch {
	case target == "":
		return false
	case strings.HasPrefix(target, "/") || (len(target) > 2 && target[1] == ':'):
		return strings.EqualFold(target, file) && (target == file || target[1] == ':')
	case strings.HasPrefix(target, "~/"), strings.HasPrefix(target, "$HOME/"), strings.HasPrefix(target, "${HOME}/"):
		rest := target[strings.Index(target, "/"):]
		home, ok := strings.CutSuffix(file, rest)
		return ok && (home == "/root" || (user != "" && strings.HasSuffix(home, "/"+user)))
	default:
		rel, ok := under(file, project)
		return ok && rel == target
	}
}

// WriteTargets returns the paths a shell command writes: the word after
// > or >>, tee's files, the last word of cp, mv, install, ln, rsync and
// sed -i, curl's -o/--output, wget's -O, dd's of=, and PowerShell's
// Set-Content, Add-Content, Out-File, New-Item, Copy-Item and Move-Item
// -Path/-Destination or last word. Quotes are removed; it does not
// evaluate the shell.
func WriteTargets(cmd string) []string {
	var out []string
	for _, simple := range splitShell(cmd) {
		w := words(simple)
		for i := 0; i < len(w); i++ {
			s := w[i]
			switch {
			case s == ">" || s == ">>" || s == ">|" || s == "1>" || s == "2>" || s == "&>":
				if i+1 < len(w) {
					out = append(out, w[i+1])
				}
			case strings.HasPrefix(s, ">") && !strings.HasPrefix(s, ">&"):
				out = append(out, strings.TrimLeft(s, ">|"))
			case strings.HasPrefix(s, "of="):
				out = append(out, s[3:])
			}
		}
		if len(w) == 0 {
			continue
		}
		name := strings.ToLower(w[0])
		if name == "sudo" || name == "env" || name == "command" {
			w = w[1:]
			if len(w) == 0 {
				continue
			}
			name = strings.ToLower(w[0])
		}
		args := operands(w[1:])
		switch name {
		case "tee":
			out = append(out, args...)
		case "cp", "mv", "install", "ln", "rsync", "scp":
			if len(args) >= 2 {
				out = append(out, args[len(args)-1])
			}
		case "sed", "perl":
			if hasFlagPrefix(w[1:], "-i") && len(args) >= 1 {
				out = append(out, args[len(args)-1])
			}
		case "curl", "wget":
			for i := 1; i+1 < len(w); i++ {
				if w[i] == "-o" || w[i] == "--output" || (name == "wget" && w[i] == "-O") {
					out = append(out, w[i+1])
				}
			}
		case "set-content", "add-content", "out-file", "new-item", "copy-item", "move-item", "ni", "sc", "ac", "cpi", "mi":
			named := false
			for i := 1; i+1 < len(w); i++ {
				if l := strings.ToLower(w[i]); l == "-path" || l == "-filepath" || l == "-destination" || l == "-literalpath" {
					out, named = append(out, w[i+1]), true
				}
			}
			if !named && len(args) >= 1 {
				out = append(out, args[len(args)-1])
			}
		}
	}
	var clean []string
	for _, s := range out {
		if s = strings.Trim(s, "\"'`"); s != "" && s != "/dev/null" && !strings.HasPrefix(s, "&") {
			clean = append(clean, s)
		}
	}
	return clean
}

// splitShell cuts a command at ;, &&, ||, |, newlines (outside quotes).
func splitShell(s string) []string {
	var out []string
	var q byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"':
			q = c
		case c == '\\':
			i++
		case c == ';' || c == '\n' || (c == '|' && !(i > 0 && s[i-1] == '>')) || (c == '&' && i+1 < len(s) && s[i+1] == '&'):
			out = append(out, s[start:i])
			if i+1 < len(s) && (s[i+1] == '&' || s[i+1] == '|') {
				i++
			}
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// words splits a simple command into words, keeping quoted runs whole and
// > and >> as words of their own when written apart.
func words(s string) []string {
	var out []string
	var b strings.Builder
	var q byte
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		case c == '>' && in && b.Len() > 0 && strings.Trim(b.String(), "0123456789&>") != "":
			// an unquoted > ends the word before it: "a>b" is "a" ">b"
			out = append(out, b.String())
			b.Reset()
			b.WriteByte(c)
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// operands are the words that are not flags, nor redirections.
func operands(w []string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		s := w[i]
		if strings.HasPrefix(s, "-") {
			continue
		}
		if strings.HasPrefix(s, ">") || strings.HasPrefix(s, "2>") || strings.HasPrefix(s, "1>") || strings.HasPrefix(s, "&>") {
			if s == ">" || s == ">>" || s == "2>" || s == "1>" || s == "&>" {
				i++
			}
			continue
		}
		if strings.HasPrefix(s, "<") {
			if s == "<" {
				i++
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

func hasFlagPrefix(w []string, p string) bool {
	for _, s := range w {
		if strings.HasPrefix(s, p) || s == "--in-place" || strings.HasPrefix(s, "--in-place=") {
			return true
		}
	}
	return false
}

// pathKeys are the tool_input fields that name the file a write or edit
// call changes, across agents. Content fields are not read: a file
// that only mentions a path does not write it.
var pathKeys = []string{"file_path", "path", "filepath", "filename", "file", "target_file", "absolute_path", "notebook_path", "TargetFile", "targetFile", "filePath"}

// inputPaths gives the path fields of a call's tool_input (a JSON
// object), one a line.
func inputPaths(in string) string {
	if len(in) > maxHay || !strings.HasPrefix(strings.TrimSpace(in), "{") {
		return ""
	}
	var m map[string]any
	if json.Unmarshal([]byte(in), &m) != nil {
		return ""
	}
	var b strings.Builder
	for _, k := range pathKeys {
		if s, ok := m[k].(string); ok {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func slash(s string) string { return strings.ReplaceAll(s, `\`, "/") }

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i]
}
