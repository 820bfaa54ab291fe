package analyze

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// filtered reports whether a filter shaped the rows (the summary then
// names only what it kept, and sessions.jsonl only sessions with rows).
func filtered(o *Options) bool {
	return o.Match != nil || len(o.Agents) > 0 || len(o.Users) > 0 || len(o.Hosts) > 0 || !o.Since.IsZero() || !o.Until.IsZero() ||
		len(o.Sessions) > 0 || len(o.TurnTypes) > 0 || len(o.Hide) > 0 || len(o.Actions) > 0
}

// InputCounts counts the inputs given by what became of them.
func (s *Summary) InputCounts() (read, unusable, duplicate, sidecar int) {
	for _, st := range s.Inputs {
		switch st.Status {
		case InputRead:
			read++
		case InputUnusable:
			unusable++
		case InputDuplicate:
			duplicate++
		case InputSidecar:
			sidecar++
		}
	}
	return
}

// RepeatsMerged counts the rows written once for all their copies: by
// record id, without an id by full value, and secondary rows written as
// the primary row they repeat.
func (s *Summary) RepeatsMerged() int { return s.Duplicates + s.SecondaryPaired }

// SummaryLines are the run's summary, in short plain lines: what became
// of each input (an unusable one named with its reason), the agents (only
// those with rows when a filter shaped them), rows written, repeats
// merged, problems. The counts are those of run.json's summary. Evidence
// text in them (paths, agent names) is the caller's to escape.
func SummaryLines(s *Summary) []string {
	var out []string
	read, unusable, dup, sidecar := s.InputCounts()
	line := fmt.Sprintf("inputs: %d read, %d unusable", read, unusable)
	if dup > 0 {
		line += fmt.Sprintf(", %d given twice (read once)", dup)
	}
	if sidecar > 0 {
		line += fmt.Sprintf(", %d .sha256 sidecar(s) checked with their bundle", sidecar)
	}
	if n := len(s.CutShort) + s.CutShortUnnamed; n > 0 {
		line += fmt.Sprintf(", %d read only in part (cut short)", n)
	}
	if n := s.UnprovenInputs; n > 0 {
		line += fmt.Sprintf(", %d failing a whole-file check (sidecar, appended data)", n)
	}
	out = append(out, line)
	for _, in := range s.CutShort {
		out = append(out, "  read only in part: "+in+": the bundle is cut short or corrupt, read as far as it goes (problems.jsonl: truncated names the member where it stops)")
	}
	if n := s.CutShortUnnamed; n > 0 {
		out = append(out, fmt.Sprintf("  read only in part: %d bundle(s), cut short or corrupt, read as far as each goes (each shard's summary named them; problems.jsonl: truncated names the member where each stops)", n))
	}
	for _, u := range s.Unproven {
		out = append(out, "  "+u)
	}
	if n := s.UnprovenInputs - len(s.Unproven); n > 0 && len(s.Unproven) == 0 {
		out = append(out, fmt.Sprintf("  failing a whole-file check: %d bundle(s) (each shard's summary named them; problems.jsonl: sidecar_mismatch, sidecar, trailing_data)", n))
	}
	for _, st := range s.Inputs {
		switch st.Status {
		case InputUnusable:
			out = append(out, "  unusable: "+st.Input+": "+st.Reason)
		case InputDuplicate:
			out = append(out, "  given twice: "+st.Input+": "+st.Reason)
		}
	}
	if s.Inventory != nil {
		out = append(out, agentLines(s.Inventory, s.Filtered)...)
		for _, src := range s.Inventory.Sources {
			if src.Kind == KindLoose {
				out = append(out, notFollowedLines(src.Input, s.NotFollowed[src.Input])...)
			}
			// A bundle's too: its manifest marks the links the collector
			// followed outside every home (outside_homes).
			out = append(out, followedOutsideLines(src.Input, s.FollowedOutside[src.Input])...)
			switch {
			case src.Kind != KindLoose:
			case len(s.Inventory.Agents) == 0 && len(s.NotFollowed[src.Input]) > 0:
				out = append(out, "  nothing of any agent read under "+src.Input+", but the paths above were not read (the evidence path rule and the loose-tree link policy: analyzer/docs/usage.md, Safety): what lies behind them was never looked at, so this does not say no agent was there; `collector --root` resolves an image's home links inside the image")
			case len(s.Inventory.Agents) == 0:
				out = append(out, "  nothing of any agent under "+src.Input+": a folder is read as an image root (home/NAME, Users/NAME, root), a folder of homes, one home, or an agent folder such as .claude")
			default:
				out = append(out, "  read in place: "+src.Input+": the project folders its sessions name were not looked in (project CLAUDE.md, .mcp.json, .claude/settings.json, rules files): collect the tree with `collector --root` to take them")
			}
		}
	}
	sessions := fmt.Sprintf("%d sessions", s.Sessions)
	out = append(out, fmt.Sprintf("rows written: %d (%d undated), in %s", s.Events, s.Undated, sessions))
	out = append(out, fmt.Sprintf("repeats merged: %d (%d by record id, %d without an id by full value, %d secondary rows as their primary row)",
		s.RepeatsMerged(), s.RepeatedByID, s.RepeatedNoID, s.SecondaryPaired))
	if s.DuplicateIDs > 0 {
		out = append(out, fmt.Sprintf("record ids with two contents: %d, both kept (problems.jsonl)", s.DuplicateIDs))
	}
	if n := s.HiddenTotal(); n > 0 {
		out = append(out, s.hiddenLine(n))
	}
	if s.UndatedDropped > 0 {
		out = append(out, fmt.Sprintf("undated rows left out by --since/--until: %d (--keep-undated keeps them)", s.UndatedDropped))
	}
	out = append(out, fmt.Sprintf("problems: %d (problems.jsonl)", s.Problems))
	return out
}

