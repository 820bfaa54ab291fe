package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
	ps "github.com/doubleagent/doubleagent/analyzer/parsers/surface"
	"github.com/doubleagent/doubleagent/analyzer/surface"
)

// Section ids of the secrets and control-surface sections.
const (
	idSecrets        = "secrets"
	idSurface        = "surface-changes"
	idSurfaceChanges = "surface-timeline"
)

// secrets lists the findings of class secret-exposure that carry their
// secret, by their index in the findings.
func (in *input) secrets() []int {
	var out []int
	for i, f := range in.findings {
		if f.Class == "secret-exposure" && f.Secret != nil {
			out = append(out, i)
		}
	}
	return out
}

// link is a link to an id in both reports (HTML, Markdown); the text is
// evidence.
func link(id, text string) (string, string) {
	return fmt.Sprintf("<a href=\"#%s\">%s</a>", id, esc(text)), fmt.Sprintf("[%s](#%s)", mdEsc(text), id)
}

// rowLinks links each timeline line.
func rowLinks(lines []int64) (string, string) {
	var h, m []string
	for _, l := range lines {
		a, b := link(fmt.Sprintf("r%d", l), fmt.Sprintf("row %d", l))
		h, m = append(h, a), append(m, b)
	}
	return strings.Join(h, " "), strings.Join(m, " ")
}

// secretsSection writes "Secrets seen": each secret a secret-exposure
// finding names, by its fingerprint (a keyed hash; the value is in no
// output), with every host, user, agent and session where it appeared,
// each row (linked to the conversation), its first and last time, and the
// tool calls that carried it and where to. Nothing is written when no
// secret was seen.
func (r *renderer) secretsSection() {
	list := r.in.secrets()
	if len(list) == 0 {
		return
	}
	r.heading(idSecrets, "Secrets seen")
	const intro = "%d secret(s) seen in the agents' records (findings.jsonl class secret-exposure). A secret is named by its fingerprint, a keyed hash (HMAC-SHA256) of its value: the value is in no finding and nowhere in this report (timeline.jsonl keeps the conversation rows as recorded: a token a tool printed stays in its row), and the same secret has the same fingerprint on every host and in every run made with the same key. Sent to: each tool call that carried the value, with the destinations its text names; a secret only seen (in a setting, a prompt, a result) was sent nowhere the records show."
	r.hf("<p class=\"meta\">"+intro+"</p>\n", len(list))
	r.mf(intro+"\n\n", len(list))
	r.hf("<table class=\"idx\"><tr><th>finding</th><th>fingerprint</th><th>kind</th><th>level</th><th>hosts</th><th>users</th><th>agents</th><th>sessions</th><th>first → last (UTC)</th><th>rows</th><th>sent to</th></tr>\n")
	r.mf("| finding | fingerprint | kind | level | hosts | users | agents | sessions | first → last (UTC) | rows | sent to |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, i := range list {
		f := &r.in.findings[i]
		s := f.Secret
		var lines []int64
		for _, m := range f.Matched {
			lines = append(lines, m.Line)
		}
		hr, mr := rowLinks(lines)
		more := ""
		if f.Rows > len(f.Matched) {
			more = fmt.Sprintf(" (%d rows in all; %d listed in findings.jsonl)", f.Rows, len(f.Matched))
		}
		sent := strings.Join(s.SentTo, "; ")
		if len(s.SentTo) == 0 {
			sent = "no tool call carried it (only seen)"
		}
		span := orDash(f.Time) + " → " + orDash(f.Last)
		fh, fm := link(findingID(i)+"-rows", fmt.Sprint(i+1))
		r.hf("<tr><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s%s</td><td>%s</td></tr>\n",
			fh, esc(s.Fingerprint), esc(s.Kind), esc(f.Level), esc(orDash(strings.Join(s.Hosts, ", "))), esc(orDash(strings.Join(s.Users, ", "))),
			esc(orDash(strings.Join(s.Agents, ", "))), esc(orDash(strings.Join(s.Sessions, ", "))), esc(span), hr, esc(more), esc(sent))
		r.mf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s |\n", fm, mdEsc(s.Fingerprint), mdEsc(s.Kind), mdEsc(f.Level),
			mdEsc(orDash(strings.Join(s.Hosts, ", "))), mdEsc(orDash(strings.Join(s.Users, ", "))), mdEsc(orDash(strings.Join(s.Agents, ", "))),
			mdEsc(orDash(strings.Join(s.Sessions, ", "))), mdEsc(span), mr, mdEsc(more), mdEsc(sent))
	}
	r.hf("</table>\n")
	r.mf("\n")
}

