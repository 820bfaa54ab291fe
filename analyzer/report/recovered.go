package report

import (
	"fmt"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"regexp"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// idRecovered is the "Deleted and recovered" section's id.
const idRecovered = "recovered"

// maxWhere bounds the places (a page of a source) kept per session; the
// rows of the rest are counted.
const maxWhere = 8

// recoveredSeen is what the rows of one deleted or recovered session
// say beyond sessions.jsonl: where its recovered records were found (by
// place: the provenance without its offset, in timeline order, with its
// count of rows) and the first prompt typed.
type recoveredSeen struct {
	where  []string
	rows   []int
	more   int
	prompt string
}

// offsetRe is the offset a provenance ends its place with.
var offsetRe = regexp.MustCompile(` at offset [0-9]+`)

// deleted reports whether sessions.jsonl reads s as a session (partly)
// deleted: recovered yes, partial or trace.
func deleted(s *timeline.Session) bool {
	return s.Recovered == "yes" || s.Recovered == "partial" || s.Recovered == "trace"
}

// noteRecovered keeps what the report's "Deleted and recovered" section
// shows of a row: its provenance when it was recovered from freed space,
// the first typed prompt of a deleted session. Bounded per session.
func (in *input) noteRecovered(r *timeline.Row) {
	k := timeline.SessionKey{Host: r.Host, User: r.User, Agent: r.Agent, SessionID: r.SessionID}
	s, ok := in.sessions[k]
	if !ok || !deleted(&s) {
		return
	}
	if in.recovered == nil {
		in.recovered = map[timeline.SessionKey]*recoveredSeen{}
	}
	g := in.recovered[k]
	if g == nil {
		g = &recoveredSeen{}
		in.recovered[k] = g
	}
	if r.TurnType == string(timeline.User) && g.prompt == "" {
		g.prompt = clip(firstLine(parser.RedactSecrets(r.Text)), 160)
	}
	if r.Provenance == "" {
		return
	}
	place, _, _ := strings.Cut(offsetRe.ReplaceAllString(r.Provenance, ""), ", partial:")
	for i, w := range g.where {
		if w == place {
			g.rows[i]++
			return
		}
	}
	if len(g.where) == maxWhere {
		g.more++
		return
	}
	g.where = append(g.where, place)
	g.rows = append(g.rows, 1)
}

// deletedSessions lists the sessions sessions.jsonl reads as deleted, in
// the session index's order.
func (in *input) deletedSessions() []timeline.Session {
	var out []timeline.Session
	for _, s := range in.sessionList() {
		if deleted(&s) {
			out = append(out, s)
		}
	}
	return out
}

// recoveredSection writes "Deleted and recovered": every session carved
// back from a store's freed space (recovered yes: only recovered rows;
// partial: a live session that lost records) and every session that
// existed but is gone (trace: only a surviving file names it), with
// where its records were found or which files name it. Nothing is
// written when there is none.
func (r *renderer) recoveredSection() {
	list := r.in.deletedSessions()
	if len(list) == 0 {
		return
	}
	r.heading(idRecovered, "Deleted and recovered")
	const intro = "%d session(s) deleted in whole or in part (sessions.jsonl recovered): yes, carved back from a store's freed space or known only from secondary sources; partial, a live session with records so recovered; trace, a session that existed but whose transcript is gone, named only by the files listed. Each row of a recovered record carries its provenance (timeline.jsonl provenance)."
	r.hf("<p class=\"meta\">"+intro+"</p>\n", len(list))
	r.mf(intro+"\n\n", len(list))
	r.hf("<table class=\"idx\"><tr><th>agent</th><th>session</th><th>recovered</th><th>first → last (UTC)</th><th>project</th><th>rows (recovered)</th><th>first prompt</th><th>where found / named by</th></tr>\n")
	r.mf("| agent | session | recovered | first → last (UTC) | project | rows (recovered) | first prompt | where found / named by |\n|---|---|---|---|---|---|---|---|\n")
	for i := range list {
		s := &list[i]
		k := timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.SessionID}
		g := r.in.recovered[k]
		if g == nil {
			g = &recoveredSeen{}
		}
		var where []string
		for i, w := range g.where {
			where = append(where, fmt.Sprintf("%s: %d row(s)", w, g.rows[i]))
		}
		if g.more > 0 {
			where = append(where, fmt.Sprintf("%d row(s) from other places", g.more))
		}
		if len(g.where) == 0 {
			// no row was carved: the files that name the session (or
			// hold what secondary sources kept of it)
			for _, f := range s.SourceFiles {
				where = append(where, "named by "+f)
			}
		}
		span := orDash(s.FirstUTC) + " → " + orDash(s.LastUTC)
		rows := fmt.Sprintf("%d (%d)", s.Events, s.RecoveredRows)
		id := anchor(s.Host, s.User, s.Agent, s.SessionID)
		r.hf("<tr><td>%s</td><td><a href=\"#%s\"><code>%s</code></a><br>%s@%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			esc(s.Agent), id, esc(s.SessionID), esc(orDash(s.User)), esc(orDash(s.Host)), esc(s.Recovered), esc(span), esc(orDash(hostPath(s.ProjectPath))), esc(rows),
			esc(orDash(g.prompt)), strings.ReplaceAll(esc(strings.Join(where, "\n")), "\n", "<br>"))
		r.mf("| %s | [%s](#%s) %s@%s | %s | %s | %s | %s | %s | %s |\n", mdEsc(s.Agent), mdEsc(s.SessionID), id, mdEsc(orDash(s.User)), mdEsc(orDash(s.Host)),
			mdEsc(s.Recovered), mdEsc(span), mdEsc(orDash(hostPath(s.ProjectPath))), mdEsc(rows), mdEsc(orDash(g.prompt)), mdEsc(strings.Join(where, "; ")))
	}
	r.hf("</table>\n")
	r.mf("\n")
}
