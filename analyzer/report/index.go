package report

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// Section ids, the same in report.html and report.md.
const (
	idOverview     = "overview"
	idSessionIndex = "session-index"
	idFindings     = "findings"
	idFindingIndex = "finding-index"
	idEvidence     = "evidence"
	idProblems     = "problems"
	idHosts        = "hosts"
	idSessions     = "sessions"
	idSources      = "sources"
)

// findingID is the id of the n-th finding (0-based) in both reports.
func findingID(n int) string { return fmt.Sprintf("f-%d", n+1) }

// sessionList is every session of sessions.jsonl in index order: host,
// user, agent, then by first time with each subagent after its parent.
func (in *input) sessionList() []timeline.Session {
	out := make([]timeline.Session, 0, len(in.sessions))
	for _, s := range in.sessions {
		out = append(out, s)
	}
	root := func(s *timeline.Session) (int, bool) {
		if s.ParentSessionID != "" && s.ParentSessionID != s.SessionID {
			return in.rank(timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.ParentSessionID}), true
		}
		return in.rank(timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.SessionID}), false
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		if a.Host != b.Host {
			return a.Host < b.Host
		}
		if a.User != b.User {
			return a.User < b.User
		}
		if a.Agent != b.Agent {
			return a.Agent < b.Agent
		}
		ra, ca := root(a)
		rb, cb := root(b)
		if ra != rb {
			return ra < rb
		}
		if ca != cb {
			return !ca
		}
		if a.FirstUTC != b.FirstUTC {
			return a.FirstUTC < b.FirstUTC
		}
		return a.SessionID < b.SessionID
	})
	return out
}

// findingsBySession counts findings per session.
func (in *input) findingsBySession() map[timeline.SessionKey]int {
	m := map[timeline.SessionKey]int{}
	for _, f := range in.findings {
		m[timeline.SessionKey{Host: f.Host, User: f.User, Agent: f.Agent, SessionID: f.SessionID}]++
	}
	return m
}

// contents is the list of sections at the top of both reports.
func (r *renderer) contents() {
	items := [][2]string{{idOverview, "Case overview"}, {idSessionIndex, "Session index"}}
	if len(r.in.deletedSessions()) > 0 {
		items = append(items, [2]string{idRecovered, "Deleted and recovered"})
	}
	if len(r.in.findings) > 0 {
		items = append(items, [2]string{idFindingIndex, "Findings by class and level"}, [2]string{idFindings, "Findings"})
	}
	if len(r.in.secrets()) > 0 {
		items = append(items, [2]string{idSecrets, "Secrets seen"})
	}
	if len(r.in.surface) > 0 {
		items = append(items, [2]string{idSurface, "Control surface changes"})
	}
	items = append(items, [2]string{idEvidence, "Evidence and integrity"}, [2]string{idProblems, "Problems"}, [2]string{idHosts, "Hosts, users, agents"}, [2]string{idSessions, "Sessions"},
		[2]string{idSources, "Source files"})
	r.hf("<nav><b>Contents</b>:")
	r.mf("Contents:")
	for i, it := range items {
		sep := ","
		if i == 0 {
			sep = ""
		}
		r.hf("%s <a href=\"#%s\">%s</a>", sep, it[0], esc(it[1]))
		r.mf("%s [%s](#%s)", sep, it[1], it[0])
	}
	r.hf("</nav>\n")
	r.mf("\n\n")
}

// heading writes a section heading with its id in both reports.
func (r *renderer) heading(id, title string) {
	r.hf("<h2 id=\"%s\">%s</h2>\n", id, esc(title))
	r.mf("## %s%s\n\n", mdsafe.Target(id), mdEsc(title))
}

