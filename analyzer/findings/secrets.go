package findings

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// SecretExposureID is the rule id of the secret-exposure detector.
const SecretExposureID = "6e0b4c2a-9f31-4d7e-8a56-b3c1d9e7f402"

// DefaultFingerprintKey keys the fingerprints when Options.FingerprintKey
// is empty: fingerprints made with one key compare across runs, hosts and
// fleets; a case's own key keeps them from being compared with anyone
// else's.
const DefaultFingerprintKey = "doubleagent secret fingerprint v1"

// SecretExposure is a secret-exposure finding's secret: never its value.
type SecretExposure struct {
	// Fingerprint is "hmac-sha256:" and the first 32 hex digits of
	// HMAC-SHA256(key, value).
	Fingerprint string   `json:"fingerprint"`
	Kind        string   `json:"kind"` // the shape (parser.FindSecrets): "github token", "named:NPM_TOKEN", ...
	Hosts       []string `json:"hosts"`
	Users       []string `json:"users"`    // user@host
	Agents      []string `json:"agents"`   // agent names
	Sessions    []string `json:"sessions"` // session ids ("" not listed)
	// SentTo is each tool call that carried the value, in timeline order:
	// "TOOL row N", with the destinations its text names
	// ("public api.example.com").
	SentTo []string `json:"sent_to"`
}

// Exposures is a detector that makes whole findings itself (one per
// secret, across hosts and sessions), at the end.
type Exposures interface {
	Findings() []Finding
}

// SecretDetector records every credential-shaped value (parser.FindSecrets)
// in any row's text or tool_input: settings, typed prompts, tool inputs
// and results. It keeps the values' fingerprints and the rows, never the
// values past the row that holds them.
type SecretDetector struct {
	key     []byte
	secrets map[string]*secretSeen
	order   []string
}

type secretSeen struct {
	kind string
	refs []Ref
	n    int
}

// NewSecretDetector returns the detector.
func NewSecretDetector() *SecretDetector { return &SecretDetector{secrets: map[string]*secretSeen{}} }

func (d *SecretDetector) ID() string    { return SecretExposureID }
func (d *SecretDetector) Title() string { return "Secret seen in agent records" }
func (d *SecretDetector) Level() string { return "medium" }
func (d *SecretDetector) Class() string { return "secret-exposure" }

func (d *SecretDetector) Row(line int64, r *timeline.Row, _ func(rows ...Ref)) {
	var seen map[string]bool
	for _, s := range [2]string{r.Text, r.ToolInput} {
		if len(s) < 8 {
			continue
		}
		for _, x := range parser.FindSecrets(s) {
			fp := d.fingerprint(x.Value)
			if seen[fp] {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[fp] = true
			ss := d.secrets[fp]
			if ss == nil {
				ss = &secretSeen{kind: x.Kind}
				d.secrets[fp] = ss
				d.order = append(d.order, fp)
			}
			ss.n++
			if len(ss.refs) < MaxRowsListed {
				ss.refs = append(ss.refs, Ref{Line: line, Row: r})
			}
		}
	}
}

func (d *SecretDetector) fingerprint(v string) string {
	k := d.key
	if len(k) == 0 {
		k = []byte(DefaultFingerprintKey)
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(v))
	return "hmac-sha256:" + hex.EncodeToString(m.Sum(nil))[:32]
}

// Findings gives one finding per secret: high when a tool call carried it
// to a public destination, medium when a tool call carried it, low when
// it was only seen (a setting, a prompt, a result).
func (d *SecretDetector) Findings() []Finding {
	var out []Finding
	for _, fp := range d.order {
		ss := d.secrets[fp]
		se := &SecretExposure{Fingerprint: fp, Kind: ss.kind, SentTo: []string{}}
		hosts, users, agents, sessions := set{}, set{}, set{}, set{}
		level := "low"
		f := Finding{RuleID: SecretExposureID, RuleTitle: "Secret seen in agent records: " + ss.kind, Class: "secret-exposure", Engine: "builtin",
			RuleSource: "builtin:secret-exposure", RowCount: ss.n, RowsCut: ss.n > len(ss.refs)}
		for _, x := range ss.refs {
			r := x.Row
			hosts.add(r.Host)
			users.add(r.User + "@" + r.Host)
			agents.add(r.Agent)
			sessions.add(r.SessionID)
			if r.TurnType == string(timeline.ToolUse) {
				sent := fmt.Sprintf("%s row %d", r.ToolName, x.Line)
				ds := Destinations(r.Text)
				for _, dd := range ds {
					sent += " " + string(dd.Class) + " " + dd.Host
				}
				se.SentTo = append(se.SentTo, sent)
				if level == "low" {
					level = "medium"
				}
				if mostExposed(ds) == "public" {
					level = "high"
				}
			}
			rf := ref(x.Line, r)
			rf.Text = excerpt(parser.RedactSecrets(r.Text))
			f.Rows = append(f.Rows, rf)
			if t := r.TimestampUTC; t != "" {
				if f.FirstUTC == "" || t < f.FirstUTC {
					f.FirstUTC = t
				}
				if t > f.LastUTC {
					f.LastUTC = t
				}
			}
		}
		se.Hosts, se.Users, se.Agents, se.Sessions = hosts.list(), users.list(), agents.list(), sessions.list()
		f.Level, f.Secret = level, se
		f.Host, f.User, f.Agent, f.SessionID = one(se.Hosts), one(users.raw(ss.refs, func(r *timeline.Row) string { return r.User })), one(se.Agents), one(se.Sessions)
		out = append(out, f)
	}
	return out
}

type set map[string]bool

func (s set) add(v string) {
	if v != "" {
		s[v] = true
	}
}

func (s set) list() []string {
	out := make([]string, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func (s set) raw(refs []Ref, f func(*timeline.Row) string) []string {
	m := set{}
	for _, x := range refs {
		m.add(f(x.Row))
	}
	return m.list()
}

// one is the value when there is exactly one, else "" (the finding spans
// several: see its secret's lists).
func one(vs []string) string {
	if len(vs) == 1 {
		return vs[0]
	}
	return ""
}
