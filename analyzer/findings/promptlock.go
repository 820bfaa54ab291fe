package findings

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// PromptLockID is the rule id of the PromptLock detector.
const PromptLockID = "8d6f2a1e-4b7c-4e39-a5d0-3c9e1f7b6a42"

// The shapes of a locker script (ESET's PromptLock, August 2025: Lua that
// a local gpt-oss:20b wrote, walking the file system and encrypting what
// it found): it enumerates files and encrypts them or renames them to a
// locked name, or leaves a ransom note. A written file may be megabytes:
// the words are found with strings.Index on an ASCII-lowered copy (a
// case-insensitive regexp of these alternatives ran at 1.5 MB/s), and a
// regexp is only run on the few bytes after a hit.
type lockTok struct {
	lit    string
	lb, rb bool // a word boundary before, after
}

var (
	lockEnumToks = []lockTok{{"lfs.dir", true, true}, {"os.walk", true, true}, {"os.scandir", true, true}, {"os.listdir", true, true},
		{"glob.glob", true, true}, {".rglob(", false, false}, {"filepath.walk", true, false}, {"walkdir", true, true},
		{"readdirsync", true, true}, {"fs.readdir", true, false}, {"fs.promises.readdir", true, false}}
	lockEncToks = []lockTok{{"encrypt", false, false}, {"cipher", true, false}, {"aes", true, true}, {"aes_", true, false}, {"aes-", true, false},
		{"chacha", true, false}, {"speck", true, true}, {"fernet", true, true}, {"openssl enc", true, true}, {"gpg -c", true, true},
		{"gpg --symmetric", true, true}, {".locked", false, true}, {".encrypted", false, true}, {".crypted", false, true},
		{".crypt", false, true}, {"ransom", true, false}, {"bitcoin", true, true}, {"btc", true, true}, {"monero", true, true}}
	// After a hit of "find", "get-childitem" or "io.popen(": the rest of
	// the shape, on the lowered text.
	lockFindRe  = regexp.MustCompile(`^find\s+(~|/|\$home|\.)\S*\s+-type\s+f\b`)
	lockGciRe   = regexp.MustCompile(`^get-childitem\b[^\n]*-recurse`)
	lockPopenRe = regexp.MustCompile(`^io\.popen\(\s*["'](find|ls|dir)\b`)
)

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// asciiLower lowers ASCII letters only, so offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// firstTok is the leftmost occurrence of any token in low (bounded as the
// token says): its offset and length, or -1.
func firstTok(low string, toks []lockTok) (int, int) {
	best, n := -1, 0
	for _, t := range toks {
		from := 0
		for {
			i := strings.Index(low[from:], t.lit)
			if i < 0 {
				break
			}
			i += from
			if best >= 0 && i >= best {
				break
			}
			end := i + len(t.lit)
			if (!t.lb || i == 0 || !isWordByte(low[i-1])) && (!t.rb || end == len(low) || !isWordByte(low[end])) {
				best, n = i, len(t.lit)
				break
			}
			from = i + 1
		}
	}
	return best, n
}

// firstShape is the leftmost hit of word (bounded before) whose following
// bytes match re: its offset and length, or -1.
func firstShape(low, word string, re *regexp.Regexp) (int, int) {
	from := 0
	for {
		i := strings.Index(low[from:], word)
		if i < 0 {
			return -1, 0
		}
		i += from
		if i == 0 || !isWordByte(low[i-1]) {
			end := min(len(low), i+512)
			if m := re.FindStringIndex(low[i:end]); m != nil {
				return i, m[1]
			}
		}
		from = i + 1
	}
}

// PromptLock finds the PromptLock shape: an agent session whose model is
// a gpt-oss model (its own rows name it), or that ran on a host whose
// Ollama holds a gpt-oss manifest (ollama/manifest rows), and that wrote
// or ran a script that enumerates files and encrypts or locks them, or
// that enumerates files into PromptLock's scan logs (scan.log,
// target_file_list.log), or wrote such a log itself. Neither half alone
// is reported: gpt-oss is an ordinary local model, and file encryption
// is an ordinary task.
type PromptLock struct {
	model    map[key]Ref    // the first row of a session naming a gpt-oss model
	manifest map[string]Ref // per host, the first gpt-oss manifest row
	scripts  map[key][]Ref  // per session, the locker-shaped calls (at most maxLockerRows)
	scans    map[key][]Ref  // per session, the calls writing PromptLock's scan logs (at most maxLockerRows)
	order    []key
}

