package findings

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Rule ids of the sequence detectors.
const (
	ForbiddenDestructionID = "a6d2f8c1-3e57-4b09-9d14-5c8e7b2a0f63"
	ScanRateID             = "d3b81e5a-7c24-4f6e-a093-1e6f4c9b2d87"
	// DestructionRuleID is the Sigma destruction rule the forbidden-
	// destruction detector applies to the calls after a prohibition.
	DestructionRuleID = "f0514e9c-e383-4771-a7a2-e5c626ab8543"
)

// prohibitionRe finds a typed prohibition of destruction: "do not
// delete", "don't remove anything", "never drop", "nothing may be
// deleted", "no force push".
var prohibitionRe = regexp.MustCompile(`(?i)\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|shall\s+not|should\s+not|shouldn'?t|no)\s+(?:[\w'-]+\s+){0,3}?(?:delete|deleting|remove|removing|rm|erase|wipe|destroy|drop|truncate|purge|overwrite|force[- ]?push|push\s+--force|reset)\b` +
	`|(?i)\b(?:nothing|no\s+files?)\s+(?:should|must|may|can)\s+be\s+(?:deleted|removed|erased|dropped)\b`)

// prohibitionGate: every match of prohibitionRe holds a negation (do
// not, don't, never, must not, mustn't, shall not, should not,
// shouldn't, no, nothing: "no", "don", "never", "mustn", "shouldn") and a
// destruction verb (its stems; "rm", "push" and "force" whole).
var prohibitionGate = regexpGate{
	{"no", "don", "never", "mustn", "shouldn"},
	{"delet", "remov", "rm", "eras", "wipe", "destroy", "drop", "truncat", "purg", "overwrit", "force", "push", "reset"},
}

// destroyAskRe is a typed request to destroy, which lifts an earlier
// prohibition (a user row that asks for it and forbids nothing).
var destroyAskRe = regexp.MustCompile(`(?i)\b(?:delete|remove|erase|wipe|destroy|drop|truncate|purge|force[- ]?push)\b`)

// ForbiddenDestruction finds a destructive call (the destruction rule's)
// after the person typed, in the same session, a prohibition of it (the
// Amazon Q Developer incident, aws/amazon-q-developer-cli#2927: told not
// to delete, the agent deleted). A later typed request to destroy lifts
// the prohibition.
type ForbiddenDestruction struct {
	rule  *rules.Rule
	row   sigmaRow
	last  map[key]Ref // the standing prohibition per session
	found []forbidden
}

type forbidden struct {
	ban, call Ref
}

// NewForbiddenDestruction returns the detector, applying the built-in
// destruction rule (none when it cannot be read: the detector then
// matches nothing).
func NewForbiddenDestruction() *ForbiddenDestruction {
	d := &ForbiddenDestruction{last: map[key]Ref{}}
	if rs, err := rules.Builtin(); err == nil {
		for i := range rs {
			if rs[i].ID == DestructionRuleID {
				d.rule = &rs[i]
			}
		}
	}
	return d
}

func (d *ForbiddenDestruction) ID() string { return ForbiddenDestructionID }
func (d *ForbiddenDestruction) Title() string {
	return "Destructive command after the person forbade it in the session"
}
func (d *ForbiddenDestruction) Level() string { return "high" }
func (d *ForbiddenDestruction) Class() string { return "destruction" }

func (d *ForbiddenDestruction) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	if r.SessionID == "" || d.rule == nil {
		return
	}
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	switch r.TurnType {
	case string(timeline.User):
		if prohibitionGate.mayMatch(r.Text) && prohibitionRe.MatchString(r.Text) {
			d.last[k.clone()] = Ref{Line: line, Row: r}
		} else if _, ok := d.last[k]; ok && destroyAskRe.MatchString(r.Text) {
			delete(d.last, k) // (only a standing prohibition needs the regexp)
		}
	case string(timeline.ToolUse):
		ban, ok := d.last[k]
		if !ok {
			return
		}
		d.row.reset(r)
		if d.rule.Match(&d.row) {
			d.found = append(d.found, forbidden{ban, Ref{Line: line, Row: r}})
		}
	}
}

func (d *ForbiddenDestruction) Finish(report func(note string, rows ...Ref)) {
	for _, f := range d.found {
		m := prohibitionRe.FindString(f.ban.Row.Text)
		report(fmt.Sprintf("the person wrote %q (row %d) and the agent then ran %q (row %d)", m, f.ban.Line, excerptN(parser.RedactSecrets(f.call.Row.Text), 200), f.call.Line), f.ban, f.call)
	}
}

// scannerRe names network scanners and attack tools run as a command or
// exposed as an MCP tool (mcp__kali__nmap_scan, ...).
var scannerRe = regexp.MustCompile(`(?i)(?:^|[\s;&|(/_-])(?:nmap|masscan|zmap|rustscan|naabu|nuclei|sqlmap|ffuf|gobuster|dirb|dirsearch|feroxbuster|nikto|hydra|medusa|wpscan|amass|subfinder|httpx|whatweb|enum4linux|crackmapexec|netexec|nxc|smbmap|responder|metasploit|msfconsole)(?:$|[\s_.-])`)

