package analyze

import (
	"slices"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// rowFilter is the row filters of a run (--agent, --user, --host,
// --session, --turn-type, --hide, --action, --since, --until,
// --include-thinking, --match), applied as rows are stored and again to
// the secondary rows the correlation pass keeps; what they leave out
// undated is counted per file.
type rowFilter struct {
	opts     *Options
	matchIDs map[string]bool
	// undatedDropped counts, per file, the undated rows --since or
	// --until left out (for the summary line and the inventory).
	undatedDropped map[fileKey]int
	// hidden counts, per file and turn type, the rows the other filters
	// keep that the turn-type filters leave out: thinking rows without
	// --include-thinking, --hide, --turn-type (for the summary line,
	// run.json and the inventory's files).
	hidden   map[hiddenKey]int
	sessions *sessionFilter // --session (sessionprefix.go)
}

// contains reports whether list holds s.
func contains(list []string, s string) bool { return slices.Contains(list, s) }

// keep applies the row filters that do not need the whole timeline.
// Undated rows are kept unless --since or --until is given (and
// --keep-undated is not); those left out are counted per file.
func (c *rowFilter) keep(e *timeline.Event, input string) bool {
	ok, undatedOut := c.verdict(e)
	if undatedOut {
		c.undatedDropped[fileKey{e.Host, e.BundleID, input, e.SourceFile, e.Agent}]++
	}
	if !ok && !undatedOut && c.hiddenByType(e) {
		if c.hidden == nil {
			c.hidden = map[hiddenKey]int{}
		}
		c.hidden[hiddenKey{e.Host, e.BundleID, e.SourceFile, e.Agent, string(e.TurnType)}]++
	}
	return ok
}

// hiddenKey is one file's rows of one turn type.
type hiddenKey struct{ host, bundleID, file, agent, turnType string }

// typeOut reports whether the turn-type filters leave e out: a thinking
// row without --include-thinking, a type --hide names or --turn-type
// does not.
func (c *rowFilter) typeOut(e *timeline.Event) bool {
	o := c.opts
	return (e.TurnType == timeline.Thinking && !o.IncludeThinking) ||
		(len(o.TurnTypes) > 0 && !contains(o.TurnTypes, string(e.TurnType))) || contains(o.Hide, string(e.TurnType))
}

// hiddenByType reports whether e, left out, is left out by the turn-type
// filters alone: every other filter keeps it.
func (c *rowFilter) hiddenByType(e *timeline.Event) bool {
	if !c.typeOut(e) {
		return false
	}
	ok, _ := c.verdictTypes(e, false)
	return ok
}

// verdict is keep without the counting: whether the filters keep e, and
// whether they leave it out for being undated.
func (c *rowFilter) verdict(e *timeline.Event) (keep, undatedOut bool) {
	return c.verdictTypes(e, true)
}

// verdictTypes is verdict, with the turn-type filters applied or not.
func (c *rowFilter) verdictTypes(e *timeline.Event, types bool) (keep, undatedOut bool) {
	o := c.opts
	if types && e.TurnType == timeline.Thinking && !o.IncludeThinking {
		return false, false
	}
	if len(o.Agents) > 0 && !contains(o.Agents, e.Agent) {
		return false, false
	}
	if len(o.Users) > 0 && !contains(o.Users, e.User) {
		return false, false
	}
	if len(o.Hosts) > 0 && !contains(o.Hosts, e.Host) {
		return false, false
	}
	// Before the turn-type filters, so a prefix is checked against every
	// session of the hosts, users and agents kept.
	if c.sessions != nil && !c.sessions.match(e.SessionID) {
		return false, false
	}
	if types && c.typeOut(e) {
		return false, false
	}
	if len(o.Actions) > 0 && !contains(o.Actions, string(e.Action)) {
		return false, false
	}
	if e.Time.IsZero() {
		if (o.Since.IsZero() && o.Until.IsZero()) || o.KeepUndated {
			return true, false
		}
		return false, true
	}
	if !o.Since.IsZero() && e.Time.Before(o.Since) {
		return false, false
	}
	if !o.Until.IsZero() && e.Time.After(o.Until) {
		return false, false
	}
	return true, false
}

func (c *rowFilter) matches(e *timeline.Event) bool {
	m := c.opts.Match
	return m.MatchString(e.Text) || m.MatchString(e.ToolInput) || (e.ToolName != "" && m.MatchString(e.ToolName))
}

// matchKey pairs a call and its result for --match: only within one host,
// user, agent and session.
func matchKey(e *timeline.Event) string {
	return e.Host + "\x00" + e.User + "\x00" + e.Agent + "\x00" + e.SessionID + "\x00" + e.ToolUseID
}