const maxLockerRows = 20

// lockerScanMax bounds what is searched of one call's input (a locker
// script is a few kilobytes; a megabyte write is searched in its first
// 256 KiB only).
const lockerScanMax = 256 << 10

// NewPromptLock returns the detector.
func NewPromptLock() *PromptLock {
	return &PromptLock{model: map[key]Ref{}, manifest: map[string]Ref{}, scripts: map[key][]Ref{}, scans: map[key][]Ref{}}
}

func (*PromptLock) ID() string { return PromptLockID }
func (*PromptLock) Title() string {
	return "Agent on a gpt-oss model wrote or ran a script that walks files and encrypts them or lists them in scan logs (PromptLock shape)"
}
func (*PromptLock) Level() string { return "high" }
func (*PromptLock) Class() string { return "impact" }

func isGPTOSS(model string) bool { return strings.Contains(strings.ToLower(model), "gpt-oss") }

// lockerShape returns the enumeration and encryption words a call's
// input holds (as written), or "" when it does not hold both.
func lockerShape(s string) (enum, enc string) {
	if len(s) > lockerScanMax {
		s = s[:lockerScanMax]
	}
	low := asciiLower(s)
	enum = enumShape(s, low)
	if enum == "" {
		return "", ""
	}
	at, n := firstTok(low, lockEncToks)
	if at < 0 {
		return "", ""
	}
	return enum, s[at : at+n]
}

// scanLogNames are the files PromptLock's generated scripts write their
// findings to, as the public analyses of ESET's samples name them: the
// file-system inventory (scan.log) and the files picked as holding
// critical information (target_file_list.log).
var scanLogToks = []lockTok{{"target_file_list.log", true, true}, {"scan.log", true, true}}

// scanLogShape returns the enumeration words and the scan log a call's
// input names (as written), or "" when it does not hold both.
func scanLogShape(s string) (enum, log string) {
	if len(s) > lockerScanMax {
		s = s[:lockerScanMax]
	}
	low := asciiLower(s)
	at, n := firstTok(low, scanLogToks)
	if at < 0 {
		return "", ""
	}
	log = s[at : at+n]
	if enum = enumShape(s, low); enum == "" {
		return "", ""
	}
	return enum, log
}