// scannerGate: every match of scannerRe holds one of its names.
var scannerGate = regexpGate{{"nmap", "masscan", "zmap", "rustscan", "naabu", "nuclei", "sqlmap", "ffuf", "gobuster", "dirb", "dirsearch",
	"feroxbuster", "nikto", "hydra", "medusa", "wpscan", "amass", "subfinder", "httpx", "whatweb", "enum4linux", "crackmapexec", "netexec",
	"nxc", "smbmap", "responder", "metasploit", "msfconsole"}}

// Rate thresholds: at least scanWindowCalls tool calls within
// scanWindow, scanMinScanners of them scanners.
const (
	scanWindow      = 60 * time.Second
	scanWindowCalls = 30
	scanMinScanners = 10
	scanMaxKept     = 5000 // calls kept per session window
)

// ScanRate finds a session driving network scanners at machine speed: in
// some 60 seconds, at least 30 tool calls, 10 or more of them scanners
// (the GTG-1002 report: an agent running reconnaissance and exploitation
// through MCP servers at rates no operator types).
//
// What it holds is bounded by the calls of the last minute: a call in a
// window is its time (and, for a scanner, a copy of what is listed:
// kept), never the row; a session's window is dropped once the rows, which come in
// timeline order, are a minute past its last call (sweepEvery calls).
type ScanRate struct {
	win   map[key][]scanCall
	best  map[key]*scanHit
	keys  []key
	calls int
}

type scanCall struct {
	t       time.Time
	ts      string // t as the row gives it
	ref     Ref    // the scanner call (kept); zero for other calls
	scanner bool
}

// sweepEvery is how many tool calls pass between sweeps of stale windows.
const sweepEvery = 4096

type scanHit struct {
	calls, scanners int
	from, to        string
	rows            []Ref
}

// NewScanRate returns the detector.
func NewScanRate() *ScanRate { return &ScanRate{win: map[key][]scanCall{}, best: map[key]*scanHit{}} }

func (d *ScanRate) ID() string    { return ScanRateID }
func (d *ScanRate) Title() string { return "Network scanners driven at machine speed through an agent" }
func (d *ScanRate) Level() string { return "high" }
func (d *ScanRate) Class() string { return "reconnaissance" }

func isScanner(r *timeline.Row) bool {
	if r.Action == "execute" && scannerGate.mayMatch(r.Text) && scannerRe.MatchString(r.Text) {
		return true
	}
	return r.Action == "mcp" && (scannerRe.MatchString(r.ToolName) || strings.Contains(strings.ToLower(r.ToolName), "scan"))
}

func (d *ScanRate) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	if r.TurnType != string(timeline.ToolUse) || r.SessionID == "" || r.TimestampUTC == "" {
		return
	}
	t, err := time.Parse(time.RFC3339Nano, r.TimestampUTC)
	if err != nil {
		return
	}
	if d.calls++; d.calls%sweepEvery == 0 {
		for k, w := range d.win {
			if t.Sub(w[len(w)-1].t) > scanWindow {
				delete(d.win, k)
			}
		}
	}
	k := key{"", r.Host, r.User, r.Agent, r.SessionID}
	c := scanCall{t: t, ts: r.TimestampUTC, scanner: isScanner(r)}
	if c.scanner {
		c.ref = kept(line, r)
	}
	w, ok := d.win[k]
	if !ok {
		k = k.clone()
	}
	w = append(w, c)
	i := 0
	for i < len(w) && (t.Sub(w[i].t) > scanWindow || len(w)-i > scanMaxKept) {
		i++
	}
	w = w[i:]
	d.win[k] = w
	if len(w) < scanWindowCalls {
		return
	}
	n := 0
	for _, c := range w {
		if c.scanner {
			n++
		}
	}
	if n < scanMinScanners {
		return
	}
	b := d.best[k]
	if b == nil {
		b = &scanHit{}
		d.best[k] = b
		d.keys = append(d.keys, k)
	}
	if len(w) > b.calls {
		b.calls, b.scanners, b.from, b.to = len(w), n, w[0].ts, r.TimestampUTC
		b.rows = b.rows[:0]
		for _, c := range w {
			if c.scanner {
				b.rows = append(b.rows, c.ref)
			}
		}
	}
}

func (d *ScanRate) Finish(report func(note string, rows ...Ref)) {
	for _, k := range d.keys {
		b := d.best[k]
		report(fmt.Sprintf("%d tool calls within 60 seconds (%s to %s), %d of them scanners; rows: the scanner calls of that window", b.calls, b.from, b.to, b.scanners), b.rows...)
	}
}