// agentLines names the agents: those parsed with their rows, then those
// detected but not parsed and those only collected. A filtered run names
// only the agents it kept rows of.
func agentLines(inv *Inventory, filtered bool) []string {
	type agg struct {
		events int
		status string
		noRows string
	}
	m := map[string]*agg{}
	for _, a := range inv.Agents {
		g := m[a.Agent]
		if g == nil {
			g = &agg{status: a.ParseStatus}
			m[a.Agent] = g
		}
		g.events += a.Events
		if a.NoRows != "" && g.noRows == "" {
			g.noRows = a.NoRows
		}
	}
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	var parsed, notParsed, collected []string
	for _, n := range names {
		g := m[n]
		if filtered && g.events == 0 {
			continue
		}
		switch g.status {
		case "parsed":
			line := fmt.Sprintf("%s %d rows", n, g.events)
			if g.events == 0 && g.noRows != "" {
				line += " (" + g.noRows + ")"
			}
			parsed = append(parsed, line)
		case "collected-only":
			collected = append(collected, n)
		default:
			notParsed = append(notParsed, n)
		}
	}
	var out []string
	switch {
	case len(parsed) > 0:
		out = append(out, "agents: "+strings.Join(parsed, ", "))
	case filtered:
		out = append(out, "agents: none with rows the filters kept")
	default:
		out = append(out, "agents: none parsed")
	}
	if len(notParsed) > 0 {
		out = append(out, "agents detected, not parsed: "+strings.Join(notParsed, ", "))
	}
	if len(collected) > 0 {
		out = append(out, "agents collected only: "+strings.Join(collected, ", "))
	}
	return out
}

// unprovenLines are the summary lines of a bundle's whole-file failures
// among its problems: a .sha256 sidecar that names another hash or cannot
// be read, data after the archive's end that was not read. Each names the
// input and says what it means for the rows.
func unprovenLines(input string, ps []Problem) []string {
	return unprovenLinesIn(input, ps, "problems.jsonl: ")
}

// unprovenLinesIn is unprovenLines with the problem kind named after
// where (detect writes no problems.jsonl: where is "problem ").
func unprovenLinesIn(input string, ps []Problem, where string) []string {
	var out []string
	for _, p := range ps {
		switch p.Kind {
		case inputs.KindSidecarMismatch, inputs.KindSidecar:
			out = append(out, "sidecar does not vouch for it: "+input+": "+p.Message+" ("+where+p.Kind+")")
		case bundle.ProblemTrailing:
			out = append(out, "read only in part: "+input+": "+p.Message+" ("+where+p.Kind+")")
		}
	}
	return out
}