// writtenScanLog returns the scan log a file write or edit writes (its
// path field, or its text when that is the path), or "".
func writtenScanLog(r *timeline.Row) string {
	low := asciiLower(r.ToolInput + "\n" + r.Text)
	if at, _ := firstTok(low, scanLogToks); at < 0 {
		return ""
	}
	paths := []string{strings.TrimSpace(firstLine(r.Text))}
	var in map[string]any
	if json.Unmarshal([]byte(r.ToolInput), &in) == nil {
		for _, f := range []string{"file_path", "path", "filepath", "filename", "target_file", "absolute_path"} {
			if v, ok := in[f].(string); ok {
				paths = append(paths, v)
			}
		}
	}
	for _, p := range paths {
		base := strings.ToLower(p[strings.LastIndexAny(p, `/\`)+1:])
		for _, t := range scanLogToks {
			if base == t.lit {
				return p
			}
		}
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// enumShape returns the first enumeration word or shape of s (low is s
// lowered), or "".
func enumShape(s, low string) string {
	at, n := firstTok(low, lockEnumToks)
	for _, sh := range []struct {
		word string
		re   *regexp.Regexp
	}{{"find", lockFindRe}, {"get-childitem", lockGciRe}, {"io.popen(", lockPopenRe}} {
		if i, m := firstShape(low, sh.word, sh.re); i >= 0 && (at < 0 || i < at) {
			at, n = i, m
		}
	}
	if at < 0 {
		return ""
	}
	return s[at : at+n]
}

// keptModel is kept with the row's model (the note names it).
func keptModel(line int64, r *timeline.Row) Ref {
	x := kept(line, r)
	x.Row.Model = strings.Clone(r.Model)
	return x
}

func (d *PromptLock) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	if r.Parser == "ollama/manifest" && isGPTOSS(r.Model) {
		if _, ok := d.manifest[r.Host]; !ok {
			d.manifest[strings.Clone(r.Host)] = keptModel(line, r)
		}
		return
	}
	if r.SessionID == "" {
		return
	}
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	if isGPTOSS(r.Model) {
		if _, ok := d.model[k]; !ok {
			d.model[k.clone()] = keptModel(line, r)
		}
	}
	if r.TurnType != string(timeline.ToolUse) {
		return
	}
	switch timeline.Action(r.Action) {
	case timeline.ActFileWrite, timeline.ActFileEdit, timeline.ActExecute:
	default:
		return
	}
	in := r.ToolInput + "\n" + r.Text
	m := d.scripts
	if enum, _ := lockerShape(in); enum == "" {
		m = d.scans
		if enum, _ := scanLogShape(in); enum == "" && (r.Action == string(timeline.ActExecute) || writtenScanLog(r) == "") {
			return
		}
	}
	_, ok1 := d.scripts[k]
	_, ok2 := d.scans[k]
	if !ok1 && !ok2 {
		k = k.clone()
		d.order = append(d.order, k)
	}
	if s := m[k]; len(s) < maxLockerRows {
		m[k] = append(s, kept(line, r))
	}
}

// scanNote says what a scan-log call does.
func scanNote(x Ref) string {
	r := x.Row
	if enum, log := scanLogShape(r.ToolInput + "\n" + r.Text); enum != "" {
		return fmt.Sprintf("row %d (%s %s) enumerates files (%q) and writes what it finds to %q", x.Line, r.Action, r.ToolName, enum, log)
	}
	return fmt.Sprintf("row %d (%s %s) writes %s", x.Line, r.Action, r.ToolName, writtenScanLog(r))
}

func (d *PromptLock) Finish(report func(note string, rows ...Ref)) {
	for _, k := range d.order {
		calls, scans := d.scripts[k], d.scans[k]
		model, byRows := d.model[k]
		man, byManifest := d.manifest[k.host]
		if !byRows && !byManifest {
			continue
		}
		var note string
		if len(calls) > 0 {
			first := calls[0].Row
			enum, enc := lockerShape(first.ToolInput + "\n" + first.Text)
			note = fmt.Sprintf("row %d (%s %s) enumerates files (%q) and encrypts or locks them (%q)", calls[0].Line, first.Action, first.ToolName, enum, enc)
			if len(calls) > 1 {
				note += fmt.Sprintf(", and %d more call(s) of that shape", len(calls)-1)
			}
		}
		if len(scans) > 0 {
			if note != "" {
				note += "; "
			}
			note += scanNote(scans[0])
			if len(scans) > 1 {
				note += fmt.Sprintf(", and %d more scan-log call(s)", len(scans)-1)
			}
			note += " (PromptLock's scan logs are scan.log, the file-system inventory, and target_file_list.log, the files picked for their contents)"
		}
		refs := append(append([]Ref(nil), calls...), scans...)
		sort.SliceStable(refs, func(i, j int) bool { return refs[i].Line < refs[j].Line })
		if byRows {
			note += fmt.Sprintf("; the session's model is %s (row %d)", model.Row.Model, model.Line)
			refs = append(refs, model)
		}
		if byManifest {
			note += fmt.Sprintf("; this host's Ollama holds %s (row %d: %s)", man.Row.Model, man.Line, man.Row.TimestampUTC)
			refs = append(refs, man)
		}
		if len(calls) > 0 {
			note += ": the PromptLock shape (a local gpt-oss model writing a file locker); check whether the script ran and what it touched"
		} else {
			note += ": the PromptLock shape, its scan phase (a local gpt-oss model listing the files a locker would take; no locker call in this session's records); check whether the logs exist, what they list, and what ran next"
		}
		report(note, refs...)
	}
}
