package report

import (
	"bufio"
	"fmt"
	"github.com/doubleagent/doubleagent/analyzer/parser"
	"html"
	"sort"
	"strings"
	"unicode/utf8"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/engine/inputs"
	"github.com/doubleagent/doubleagent/analyzer/mdsafe"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// renderer writes the HTML (h) and Markdown (m) reports side by side.
type renderer struct {
	in      *input
	h, m    *bufio.Writer
	sources map[srcKey]int // source file -> anchor number
	srcList []srcKey
	rows    int
	// lastSrc is the source file of the row written before in this run of
	// rows (0 after a session heading or fold): a row from the same file
	// names only its line, the first one the file's path too.
	lastSrc int
	// capRows is how many rows a session shows (rowCap), 0 for all.
	capRows int
	// bodyCount counts the sessions' HTML as it is written, bodyBudget is
	// what they may take of report.html (Options.Bytes less the head),
	// estimate what the sessions written and left out add to the head and
	// the tail (the index's notes, the source files' rows).
	bodyCount  *counter
	bodyBudget int64
	// onlyNamedN counts the sessions written with only their named rows
	// (the sessions heading says what that means, once).
	onlyNamedN int
	estimate   int64
	// skipped are the sessions not written, for the index.
	skipped map[timeline.SessionKey]*skippedSession
	// released are the sessions whose reserve (mustReserve) was given back
	released map[timeline.SessionKey]bool
}

// skippedSession is a session left out by the size budget: its rows and
// their first and last timeline.jsonl lines.
type skippedSession struct {
	rows, first, last int64
}

// srcKey names a source file: its path in the bundle (or loose input)
// of one host.
type srcKey struct{ host, bundle, file string }

// otherRow is a folded system row and its timeline.jsonl line.
type otherRow struct {
	row  timeline.Row
	line int64
}

// sessionGroup is the session being written.
type sessionGroup struct {
	key, root         string
	host, user, agent string
	child             bool
	other             []otherRow // system rows folded at the session's end
	rows              int
	// hidden counts the rows past the report's cap (capRows), from
	// timeline.jsonl line first to last.
	hidden, first, last int64
	session             string
	// skip: the session is not written (the size budget); skipped
	// counts its rows
	skip    bool
	skipped *skippedSession
	// onlyNamed: past the size budget, only the rows a finding or the
	// control surface names are written
	onlyNamed bool
}

const css = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:96em;padding:0 1em;color:#1b1b1b}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{margin-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
.row{border-left:4px solid #ccc;margin:.4em 0;padding:.2em .6em}.meta{color:#666;font-size:.85em}
.user{border-color:#1f6feb;background:#eef5ff}.assistant{border-color:#2da44e}.tool_use{border-color:#bf8700;background:#fff8e6}
.tool_result{border-color:#8c959f;background:#f6f8fa}.thinking{border-color:#a371f7;font-style:italic}.system{border-color:#cf222e;background:#fff5f5}
.sub{margin-left:2em;border-left:2px dashed #a371f7;padding-left:1em}.badge{display:inline-block;border-radius:3px;padding:0 .4em;font-size:.8em;background:#ddd;margin-left:.3em}
.err{background:#ffd7d5}.sec{background:#e8dcff}.bad{background:#ffd7d5}pre{white-space:pre-wrap;word-break:break-word;margin:.2em 0;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
a{color:#0969da}td code{word-break:break-all;font-size:.8em}
nav{margin:1em 0;padding:.5em .8em;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px}
svg.ov{max-width:100%;height:auto;border:1px solid #d0d7de;background:#fff}svg.ov a rect:hover{stroke:#000;stroke-width:1.5}
table.idx{min-width:60%}table.si td:nth-child(2){font:.8em ui-monospace,Menlo,Consolas,monospace;word-break:break-all}table.si .meta{font-family:system-ui,sans-serif}table.idx td:nth-child(3){white-space:nowrap}table.src td:nth-child(2),table.src td:nth-child(4),table.src td:nth-child(5),table.src td:nth-child(6){font:.8em ui-monospace,Menlo,Consolas,monospace;word-break:break-all}tr.hit td{background:#fff5f5}ul.ev{margin:.3em 0 1em}`

// esc writes evidence into report.html: HTML-escaped, C0 controls but
// newline, tab and carriage return (a line ending to a browser) as their
// control pictures, and C1 controls and hidden characters (bidi
// overrides, zero-width and tag characters) as <U+XXXX>
// (timeline.Reveal), as report.md shows them.
func esc(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t' || r == '\r':
			return r
		case r < 0x20:
			return 0x2400 + r
		case r == 0x7f:
			return 0x2421
		}
		return r
	}, timeline.Reveal(s)))
}

// mdEsc writes evidence into an inline place of report.md (mdsafe.Text).
func mdEsc(s string) string { return mdsafe.Text(s) }

func cut(s string) string { return cutAt(s, maxChars, 0) }

// cutAt cuts s after limit characters with a note naming the whole
// text's place: timeline.jsonl, at line when line > 0.
func cutAt(s string, limit int, line int64) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	where := "timeline.jsonl"
	if line > 0 {
		where = fmt.Sprintf("timeline.jsonl line %d", line)
	}
	return string(r[:limit]) + fmt.Sprintf("\n[cut: %d of %d characters shown; the whole text is in %s]", limit, len(r), where)
}

func long(s string) bool {
	return utf8.RuneCountInString(s) > foldChars || strings.Count(s, "\n") > foldLines
}

func (r *renderer) hf(format string, a ...any) { fmt.Fprintf(r.h, format, a...) }
func (r *renderer) mf(format string, a ...any) { fmt.Fprintf(r.m, format, a...) }

func (r *renderer) head() {
	in := r.in
	r.hf("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">")
	r.hf("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">")
	r.hf("<title>DoubleAgent case report</title><style>%s</style></head><body>\n", css)
	r.hf("<h1>DoubleAgent case report</h1>\n")
	r.mf("# DoubleAgent case report\n\n")
	cases, examiners := map[string]bool{}, map[string]bool{}
	for _, s := range in.inv.Sources {
		if s.Case != "" {
			cases[s.Case] = true
		}
		if s.Examiner != "" {
			examiners[s.Examiner] = true
		}
	}
	caseID, examiner := given(in.caseID, "--case", cases), given(in.examiner, "--examiner", examiners)
	r.hf("<table><tr><th>case</th><td>%s</td></tr><tr><th>examiner</th><td>%s</td></tr>", esc(caseID), esc(examiner))
	r.hf("<tr><th>report made by</th><td>%s %s (timeline schema %s) at %s</td></tr>", esc(in.run.Tool), esc(in.run.ToolVersion), esc(in.run.SchemaVersion), esc(in.run.EndedUTC))
	r.hf("<tr><th>command</th><td><code>%s</code></td></tr>", esc(strings.Join(in.run.CommandLine, " ")))
	filters := filterText(in.run.Filters)
	if filters != "" {
		r.hf("<tr><th>filters</th><td>%s</td></tr>", esc(filters))
	}
	r.hf("</table>\n")
	r.mf("| | |\n|---|---|\n| case | %s |\n| examiner | %s |\n| report made by | %s %s (timeline schema %s) at %s |\n| command | %s |\n",
		mdEsc(caseID), mdEsc(examiner), mdEsc(in.run.Tool), mdEsc(in.run.ToolVersion), mdEsc(in.run.SchemaVersion), mdEsc(in.run.EndedUTC),
		mdEsc(strings.Join(in.run.CommandLine, " ")))
	if filters != "" {
		r.mf("| filters | %s |\n", mdEsc(filters))
	}
	r.mf("\n")
	r.nothingUsable()
	r.contents()
	r.overview()
	r.sessionIndex()
	r.recoveredSection()
	if len(in.findings) > 0 {
		r.findingIndex()
		r.findings()
	}
	r.secretsSection()
	r.surfaceSection()
	r.integrity()
	r.problemsSection()
	r.counts()
	r.heading(idSessions, "Sessions")
	if n := len(r.skipped); n > 0 {
		note := fmt.Sprintf("%d session(s) are not shown here, so that report.html stays near 10 MB: the session index lists each with its rows and their timeline.jsonl lines, and doubleagent report with --session ID writes one whole; every session a finding or a control-surface entry names is shown, and every row is in timeline.jsonl.", n)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	}
	if r.onlyNamedN > 0 {
		note := fmt.Sprintf("Past the size budget, %d session(s) a finding or a control-surface entry names show only the rows they name; each says at its end how many more rows it has, at which timeline.jsonl lines, and the command that writes it whole.", r.onlyNamedN)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	}
	if r.capRows > 0 {
		note := fmt.Sprintf("This case has more rows than a readable report holds: each session shows its first %d rows (text cut after %d characters) and every row a finding names; the rest are named at each session's end, and every row is in timeline.jsonl.", r.capRows, budgetChars)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	}
}

// given is the report's own value (from flag) with what the inputs
// recorded beside it, or what they recorded.
// filterText is run.json's filters in one line (`agent=claude-code;
// session=917b3303`), saying the report holds only what they kept; ""
// when the run had none.
func filterText(f map[string]any) string {
	var keys []string
	for k := range f {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		v := f[k]
		if l, ok := v.([]any); ok {
			var vs []string
			for _, x := range l {
				vs = append(vs, fmt.Sprint(x))
			}
			v = strings.Join(vs, ",")
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	return strings.Join(parts, "; ") + " (this report holds only the rows and sessions they kept)"
}

// filterKeeps reports whether run.json's filters keep the agent of host
// and user: the --host, --user and --agent values, and no --session (a
// session filter keeps its conversations, not whole agents).
func filterKeeps(f map[string]any, host, user, agent string) bool {
	in := func(k, v string) bool {
		l, ok := f[k].([]any)
		if !ok {
			return true
		}
		for _, x := range l {
			if x == v {
				return true
			}
		}
		return false
	}
	_, session := f["session"]
	return !session && in("host", host) && in("user", user) && in("agent", agent)
}

func given(own, flag string, recorded map[string]bool) string {
	if own == "" {
		return joinKeys(recorded)
	}
	if len(recorded) == 0 {
		return own + " (given by " + flag + ")"
	}
	return own + " (given by " + flag + "; the inputs recorded " + joinKeys(recorded) + ")"
}

func joinKeys(m map[string]bool) string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	if len(s) == 0 {
		return "(none recorded)"
	}
	return strings.Join(s, ", ")
}

// findings lists each finding with its rule's title and source file, and
// under it the rows it matched, each linked to where the conversation
// shows it.
func (r *renderer) findings() {
	r.heading(idFindings, "Findings")
	r.hf("<p class=\"meta\">%d finding(s) from findings.jsonl: one per rule, host, user, agent and session; the rules are those of analyzer/rules and the built-in detectors (analyzer/docs/rules.md).</p>\n", len(r.in.findings))
	r.hf("<table><tr><th>#</th><th>level</th><th>class</th><th>rule</th><th>host</th><th>user</th><th>agent</th><th>session</th><th>first time</th><th>last time</th><th>rows</th></tr>\n")
	r.mf("%d finding(s) from findings.jsonl: one per rule, host, user, agent and session.\n\n", len(r.in.findings))
	r.mf("| # | level | class | rule | host | user | agent | session | first time | last time | rows |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, f := range r.in.findings {
		session := f.SessionID
		if session == "" {
			session = "(no session: settings, control surface)"
		}
		id := findingID(i)
		r.hf("<tr id=\"%s\"><td><a href=\"#%s-rows\">%d</a></td><td>%s</td><td>%s</td><td><b>%s</b><br><span class=\"meta\">%s</span></td><td>%s</td><td>%s</td><td>%s</td><td><a href=\"#%s\">%s</a></td><td>%s</td><td>%s</td><td>%d</td></tr>\n",
			id, id, i+1, esc(f.Level), esc(f.Class), esc(orDash(f.Title)), esc(orDash(f.Source)), esc(f.Host), esc(f.User), esc(f.Agent),
			anchor(f.Host, f.User, f.Agent, f.SessionID), esc(session), esc(orDash(f.Time)), esc(orDash(f.Last)), f.Rows)
		r.mf("| %s[%d](#%s-rows) | %s | %s | %s (%s) | %s | %s | %s | [%s](#%s) | %s | %s | %d |\n", mdsafe.Target(id), i+1, id, mdEsc(f.Level), mdEsc(f.Class),
			mdEsc(orDash(f.Title)), mdEsc(orDash(f.Source)), mdEsc(f.Host), mdEsc(f.User), mdEsc(f.Agent), mdEsc(session),
			anchor(f.Host, f.User, f.Agent, f.SessionID), mdEsc(orDash(f.Time)), mdEsc(orDash(f.Last)), f.Rows)
	}
	r.hf("</table>\n")
	r.mf("\n")
	for i, f := range r.in.findings {
		id := findingID(i) + "-rows"
		shown := ""
		if len(f.Matched) < f.Rows {
			shown = fmt.Sprintf(" (%d shown; all in findings.jsonl)", len(f.Matched))
		}
		r.hf("<h3 id=\"%s\">Finding %d: %s · %s · %s</h3>\n<p class=\"meta\">rule %s from %s · %s@%s · %s · session %s · %d row(s)%s</p>\n<ul class=\"ev\">\n",
			id, i+1, esc(f.Level), esc(f.Class), esc(orDash(f.Title)), esc(orDash(f.RuleID)), esc(orDash(f.Source)), esc(f.User), esc(f.Host), esc(f.Agent), esc(orDash(f.SessionID)), f.Rows, esc(shown))
		r.mf("### %sFinding %d: %s · %s · %s\n\nrule %s from %s · %s@%s · %s · session %s · %d row(s)%s\n\n", mdsafe.Target(id), i+1, mdEsc(f.Level), mdEsc(f.Class), mdEsc(orDash(f.Title)),
			mdEsc(orDash(f.RuleID)), mdEsc(orDash(f.Source)), mdEsc(f.User), mdEsc(f.Host), mdEsc(f.Agent), mdEsc(orDash(f.SessionID)), f.Rows, mdEsc(shown))
		for _, m := range f.Matched {
			r.hf("<li><a href=\"#r%d\">timeline line %d</a> · %s · %s: <code>%s</code></li>\n", m.Line, m.Line, esc(orDash(m.Time)), esc(m.TurnType), esc(firstLine(m.Text)))
			r.mf("- [timeline line %d](#r%d) · %s · %s: %s\n", m.Line, m.Line, mdEsc(orDash(m.Time)), mdEsc(m.TurnType), mdEsc(firstLine(m.Text)))
		}
		r.hf("</ul>\n")
		r.mf("\n")
	}
}

func (r *renderer) integrity() {
	r.heading(idEvidence, "Evidence and integrity")
	for _, s := range r.in.inv.Sources {
		logs := "-"
		var msgs []string
		if l := s.CollectorLog; l != nil {
			logs = fmt.Sprintf("%d lines, %d warnings, %d errors", l.Lines, l.Warnings, l.Errors)
			msgs = l.Messages
		}
		complete := orDash(s.Complete)
		if s.Incomplete != "" {
			complete += " (" + s.Incomplete + ")"
		}
		fields := [][2]string{{"kind", s.Kind}, {"host", s.Host}, {"bundle id", orDash(s.BundleID)}, {"file SHA-256", orDash(s.SHA256)},
			{"collected", orDash(s.StartedUTC) + " → " + orDash(s.EndedUTC) + " by collector " + orDash(s.CollectorVersion)},
			{"verified", s.Verified}, {"collection complete", complete}, {"files changed during copy", fmt.Sprint(s.ChangedDuringCopy)},
			{"problems", fmt.Sprint(s.Problems)}, {"collector log", logs}}
		// A bundle cut short: where its stream stops (the truncated row
		// of problems.jsonl names the member and its path); one with data
		// after its archive, or whose sidecar does not vouch for it.
		for _, p := range r.in.problems {
			if p.Input != s.Input || p.Parser != "" {
				continue
			}
			switch p.Kind {
			case bundle.ProblemTruncated, bundle.ProblemTrailing:
				fields = append(fields, [2]string{"read only in part", p.Message})
			case inputs.KindSidecarMismatch, inputs.KindSidecar:
				// The file is not provably the one acquired: said beside
				// "verified", which then reads none.
				fields = append(fields, [2]string{"sidecar", p.Message})
			}
		}
		if s.Unusable != "" {
			// Nothing was read from it: the reason is all there is to say.
			fields = [][2]string{{"kind", s.Kind}, {"unusable", s.Unusable}}
		}
		cls := ""
		if s.Verified != "all" && s.Verified != "n/a" {
			cls = ` class="bad"`
		}
		r.hf("<h3>%s</h3><table%s>", esc(s.Input), cls)
		r.mf("### %s\n\n| | |\n|---|---|\n", mdEsc(s.Input))
		for _, f := range fields {
			r.hf("<tr><th>%s</th><td>%s</td></tr>", esc(f[0]), esc(f[1]))
			r.mf("| %s | %s |\n", mdEsc(f[0]), mdEsc(f[1]))
		}
		r.hf("</table>\n")
		if len(msgs) > 0 {
			r.hf("<details><summary>collector log warnings and errors</summary><pre>%s</pre></details>\n", esc(strings.Join(msgs, "\n")))
			r.mf("\nCollector log warnings and errors:\n\n%s", mdsafe.CodeBlock("", strings.Join(msgs, "\n")))
		}
		r.mf("\n")
	}
	if n := len(r.in.problems); n > 0 {
		kinds := map[string]int{}
		for _, p := range r.in.problems {
			kinds[p.Kind]++
		}
		var ks []string
		for k, c := range kinds {
			ks = append(ks, fmt.Sprintf("%s %d", k, c))
		}
		sort.Strings(ks)
		r.hf("<p>%d problems (problems.jsonl; listed under <a href=\"#%s\">Problems</a>): %s.</p>\n", n, idProblems, esc(strings.Join(ks, ", ")))
		r.mf("%d problems (problems.jsonl; listed under [Problems](#%s)): %s.\n\n", n, idProblems, mdEsc(strings.Join(ks, ", ")))
	}
}

// nothingUsable says, at the top, that no input could be read, and why
// for each (run.json's inputs_given): the report of such a run is all
// the examiner gets, so it says so before anything else.
func (r *renderer) nothingUsable() {
	run := r.in.run
	if run.Summary.InputsRead > 0 && run.Summary.Rows == 0 {
		// Read, but no agent record in them: "the agent was never here"
		// must be said as what was looked at, not left to an empty page.
		note := fmt.Sprintf("Nothing found: the %d input(s) read hold no agent record, so this report holds no rows. What each input held is under Evidence and integrity and Hosts, users, agents (inventory.json); the problems, if any, are listed under Problems.", run.Summary.InputsRead)
		if n := run.Summary.CutShort; n > 0 {
			// A bundle cut before its first agent record holds records
			// past the cut that were never read: "hold no agent record"
			// would say the agent was never there.
			note = fmt.Sprintf("Nothing found before the cut: the %d input(s) read gave no agent record, so this report holds no rows, but %d of them were read only in part (cut short or corrupt: named under Evidence and integrity, the truncated problem under Problems), so what lay past the cut was not read and is not here.", run.Summary.InputsRead, n)
		}
		r.hf("<p class=\"bad\"><b>%s</b></p>\n", esc(note))
		r.mf("**%s**\n\n", mdEsc(note))
		return
	}
	if run.Summary.InputsRead > 0 || len(run.InputsGiven) == 0 {
		return
	}
	note := fmt.Sprintf("Nothing usable: none of the %d input(s) given could be read, so this report holds no rows. Why, for each (run.json's inputs_given; the problems are listed under Problems):", len(run.InputsGiven))
	r.hf("<p class=\"bad\"><b>%s</b></p>\n<ul>\n", esc(note))
	r.mf("**%s**\n\n", mdEsc(note))
	for _, g := range run.InputsGiven {
		line := g.Input + ": " + g.Status
		if g.Reason != "" {
			line += ": " + g.Reason
		}
		r.hf("<li><code>%s</code></li>\n", esc(line))
		r.mf("- %s\n", mdEsc(line))
	}
	r.hf("</ul>\n")
	r.mf("\n")
}

// maxProblems is how many problem rows the report lists; the rest are in
// problems.jsonl.
var maxProblems = 500

// problemsSection lists the rows of problems.jsonl (kind, input, the
// file and line, the parser, the message), the first maxProblems, with
// a note saying how many more there are and where.
func (r *renderer) problemsSection() {
	ps := r.in.problems
	r.heading(idProblems, "Problems")
	if len(ps) == 0 {
		r.hf("<p>No problems (problems.jsonl is empty).</p>\n")
		r.mf("No problems (problems.jsonl is empty).\n\n")
		return
	}
	intro := fmt.Sprintf("%d problem(s) from problems.jsonl: every record, file or input that could not be read as it should, and why.", len(ps))
	r.hf("<p class=\"meta\">%s</p>\n<table><tr><th>#</th><th>kind</th><th>input</th><th>file</th><th>line</th><th>parser</th><th>message</th></tr>\n", esc(intro))
	r.mf("%s\n\n| # | kind | input | file | line | parser | message |\n|---|---|---|---|---|---|---|\n", mdEsc(intro))
	for i, p := range ps {
		if i == maxProblems {
			break
		}
		line := "-"
		if p.SourceLine > 0 {
			line = fmt.Sprint(p.SourceLine)
		}
		msg := cutAt(parser.RedactSecrets(p.Message), budgetChars, 0)
		r.hf("<tr><td>%d</td><td>%s</td><td><code>%s</code></td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>\n", i+1, esc(p.Kind), esc(orDash(p.Input)), esc(orDash(p.SourceFile)),
			line, esc(orDash(p.Parser)), esc(msg))
		r.mf("| %d | %s | %s | %s | %s | %s | %s |\n", i+1, mdEsc(p.Kind), mdEsc(orDash(p.Input)), mdEsc(orDash(p.SourceFile)), mdEsc(line), mdEsc(orDash(p.Parser)), mdEsc(msg))
	}
	r.hf("</table>\n")
	r.mf("\n")
	if more := len(ps) - maxProblems; more > 0 {
		note := fmt.Sprintf("%d more problem(s) are not listed here (the report lists the first %d); every problem is in problems.jsonl beside this report.", more, maxProblems)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	}
}

func (r *renderer) counts() {
	type hua struct{ host, user, agent string }
	m := map[hua][3]int{} // sessions, rows, recovered
	for _, s := range r.in.sessions {
		k := hua{s.Host, s.User, s.Agent}
		v := m[k]
		v[0]++
		v[1] += s.Events
		if s.Recovered == "yes" || s.Recovered == "partial" {
			v[2]++
		}
		m[k] = v
	}
	var keys []hua
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.host != b.host {
			return a.host < b.host
		}
		if a.user != b.user {
			return a.user < b.user
		}
		return a.agent < b.agent
	})
	r.heading(idHosts, "Hosts, users, agents")
	r.hf("<table><tr><th>host</th><th>user</th><th>agent</th><th>sessions</th><th>rows</th><th>recovered sessions</th></tr>\n")
	r.mf("| host | user | agent | sessions | rows | recovered sessions |\n|---|---|---|---|---|---|\n")
	for _, k := range keys {
		v := m[k]
		r.hf("<tr><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", esc(k.host), esc(k.user), esc(k.agent), v[0], v[1], v[2])
		r.mf("| %s | %s | %s | %d | %d | %d |\n", mdEsc(k.host), mdEsc(k.user), mdEsc(k.agent), v[0], v[1], v[2])
	}
	r.hf("</table>\n")
	r.mf("\n")
	// Agents whose folders exist but hold nothing kept (inventory.json's
	// user_presence): said, so "installed, nothing kept" is not read as
	// "never there". A filtered run names only the agents its --host,
	// --user and --agent keep, and none under --session.
	var empty []string
	for _, a := range r.in.inv.Agents {
		var users []string
		for u, p := range a.UserPresence {
			if p != analyze.PresenceFilesKept && filterKeeps(r.in.run.Filters, a.Host, u, a.Agent) {
				users = append(users, u)
			}
		}
		sort.Strings(users)
		for _, u := range users {
			empty = append(empty, a.Host+" › "+orDash(u)+" › "+a.Agent+": "+a.UserPresence[u])
		}
	}
	if len(empty) > 0 {
		r.hf("<p>Agents present with nothing kept (their folders exist; see inventory.json):</p>\n<ul>\n")
		r.mf("Agents present with nothing kept (their folders exist; see inventory.json):\n\n")
		for _, e := range empty {
			r.hf("<li>%s</li>\n", esc(e))
			r.mf("- %s\n", mdEsc(e))
		}
		r.hf("</ul>\n")
		r.mf("\n")
	}
}

// anchor is a session's id in both reports.
func anchor(host, user, agent, session string) string {
	return mdsafe.Anchor("s-", host, user, agent, session)
}

func (r *renderer) startSession(k *keyed) *sessionGroup {
	row := &k.Row
	g := &sessionGroup{key: k.Session, root: k.Root, host: row.Host, user: row.User, agent: row.Agent, child: k.Child, session: k.Row.SessionID}
	sk := timeline.SessionKey{Host: row.Host, User: row.User, Agent: row.Agent, SessionID: row.SessionID}
	s, ok := r.in.sessions[sk]
	// Past the size budget a session no finding or surface entry names,
	// and that the index lists, is left out (the index says so).
	if n := r.in.must[sk]; n > 0 && r.bodyCount != nil && !r.released[sk] {
		// its reserve is its own again: it is written now
		r.released[sk] = true
		r.bodyBudget += mustReserve(n)
	}
	// a report of one session (report --session) is never cut
	over := r.bodyCount != nil && len(r.in.sessions) > 1 && r.bodyCount.n+int64(r.h.Buffered())+r.estimate > r.bodyBudget
	if over && r.in.must[sk] > 0 {
		// named by a finding or the control surface: written, but only
		// the rows they name (the note at its end says so)
		g.onlyNamed = true
	}
	if ok && r.in.must[sk] == 0 && over {
		g.skip, g.skipped = true, &skippedSession{}
		if r.skipped[sk] == nil {
			r.skipped[sk] = g.skipped
			r.estimate += 300 + 2*int64(len(sk.SessionID))
		} else {
			g.skipped = r.skipped[sk]
		}
		return g
	}
	title := "session " + row.SessionID
	if row.SessionID == "" {
		title = "rows without a session"
	}
	if k.Child {
		title = "subagent " + row.SessionID + " of " + k.Root
		r.hf("<div class=\"sub\">")
	}
	r.lastSrc = 0
	r.hf("<section id=\"%s\"><h3>%s · %s · %s@%s</h3>\n", anchor(row.Host, row.User, row.Agent, row.SessionID), esc(title), esc(row.Agent), esc(row.User), esc(row.Host))
	depth := "###"
	if k.Child {
		depth = "####"
	}
	r.mf("%s %s%s · %s · %s@%s\n\n", depth, mdsafe.Target(anchor(row.Host, row.User, row.Agent, row.SessionID)), mdEsc(title), mdEsc(row.Agent), mdEsc(row.User), mdEsc(row.Host))
	if ok {
		var flags []string
		for _, f := range [][2]string{{"recovered", s.Recovered}, {"synced", s.Synced}, {"origin", s.Origin}, {"relayed", s.Relayed}, {"forked from", s.ForkedFrom}} {
			if f[1] != "" {
				flags = append(flags, f[0]+": "+f[1])
			}
		}
		meta := fmt.Sprintf("project %s · %s → %s · models %s · %d typed prompts, %d replies, %d tool calls, %d rows",
			orDash(hostPath(s.ProjectPath)), orDash(s.FirstUTC), orDash(s.LastUTC), orDash(strings.Join(s.Models, ", ")), s.UserTurns, s.AssistantTurns, s.ToolCalls, s.Events)
		if len(flags) > 0 {
			meta += " · " + strings.Join(flags, " · ")
		}
		r.hf("<p class=\"meta\">%s</p>\n", esc(meta))
		r.mf("*%s*\n\n", mdEsc(meta))
	}
	return g
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (r *renderer) endSession(g *sessionGroup) {
	if g.skip {
		return
	}
	if len(g.other) > 0 {
		r.hf("<details><summary>%d other system rows (injected context, harness records)</summary>\n", len(g.other))
		r.mf("%d other system rows (injected context, harness records):\n\n", len(g.other))
		r.lastSrc = 0
		for i := range g.other {
			r.plainRow(&g.other[i].row, g.other[i].line, harnessChars)
		}
		r.hf("</details>\n")
	}
	if g.hidden > 0 && g.onlyNamed {
		note := fmt.Sprintf("%d more row(s) not shown (size budget; timeline.jsonl lines %d-%d): report --session %s writes them.",
			g.hidden, g.first, g.last, g.session)
		r.onlyNamedN++
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	} else if g.hidden > 0 {
		note := fmt.Sprintf("%d more row(s) of this session are not shown here (the first at timeline.jsonl line %d, the last at line %d): this report shows each session's first %d rows and every row a finding names, so that a large case stays readable; doubleagent report with --session %s writes this session whole.",
			g.hidden, g.first, g.last, r.capRows, g.session)
		r.hf("<p class=\"meta\">%s</p>\n", esc(note))
		r.mf("*%s*\n\n", mdEsc(note))
	}
	r.lastSrc = 0
	r.hf("</section>")
	if g.child {
		r.hf("</div>")
	}
	r.hf("\n")
}

// notable system rows are shown in the conversation; the rest are folded
// at the session's end.
var notable = []string{"control surface", "permission", "model:", "model setting", "subagent", "session ", "scheduled task", "conversation deleted",
	"rewound", "reverted", "compact", "recovered record", "partially recovered record", "session existed", "mode:", "hook", "plan mode", "approval", "sandbox", "turn trigger", "remote control"}

func isNotable(text string) bool {
	t := strings.ToLower(text)
	for _, p := range notable {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (r *renderer) row(g *sessionGroup, row *timeline.Row, line int64) {
	if g.skip {
		sk := g.skipped
		if sk.rows == 0 {
			sk.first = line
		}
		sk.rows++
		sk.last = line
		return
	}
	r.rows++
	g.rows++
	if (g.onlyNamed || r.capRows > 0 && g.rows > r.capRows) && !r.in.matched[line] && !r.in.linked[line] {
		if g.hidden == 0 {
			g.first = line
		}
		g.hidden++
		g.last = line
		return
	}
	if row.TurnType == string(timeline.System) && !isNotable(row.Text) {
		g.other = append(g.other, otherRow{*row, line})
		return
	}
	limit := maxChars
	if r.capRows > 0 {
		limit = budgetChars
	}
	r.plainRow(row, line, limit)
}

func (r *renderer) src(row *timeline.Row) int {
	k := srcKey{row.Host, row.BundleID, row.SourceFile}
	n, ok := r.sources[k]
	if !ok {
		n = len(r.srcList) + 1
		r.sources[k] = n
		r.srcList = append(r.srcList, k)
		r.estimate += 450 + 2*int64(len(k.file)) + int64(len(k.host)+len(k.bundle))
	}
	return n
}

// plainRow writes one row, its text cut after limit characters (a row a
// finding names is never cut short of maxChars).
func (r *renderer) plainRow(row *timeline.Row, line int64, limit int) {
	when := row.TimestampUTC
	if when == "" {
		when = "no time recorded"
	} else if row.TimeBasis != "" {
		when += " (" + row.TimeBasis + ")"
	}
	label := map[string]string{"user": "typed", "assistant": "reply", "tool_use": "tool call", "tool_result": "tool result", "thinking": "thinking", "system": "system"}[row.TurnType]
	if label == "" {
		label = row.TurnType
	}
	var badges []string
	if row.ToolName != "" {
		badges = append(badges, row.ToolName)
	}
	if row.Action != "" {
		badges = append(badges, row.Action)
	}
	if row.Model != "" && row.TurnType != "user" {
		badges = append(badges, row.Model)
	}
	n := r.src(row)
	id, mdID := "", ""
	if r.in.matched[line] || r.in.linked[line] {
		id = fmt.Sprintf(" id=\"r%d\"", line)
		mdID = mdsafe.Target(fmt.Sprintf("r%d", line))
	}
	if r.in.matched[line] {
		badges = append(badges, "in a finding")
	}
	r.hf("<div class=\"row %s\"%s><div class=\"meta\">%s · <b>%s</b>", esc(row.TurnType), id, esc(when), esc(label))
	for _, b := range badges {
		r.hf("<span class=\"badge\">%s</span>", esc(b))
	}
	if row.IsError == "true" {
		r.hf("<span class=\"badge err\">error</span>")
	}
	if row.Secondary == "true" {
		r.hf("<span class=\"badge sec\">secondary source</span>")
	}
	if row.Recovered != "" {
		r.hf("<span class=\"badge sec\">recovered %s: %s</span>", esc(row.Recovered), esc(row.Provenance))
	}
	if row.Verified == "false" {
		r.hf("<span class=\"badge bad\">file failed verification</span>")
	}
	where := fmt.Sprintf("line %d", row.SourceLine)
	if n != r.lastSrc {
		where = fmt.Sprintf("%s:%d", shortPath(row.SourceFile), row.SourceLine)
		r.lastSrc = n
	}
	r.hf(" · <a href=\"#src-%d\">%s</a></div>", n, esc(where))
	if r.in.matched[line] {
		limit = maxChars
	}
	// credential-shaped values are never printed in the report (the
	// evidence files keep them as recorded): parser.RedactSecrets
	text := cutAt(parser.RedactSecrets(row.Text), limit, line)
	if long(text) {
		r.hf("<details><summary>%s…</summary><pre>%s</pre></details>", esc(firstLine(text)), esc(text))
	} else {
		r.hf("<pre>%s</pre>", esc(text))
	}
	if row.ToolInput != "" && row.TurnType == "tool_use" {
		r.hf("<details><summary>full arguments</summary><pre>%s</pre></details>", esc(cut(parser.RedactSecrets(pretty(row.ToolInput)))))
	}
	r.hf("</div>\n")
	extra := ""
	if row.IsError == "true" {
		extra += " · error"
	}
	if row.Secondary == "true" {
		extra += " · secondary source"
	}
	if row.Recovered != "" {
		extra += " · recovered " + mdEsc(row.Recovered) + ": " + mdEsc(row.Provenance)
	}
	if row.Verified == "false" {
		extra += " · file failed verification"
	}
	r.mf("%s**%s** %s%s%s · [%s](#src-%d)\n\n", mdID, mdEsc(label), mdEsc(when), mdBadges(badges), extra, mdEsc(where), n)
	if text != "" {
		r.mf("%s\n", mdsafe.CodeBlock("", text))
	}
	if row.ToolInput != "" && row.TurnType == "tool_use" {
		r.mf("full arguments:\n\n%s\n", mdsafe.CodeBlock("json", cut(parser.RedactSecrets(pretty(row.ToolInput)))))
	}
}

func mdBadges(b []string) string {
	if len(b) == 0 {
		return ""
	}
	return " · " + mdEsc(strings.Join(b, " · "))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) > 160 {
		s = string([]rune(s)[:160])
	}
	return s
}

// shortPath is a row's source file as its link shows it: the last two
// names, credential-shaped substrings masked (hostPath).
func shortPath(p string) string {
	p = hostPath(p)
	parts := strings.Split(p, "/")
	if len(parts) > 3 {
		return "…/" + strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

// hostPath is a path of the host as the report prints it: as found, with
// each credential-shaped substring written [redacted] (bundle.MaskSecrets,
// as problems.jsonl and the terminal do): a token inside a folder name
// (CLAUDE_CONFIG_DIR=/x/ghp_...) is not printed.
func hostPath(p string) string { return bundle.MaskSecrets(p) }

func pretty(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(b)
}

// sameMember stands in the source-file table for a member named as the
// bundle names a file it collected (bundle/docs/format.md: `files/` and
// the path without its leading `/`), so each path is written once.
const sameMember = "files/+path"

func (r *renderer) tail() {
	if r.rows == 0 {
		r.hf("<p>No rows.</p>\n")
		r.mf("No rows.\n\n")
	}
	files := map[srcKey]analyze.InventoryFile{}
	for _, f := range r.in.inv.Files {
		k := srcKey{f.Host, f.BundleID, f.SourceFile}
		if _, ok := files[k]; !ok {
			files[k] = f
		}
	}
	r.heading(idSources, "Source files")
	r.hf("<p class=\"meta\">Each file a row came from: its path on the host, the bundle and the member it was read from (%s: the bundle's name for it, <code>files/</code> and the path without its leading <code>/</code>; the member is written out only when it is another name), its SHA-256 as read (the manifest's when verified), and what was read from it.</p>\n", esc(sameMember))
	r.hf("<table class=\"src\"><tr><th>#</th><th>file</th><th>host</th><th>bundle</th><th>member</th><th>SHA-256</th><th>verified</th><th>records read</th><th>rows</th></tr>\n")
	r.mf("Each file a row came from: its path on the host, the bundle and the member it was read from (%s: the bundle's name for it, `files/` and the path without its leading `/`; the member is written out only when it is another name), its SHA-256 as read (the manifest's when verified), and what was read from it.\n\n", mdEsc(sameMember))
	r.mf("| # | file | host | bundle | member | SHA-256 | verified | records read | rows |\n|---|---|---|---|---|---|---|---|---|\n")
	for i, k := range r.srcList {
		f, ok := files[k]
		sum, member := f.SHA256, f.Member
		if !ok {
			sum, member = "(not in inventory.json)", "-"
		} else if sum == "" {
			sum, member = "(loose input: not hashed)", "(loose input: read in place)"
		} else if member == "files"+k.file && strings.HasPrefix(k.file, "/") {
			member = sameMember
		}
		file, member := hostPath(k.file), hostPath(member)
		r.hf("<tr id=\"src-%d\"><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%d</td></tr>\n",
			i+1, i+1, esc(file), esc(k.host), esc(orDash(k.bundle)), esc(orDash(member)), esc(sum), esc(orDash(f.Verified)), f.Records, f.Rows)
		r.mf("| %s%d | %s | %s | %s | %s | %s | %s | %d | %d |\n", mdsafe.Target(fmt.Sprintf("src-%d", i+1)), i+1, mdEsc(file), mdEsc(k.host), mdEsc(orDash(k.bundle)),
			mdEsc(orDash(member)), mdEsc(sum), mdEsc(orDash(f.Verified)), f.Records, f.Rows)
	}
	r.hf("</table>\n<p class=\"meta\">Every row shows its source file and line (JSON Lines line, SQLite rowid or array position), and only its line when it comes from the same file as the row above it; the whole text of every row is in timeline.jsonl beside this report.</p>\n</body></html>\n")
	r.mf("\nEvery row shows its source file and line (JSON Lines line, SQLite rowid or array position), and only its line when it comes from the same file as the row above it; the whole text of every row is in timeline.jsonl beside this report.\n")
}