// sessionIndex lists every session: host › user › agent › session, with
// its start, typed prompts, tool calls and findings, each a link.
func (r *renderer) sessionIndex() {
	in := r.in
	list := in.sessionList()
	byS := in.findingsBySession()
	r.heading(idSessionIndex, "Session index")
	r.hf("<p class=\"meta\">%d session(s) from sessions.jsonl, by host, user and agent; each links to its conversation below.</p>\n", len(list))
	r.mf("%d session(s) from sessions.jsonl, by host, user and agent; each links to its conversation below.\n\n", len(list))
	if n := len(r.skipped); n > 0 {
		note := fmt.Sprintf("%d session(s) marked not shown are left out of the conversations below by the size budget (report.html stays near 10 MB): their rows are at the timeline.jsonl lines given, and doubleagent report with --session ID writes one whole.", n)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("%s\n\n", mdEsc(note))
	}
	lane := ""
	open := false
	for i := range list {
		s := &list[i]
		if k := s.Host + "\x00" + s.User; k != lane {
			if open {
				r.hf("</table>\n")
				r.mf("\n")
			}
			lane, open = k, true
			r.hf("<h3>%s › %s</h3>\n<table class=\"idx si\"><tr><th>agent</th><th>session</th><th>start (UTC)</th><th>typed prompts</th><th>tool calls</th><th>findings</th></tr>\n", esc(orDash(s.Host)), esc(orDash(s.User)))
			r.mf("### %s › %s\n\n| agent | session | start (UTC) | typed prompts | tool calls | findings |\n|---|---|---|---|---|---|\n", mdEsc(orDash(s.Host)), mdEsc(orDash(s.User)))
		}
		id := anchor(s.Host, s.User, s.Agent, s.SessionID)
		name := s.SessionID
		if name == "" {
			name = "(rows without a session)"
		}
		sub := ""
		if s.ParentSessionID != "" && s.ParentSessionID != s.SessionID {
			sub = "↳ subagent of " + s.ParentSessionID + ": "
		}
		nf := byS[timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.SessionID}]
		cls := ""
		if nf > 0 {
			cls = ` class="hit"`
		}
		if sk := r.skipped[timeline.SessionKey{Host: s.Host, User: s.User, Agent: s.Agent, SessionID: s.SessionID}]; sk != nil {
			// not written below (the size budget): the row is the
			// session's anchor, and says how to see it
			note := fmt.Sprintf("not shown: %d row(s), timeline.jsonl lines %d-%d", sk.rows, sk.first, sk.last)
			r.hf("<tr id=\"%s\"%s><td>%s</td><td>%s%s<br><span class=\"meta\">%s</span></td><td>%s</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", id, cls, esc(s.Agent), esc(sub), esc(name), esc(note),
				esc(orDash(s.FirstUTC)), s.UserTurns, s.ToolCalls, nf)
			r.mf("| %s%s | %s%s (%s) | %s | %d | %d | %d |\n", mdsafe.Target(id), mdEsc(s.Agent), mdEsc(sub), mdEsc(name), mdEsc(note), mdEsc(orDash(s.FirstUTC)), s.UserTurns, s.ToolCalls, nf)
			continue
		}
		r.hf("<tr%s><td>%s</td><td>%s<a href=\"#%s\">%s</a></td><td>%s</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", cls, esc(s.Agent), esc(sub), id, esc(name),
			esc(orDash(s.FirstUTC)), s.UserTurns, s.ToolCalls, nf)
		r.mf("| %s | %s[%s](#%s) | %s | %d | %d | %d |\n", mdEsc(s.Agent), mdEsc(sub), mdEsc(name), id, mdEsc(orDash(s.FirstUTC)), s.UserTurns, s.ToolCalls, nf)
	}
	if open {
		r.hf("</table>\n")
		r.mf("\n")
	}
}

// findingIndex counts the findings by class and level, each count a list
// of links to the findings.
func (r *renderer) findingIndex() {
	type cl struct{ class, level string }
	m := map[cl][]int{}
	for i, f := range r.in.findings {
		k := cl{f.Class, f.Level}
		m[k] = append(m[k], i)
	}
	keys := make([]cl, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].class != keys[j].class {
			return keys[i].class < keys[j].class
		}
		return levelRank(keys[i].level) < levelRank(keys[j].level)
	})
	r.heading(idFindingIndex, "Findings by class and level")
	r.hf("<table><tr><th>class</th><th>level</th><th>findings</th><th></th></tr>\n")
	r.mf("| class | level | findings | |\n|---|---|---|---|\n")
	for _, k := range keys {
		var hl, ml []string
		for _, i := range m[k] {
			hl = append(hl, fmt.Sprintf("<a href=\"#%s\">%d</a>", findingID(i), i+1))
			ml = append(ml, fmt.Sprintf("[%d](#%s)", i+1, findingID(i)))
		}
		r.hf("<tr><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>\n", esc(k.class), esc(k.level), len(m[k]), strings.Join(hl, " "))
		r.mf("| %s | %s | %d | %s |\n", mdEsc(k.class), mdEsc(k.level), len(m[k]), strings.Join(ml, " "))
	}
	r.hf("</table>\n")
	r.mf("\n")
}

