package findings

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// PromptLockID is the rule id of the PromptLock detector.
const PromptLockID = "8d6f2a1e-4b7c-4e39-a5d0-3c9e1f7b6a42"

// The shapes of a locker script (ESET's PromptLock, August 2025: Lua that
// a local gpt-oss:20b wrote, walking the file system and encrypting what
// it found): it enumerates files and encrypts them or renames them to a
// locked name, or leaves a ransom note.
var (
	lockEnumRe = regexp.MustCompile(`(?i)\blfs\.dir\b|\bos\.walk\b|\bos\.scandir\b|\bos\.listdir\b|\bglob\.glob\b|\.rglob\(|\bfilepath\.walk(dir)?\b|\bwalkdir\b|\breaddirsync\b|\bfs\.readdir\b|\bfs\.promises\.readdir\b|\bget-childitem\b[^\n]*-recurse|\bfind\s+(~|/|\$home|\.)\S*\s+-type\s+f\b|\bio\.popen\(\s*["'](find|ls|dir)\b`)
	lockEncRe  = regexp.MustCompile(`(?i)encrypt|\bcipher|\baes(_|-|\b)|\bchacha20?\b|\bspeck\b|\bfernet\b|\bopenssl\s+enc\b|\bgpg\s+(-c|--symmetric)\b|\.(locked|encrypted|crypted|crypt)\b|\bransom|\bbitcoin\b|\bbtc\b|\bmonero\b`)
)

// PromptLock finds the PromptLock shape: an agent session whose model is
// a gpt-oss model (its own rows name it), or that ran on a host whose
// Ollama holds a gpt-oss manifest (ollama/manifest rows), and that wrote
// or ran a script that enumerates files and encrypts or locks them.
// Neither half alone is reported: gpt-oss is an ordinary local model, and
// file encryption is an ordinary task.
type PromptLock struct {
	model    map[key]Ref    // the first row of a session naming a gpt-oss model
	manifest map[string]Ref // per host, the first gpt-oss manifest row
	scripts  map[key][]Ref  // per session, the locker-shaped calls (at most maxLockerRows)
	order    []key
}

const maxLockerRows = 20

// NewPromptLock returns the detector.
func NewPromptLock() *PromptLock {
	return &PromptLock{model: map[key]Ref{}, manifest: map[string]Ref{}, scripts: map[key][]Ref{}}
}

func (*PromptLock) ID() string { return PromptLockID }
func (*PromptLock) Title() string {
	return "Agent on a gpt-oss model wrote or ran a script that walks files and encrypts them (PromptLock shape)"
}
func (*PromptLock) Level() string { return "high" }
func (*PromptLock) Class() string { return "impact" }

func isGPTOSS(model string) bool { return strings.Contains(strings.ToLower(model), "gpt-oss") }

// lockerShape returns the enumeration and encryption words a call's
// input holds, or "" when it does not hold both.
func lockerShape(s string) (enum, enc string) {
	enum = lockEnumRe.FindString(s)
	if enum == "" {
		return "", ""
	}
	enc = lockEncRe.FindString(s)
	if enc == "" {
		return "", ""
	}
	return enum, enc
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
	if enum, _ := lockerShape(r.ToolInput + "\n" + r.Text); enum == "" {
		return
	}
	s, ok := d.scripts[k]
	if !ok {
		k = k.clone()
		d.order = append(d.order, k)
	}
	if len(s) < maxLockerRows {
		d.scripts[k] = append(s, kept(line, r))
	}
}

func (d *PromptLock) Finish(report func(note string, rows ...Ref)) {
	for _, k := range d.order {
		calls := d.scripts[k]
		model, byRows := d.model[k]
		man, byManifest := d.manifest[k.host]
		if !byRows && !byManifest {
			continue
		}
		first := calls[0].Row
		enum, enc := lockerShape(first.ToolInput + "\n" + first.Text)
		note := fmt.Sprintf("row %d (%s %s) enumerates files (%q) and encrypts or locks them (%q)", calls[0].Line, first.Action, first.ToolName, enum, enc)
		if len(calls) > 1 {
			note += fmt.Sprintf(", and %d more call(s) of that shape", len(calls)-1)
		}
		refs := append([]Ref(nil), calls...)
		if byRows {
			note += fmt.Sprintf("; the session's model is %s (row %d)", model.Row.Model, model.Line)
			refs = append(refs, model)
		}
		if byManifest {
			note += fmt.Sprintf("; this host's Ollama holds %s (row %d: %s)", man.Row.Model, man.Line, man.Row.TimestampUTC)
			refs = append(refs, man)
		}
		note += ": the PromptLock shape (a local gpt-oss model writing a file locker); check whether the script ran and what it touched"
		report(note, refs...)
	}
}