// surfaceSection writes "Control surface changes": every entry of
// surface.jsonl (hook, MCP server, skill, agent file, env entry...) with
// the first and last time it was seen and who wrote it (each session and
// row, linked, or "no agent turn wrote this"), oldest first; then the
// changes in time order, as surface.md ends. Entries shipped with an
// agent (scope bundled) are counted, and listed in surface.md. Nothing is
// written when there is no surface.jsonl or it is empty.
func (r *renderer) surfaceSection() {
	es := r.in.surface
	if len(es) == 0 {
		return
	}
	var list []*surface.Entry
	bundled := 0
	for i := range es {
		if es[i].Scope == "bundled" {
			bundled++
			continue
		}
		list = append(list, &es[i])
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].FirstSeen, list[j].FirstSeen
		if a == "" || b == "" {
			return a != "" && b == ""
		}
		return a < b
	})
	r.heading(idSurface, "Control surface changes")
	intro := fmt.Sprintf("%d control-surface entries (surface.jsonl: hooks, helper commands, MCP servers, skills, custom agents, commands, plugins, rules files, env entries), oldest first by the first time each was seen; first and last seen are the file times of every copy holding it and the times of the turns that wrote it. Written by names each agent turn that wrote its file (its session and row); %q means none did: an installer, a clone, a package, a person.", len(list), surface.NoAgentTurn)
	if bundled > 0 {
		intro += fmt.Sprintf(" %d entries shipped with an agent (scope bundled) are listed in surface.md only.", bundled)
	}
	r.hf("<p class=\"meta\">%s</p>\n", esc(intro))
	r.mf("%s\n\n", mdEsc(intro))
	r.hf("<table class=\"idx\"><tr><th>first seen (UTC)</th><th>last seen (UTC)</th><th>user@host</th><th>agent</th><th>kind</th><th>scope</th><th>name</th><th>runs or says</th><th>file:line</th><th>written by</th></tr>\n")
	r.mf("| first seen (UTC) | last seen (UTC) | user@host | agent | kind | scope | name | runs or says | file:line | written by |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, e := range list {
		name := e.Name
		if e.Kind == ps.KindHook {
			name = e.Event
			if e.Matcher != "" {
				name += "[" + e.Matcher + "]"
			}
		}
		fh, fm := link(fmt.Sprintf("r%d", e.TimelineLine), fmt.Sprintf("%s:%d", e.File, e.Line))
		wh, wm := r.writers(e.Host, e.User, e.WrittenBy)
		detail := clip(strings.Join(strings.Fields(ps.Detail(&e.Item)), " "), 200)
		r.hf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n",
			esc(orDash(e.FirstSeen)), esc(orDash(e.LastSeen)), esc(e.User+"@"+e.Host), esc(e.Agent), esc(strings.ReplaceAll(e.Kind, "_", " ")), esc(orDash(e.Scope)),
			esc(orDash(clip(name, 80))), esc(orDash(detail)), fh, wh)
		r.mf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEsc(orDash(e.FirstSeen)), mdEsc(orDash(e.LastSeen)), mdEsc(e.User+"@"+e.Host), mdEsc(e.Agent),
			mdEsc(strings.ReplaceAll(e.Kind, "_", " ")), mdEsc(orDash(e.Scope)), mdEsc(orDash(clip(name, 80))), mdEsc(orDash(detail)), fm, wm)
	}
	r.hf("</table>\n")
	r.mf("\n")
	cs := surface.Changes(es)
	const ch = "Changes in time order (undated last): each file time of a file holding an entry, and each agent turn that wrote one."
	r.hf("<h3 id=\"%s\">Changes</h3>\n<p class=\"meta\">%s</p>\n", idSurfaceChanges, esc(ch))
	r.mf("### %sChanges\n\n%s\n\n", mdsafe.Target(idSurfaceChanges), mdEsc(ch))
	r.hf("<table class=\"idx\"><tr><th>time (UTC)</th><th>user@host</th><th>what</th><th>by</th><th>file</th></tr>\n")
	r.mf("| time (UTC) | user@host | what | by | file |\n|---|---|---|---|---|\n")
	for _, c := range cs {
		bh, bm := esc(c.By), mdEsc(c.By)
		if len(c.Writers) > 0 {
			bh, bm = r.writers(c.Host, c.User, c.Writers)
		}
		what := clip(strings.Join(strings.Fields(c.What), " "), 200)
		r.hf("<tr><td>%s</td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n", esc(orDash(c.Time)), esc(c.Who), esc(what), bh, esc(c.File))
		r.mf("| %s | %s | %s | %s | %s |\n", mdEsc(orDash(c.Time)), mdEsc(c.Who), mdEsc(what), bm, mdEsc(c.File))
	}
	r.hf("</table>\n")
	r.mf("\n")
}

// writers is the "written by" cell: each turn as its session and row,
// linked, or surface.NoAgentTurn.
func (r *renderer) writers(host, user string, ws []surface.Writer) (string, string) {
	if len(ws) == 0 {
		return esc(surface.NoAgentTurn), mdEsc(surface.NoAgentTurn)
	}
	var h, m []string
	for _, w := range ws {
		sh, sm := link(anchor(host, user, w.Agent, w.SessionID), w.Agent+" session "+orDash(w.SessionID))
		rh, rm := link(fmt.Sprintf("r%d", w.TimelineLine), fmt.Sprintf("row %d", w.TimelineLine))
		act := " (" + w.Action + ")"
		h, m = append(h, sh+" "+rh+esc(act)), append(m, sm+" "+rm+mdEsc(act))
	}
	return strings.Join(h, "<br>"), strings.Join(m, "; ")
}