// maxNotFollowed caps the links a summary names per input; the rest are
// counted (every one is a row of problems.jsonl).
const maxNotFollowed = 10

// notFollowedLines names the links of a loose input that were not followed
// (its unsafe_path problems), each with its target and the rule that
// refused it.
func notFollowedLines(input string, msgs []string) []string {
	if len(msgs) == 0 {
		return nil
	}
	msgs = slices.Sorted(slices.Values(msgs))
	out := []string{fmt.Sprintf("  not read under %s: %d path(s): links not followed, files not opened, folders not listed (problems.jsonl: unsafe_path, error_read):", input, len(msgs))}
	for i, m := range msgs {
		if i == maxNotFollowed {
			out = append(out, fmt.Sprintf("    ... and %d more (problems.jsonl)", len(msgs)-maxNotFollowed))
			break
		}
		out = append(out, "    "+m)
	}
	return out
}

// followedOutsideLines names the links of an input (a tree read in place,
// or a bundle whose manifest marks them outside_homes) that the link
// policy followed outside every home (its link_outside_homes problems):
// what was read behind them is named as the home's files.
func followedOutsideLines(input string, msgs []string) []string {
	if len(msgs) == 0 {
		return nil
	}
	msgs = slices.Sorted(slices.Values(msgs))
	out := []string{fmt.Sprintf("  followed outside every home under %s: %d link(s), their files read as the home's (problems.jsonl: link_outside_homes):", input, len(msgs))}
	for i, m := range msgs {
		if i == maxNotFollowed {
			out = append(out, fmt.Sprintf("    ... and %d more (problems.jsonl)", len(msgs)-maxNotFollowed))
			break
		}
		out = append(out, "    "+m)
	}
	return out
}

// NoteProblem keeps what the summary names of a problem row: a loose
// input's paths not read (unsafe_path, error_read) and the links a
// loose tree's policy followed outside every home (link_outside_homes).
func (s *Summary) NoteProblem(p Problem, loose bool) {
	if (p.Kind == KindUnsafePath || p.Kind == bundle.StatusErrorRead) && loose {
		if s.NotFollowed == nil {
			s.NotFollowed = map[string][]string{}
		}
		// Each line names its path: a message that does not (a file
		// this account cannot open) is said after it.
		msg := p.Message
		if p.SourceFile != "" && !strings.Contains(msg, p.SourceFile) {
			msg = p.SourceFile + ": " + msg
		}
		s.NotFollowed[p.Input] = append(s.NotFollowed[p.Input], msg)
	}
	if p.Kind == inputs.KindLinkOutsideHomes {
		if s.FollowedOutside == nil {
			s.FollowedOutside = map[string][]string{}
		}
		s.FollowedOutside[p.Input] = append(s.FollowedOutside[p.Input], p.Message)
	}
}

// HiddenTotal is the number of rows the turn-type filters left out.
func (s *Summary) HiddenTotal() int {
	n := 0
	for _, v := range s.Hidden {
		n += v
	}
	return n
}

// hiddenLine names the rows the turn-type filters left out, per turn type
// in a fixed order, and the option that shows each.
func (s *Summary) hiddenLine(total int) string {
	types := make([]string, 0, len(s.Hidden))
	for t := range s.Hidden {
		types = append(types, t)
	}
	sort.Strings(types)
	var parts []string
	for _, t := range types {
		how := "--hide/--turn-type"
		if t == string(timeline.Thinking) && !s.IncludeThinking {
			how = "--include-thinking shows them"
		}
		parts = append(parts, fmt.Sprintf("%s %d (%s)", t, s.Hidden[t], how))
	}
	return fmt.Sprintf("rows hidden by turn type: %d: %s; counted per file in inventory.json (rows_hidden)", total, strings.Join(parts, ", "))
}