// levelRank orders Sigma levels from the most severe.
func levelRank(l string) int {
	switch l {
	case "critical":
		return 0
	case "high":
		return 1
	case "medium":
		return 2
	case "low":
		return 3
	case "informational":
		return 4
	}
	return 5
}

// ovTitles is how many sessions the overview draws with a title (a
// tooltip) on each bar; past it the bars are plain, to keep report.html
// within its size budget.
const ovTitles = 1000

// Overview drawing sizes (SVG user units, pixels at 100%).
const (
	ovWidth  = 1100 // whole drawing
	ovLabel  = 220  // lane labels on the left
	ovLane   = 26   // lane height
	ovTop    = 22   // room for the time axis above the lanes
	ovBottom = 26   // room for the legend
)

// agentColors are the bar colours, one per agent by a hash of its name
// (stable across cases), all readable on white.
var agentColors = []string{"#1f6feb", "#2da44e", "#bf8700", "#8250df", "#cf222e", "#1b7c83", "#9a6700", "#bc4c00", "#6e7781", "#0550ae", "#116329", "#a40e26"}

func agentColor(agent string) string {
	h := fnv.New32a()
	h.Write([]byte(agent))
	return agentColors[h.Sum32()%uint32(len(agentColors))]
}

func parseUTC(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// overview draws the case as inline SVG: one lane per host and user,
// each session a bar from its first to its last time (linking to the
// session), each finding a red mark at its first time (linking to the
// finding). No script, nothing fetched. report.md gets the same lanes as
// a table.
func (r *renderer) overview() {
	in := r.in
	list := in.sessionList()
	type lane struct {
		host, user  string
		sessions    int
		first, last string
		findings    int
	}
	var lanes []*lane
	laneOf := map[string]int{}
	var lo, hi time.Time
	undated := 0
	for i := range list {
		s := &list[i]
		k := s.Host + "\x00" + s.User
		n, ok := laneOf[k]
		if !ok {
			n = len(lanes)
			laneOf[k] = n
			lanes = append(lanes, &lane{host: s.Host, user: s.User})
		}
		l := lanes[n]
		l.sessions++
		a, okA := parseUTC(s.FirstUTC)
		b, okB := parseUTC(s.LastUTC)
		if !okA || !okB {
			undated++
			continue
		}
		if l.first == "" || s.FirstUTC < l.first {
			l.first = s.FirstUTC
		}
		if s.LastUTC > l.last {
			l.last = s.LastUTC
		}
		if lo.IsZero() || a.Before(lo) {
			lo = a
		}
		if b.After(hi) {
			hi = b
		}
	}
	for _, f := range in.findings {
		if n, ok := laneOf[f.Host+"\x00"+f.User]; ok {
			lanes[n].findings++
		}
	}
	r.heading(idOverview, "Case overview")
	r.mf("One line per host and user (the picture of sessions over time is in report.html).\n\n| host | user | sessions | first (UTC) | last (UTC) | findings |\n|---|---|---|---|---|---|\n")
	for _, l := range lanes {
		r.mf("| %s | %s | %d | %s | %s | %d |\n", mdEsc(orDash(l.host)), mdEsc(orDash(l.user)), l.sessions, mdEsc(orDash(l.first)), mdEsc(orDash(l.last)), l.findings)
	}
	r.mf("\n")
	if len(lanes) == 0 {
		r.hf("<p>No sessions.</p>\n")
		return
	}
	var spans [][2]time.Time
	for i := range list {
		a, okA := parseUTC(list[i].FirstUTC)
		b, okB := parseUTC(list[i].LastUTC)
		if okA && okB {
			spans = append(spans, [2]time.Time{a, b})
		}
	}
	sc := newScale(spans, lo, hi, float64(ovLabel), float64(ovWidth-10))
	x := sc.x
	height := ovTop + ovLane*len(lanes) + ovBottom + 16*legendRows(list)
	r.hf("<p class=\"meta\">Sessions over time (UTC), one lane per host and user; a bar is a session from its first to its last row and links to it; a red mark is a finding, at its first matched row, and links to it.")
	if len(sc.parts) > 1 {
		r.hf(" The time axis is cut where nothing happened for a long time (marked ≈); each part starts at the time above it.")
	}
	if undated > 0 {
		r.hf(" %d session(s) without a recorded time are not drawn.", undated)
	}
	r.hf("</p>\n<svg class=\"ov\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"case overview\">\n", ovWidth, height, ovWidth, height)
	lastLabel := -1e9
	for i, p := range sc.parts {
		if i > 0 {
			bx := p.x0 - ovBreak/2
			r.hf("<text x=\"%.1f\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\" fill=\"#57606a\">≈</text>\n", bx, ovTop+10)
		}
		r.hf("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d0d7de\"/>\n", p.x0, ovTop-4, p.x0, ovTop+ovLane*len(lanes))
		if p.x0-lastLabel >= 125 && p.x0 <= float64(ovWidth)-125 {
			r.hf("<text x=\"%.1f\" y=\"14\" font-size=\"11\" fill=\"#57606a\">%s</text>\n", p.x0, esc(p.from.UTC().Format("2006-01-02 15:04:05")))
			lastLabel = p.x0
		}
	}
	if last := sc.parts[len(sc.parts)-1]; last.x0+last.w-lastLabel >= 250 {
		r.hf("<text x=\"%.1f\" y=\"14\" font-size=\"11\" text-anchor=\"end\" fill=\"#57606a\">%s</text>\n", last.x0+last.w, esc(last.to.UTC().Format("2006-01-02 15:04:05")))
	}
	for n, l := range lanes {
		y := ovTop + n*ovLane
		fill := "#ffffff"
		if n%2 == 1 {
			fill = "#f6f8fa"
		}
		r.hf("<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/><text x=\"4\" y=\"%d\" font-size=\"12\" fill=\"#1b1b1b\">%s</text>\n",
			y, ovWidth, ovLane, fill, y+ovLane/2+4, esc(clip(orDash(l.user)+"@"+orDash(l.host), 30)))
	}
	agents := map[string]bool{}
	// a large case: each run of bars of one colour is one group holding
	// the fill, the bars without titles
	large, group := len(list) > ovTitles, ""
	for i := range list {
		s := &list[i]
		a, okA := parseUTC(s.FirstUTC)
		b, okB := parseUTC(s.LastUTC)
		if !okA || !okB {
			continue
		}
		agents[s.Agent] = true
		y := ovTop + laneOf[s.Host+"\x00"+s.User]*ovLane + 5
		x0, x1 := x(a), x(b)
		w := max(x1-x0, 3)
		if large {
			// a large case: the bar links to the session, whose index
			// row says what a title would
			if c := agentColor(s.Agent); c != group {
				if group != "" {
					r.hf("</g>\n")
				}
				group = c
				r.hf("<g fill=\"%s\">\n", c)
			}
			r.hf("<a href=\"#%s\"><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/></a>\n",
				anchor(s.Host, s.User, s.Agent, s.SessionID), x0, y, w, ovLane-10)
			continue
		}
		r.hf("<a href=\"#%s\"><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"2\" fill=\"%s\" fill-opacity=\"0.8\"><title>%s</title></rect></a>\n",
			anchor(s.Host, s.User, s.Agent, s.SessionID), x0, y, w, ovLane-10, agentColor(s.Agent),
			esc(fmt.Sprintf("%s session %s, %s → %s, %d typed prompts, %d tool calls", s.Agent, orDash(s.SessionID), s.FirstUTC, s.LastUTC, s.UserTurns, s.ToolCalls)))
	}
	if group != "" {
		r.hf("</g>\n")
	}
	if large {
		r.hf("<g fill=\"#cf222e\" stroke=\"#ffffff\" stroke-width=\"0.8\">\n")
	}
	for i, f := range in.findings {
		t, ok := parseUTC(f.Time)
		n, okL := laneOf[f.Host+"\x00"+f.User]
		if !ok || !okL {
			continue
		}
		xx, y := x(t), ovTop+n*ovLane+ovLane-4
		if large {
			// the mark links to the finding, whose row says what a title
			// would
			r.hf("<a href=\"#%s\"><path d=\"M%.1f %d l5 -9 l5 9 z\"/></a>\n", findingID(i), xx-5, y)
			continue
		}
		r.hf("<a href=\"#%s\"><path d=\"M%.1f %d l5 -9 l5 9 z\" fill=\"#cf222e\" stroke=\"#ffffff\" stroke-width=\"0.8\"><title>%s</title></path></a>\n",
			findingID(i), xx-5, y, esc(fmt.Sprintf("finding %d: %s %s: %s", i+1, f.Level, f.Class, f.Title)))
	}
	if large {
		r.hf("</g>\n")
	}
	// Legend: agents, and the finding mark.
	var names []string
	for a := range agents {
		names = append(names, a)
	}
	sort.Strings(names)
	lx, ly := float64(4), ovTop+ovLane*len(lanes)+16
	for _, a := range names {
		if lx > float64(ovWidth)-150 {
			lx, ly = 4, ly+16
		}
		r.hf("<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#1b1b1b\">%s</text>\n", lx, ly-9, agentColor(a), lx+14, ly, esc(clip(a, 24)))
		lx += 14 + 7*float64(utf8.RuneCountInString(clip(a, 24))) + 16
	}
	if len(in.findings) > 0 {
		r.hf("<path d=\"M%.1f %d l5 -9 l5 9 z\" fill=\"#cf222e\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#1b1b1b\">finding</text>\n", lx, ly, lx+14, ly)
	}
	r.hf("</svg>\n")
}

// clip cuts s to n characters with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// ovBreak is the width of a cut in the time axis.
const ovBreak = 18

// part is one stretch of the time axis: from..to drawn from x0, w wide.
type part struct {
	from, to time.Time
	x0, w    float64
}

// scale maps times to x. A case often spans days with sessions in a few
// bursts; drawn to one linear scale the bursts are slivers. So the axis
// is cut where nothing happened for more than an hour and a tenth of the
// case: each burst gets a part at least minPart wide, the rest of the
// width shared by duration.
type scale struct{ parts []part }

func newScale(spans [][2]time.Time, lo, hi time.Time, x0, x1 float64) *scale {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0].Before(spans[j][0]) })
	gap := max(hi.Sub(lo)/10, time.Hour)
	var ps []part
	for _, sp := range spans {
		if n := len(ps); n > 0 && sp[0].Sub(ps[n-1].to) <= gap {
			if sp[1].After(ps[n-1].to) {
				ps[n-1].to = sp[1]
			}
			continue
		}
		ps = append(ps, part{from: sp[0], to: sp[1]})
	}
	if len(ps) == 0 {
		ps = []part{{from: lo, to: hi}}
	}
	const minPart = 60.0
	avail := x1 - x0 - ovBreak*float64(len(ps)-1)
	var total time.Duration
	for _, p := range ps {
		total += p.to.Sub(p.from)
	}
	extra := max(avail-minPart*float64(len(ps)), 0)
	x := x0
	for i := range ps {
		w := minPart + extra/float64(len(ps))
		if total > 0 {
			w = minPart + extra*float64(ps[i].to.Sub(ps[i].from))/float64(total)
		}
		if len(ps) == 1 {
			w = x1 - x0
		}
		ps[i].x0, ps[i].w = x, w
		x += w + ovBreak
	}
	return &scale{parts: ps}
}

// x is t's position: in the part holding it, or at the nearest part's edge.
func (s *scale) x(t time.Time) float64 {
	for i, p := range s.parts {
		if t.Before(p.from) {
			if i == 0 {
				return p.x0
			}
			prev := s.parts[i-1]
			return prev.x0 + prev.w
		}
		if !t.After(p.to) {
			d := p.to.Sub(p.from)
			if d <= 0 {
				return p.x0 + p.w/2
			}
			return p.x0 + p.w*float64(t.Sub(p.from))/float64(d)
		}
	}
	last := s.parts[len(s.parts)-1]
	return last.x0 + last.w
}

// legendRows is how many lines the agent legend takes.
func legendRows(list []timeline.Session) int {
	agents := map[string]bool{}
	for i := range list {
		agents[list[i].Agent] = true
	}
	var names []string
	for a := range agents {
		names = append(names, a)
	}
	sort.Strings(names)
	rows, lx := 0, 4.0
	for _, a := range names {
		if lx > float64(ovWidth)-150 {
			lx, rows = 4, rows+1
		}
		lx += 14 + 7*float64(utf8.RuneCountInString(clip(a, 24))) + 16
	}
	return rows
}
