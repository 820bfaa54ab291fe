package letta

import (
	"context"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// redactURL hides a URL's password (https://user:token@host/...) and any
// credential-shaped text.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "[redacted]")
			s = strings.Replace(u.String(), "%5Bredacted%5D", "[redacted]", 1)
		}
	}
	return parser.RedactSecrets(s)
}

// maxMemoryFile bounds the content a memory file row quotes.
const maxMemoryFile = 1 << 20

// memfsPath splits a path under .letta/lc-local-backend/memfs/ into the
// agent id and the path inside its memory/ folder.
func memfsPath(p string) (agent, rel string, ok bool) {
	const m = "/memfs/"
	i := strings.LastIndex(p, m)
	if i < 0 {
		return "", "", false
	}
	rest := p[i+len(m):]
	agent, rest, ok = strings.Cut(rest, "/")
	if !ok {
		return "", "", false
	}
	rel, ok = strings.CutPrefix(rest, "memory/")
	return agent, rel, ok
}

func parseMemfs(ctx context.Context, in *parser.Input, out parser.Sink) error {
	agent, rel, ok := memfsPath(in.Path)
	if !ok {
		out.Skip(1, "no_evidence:outside_memory")
		return nil
	}
	gitRel, inGit := strings.CutPrefix(rel, ".git/")
	if !inGit && parser.IsGitSampleHook(rel) {
		// a copy of a git folder under another name (a tree saved
		// without its .git): git's sample hooks are no memory
		out.Skip(1, "no_evidence:git_sample_hook")
		return nil
	}
	if !inGit {
		return memoryFile(in, out, agent, rel)
	}
	switch {
	case gitRel == "logs/HEAD" || strings.HasPrefix(gitRel, "logs/refs/"):
		return reflog(ctx, in, out, agent)
	case gitRel == "config":
		return gitConfig(ctx, in, out, agent)
	case gitRel == "memory-repository-push.log":
		return pushLog(ctx, in, out, agent)
	}
	// Objects, index, refs, hooks and the rest are git's own machinery:
	// collected for an examiner's git tools, no row.
	out.Skip(1, "no_evidence:git_internal")
	return nil
}

// memoryFile gives one row per memory file, at its mtime (the memory
// repository records the time of each commit, not of each file).
func memoryFile(in *parser.Input, out parser.Sink, agent, rel string) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxMemoryFile+1))
	if err != nil {
		return err
	}
	text := string(b)
	cut := ""
	if len(b) > maxMemoryFile {
		text, cut = string(b[:maxMemoryFile]), " (first "+strconv.Itoa(maxMemoryFile)+" bytes)"
	}
	e := parser.SettingEvent(&in.File)
	e.SourceLine = 1
	if !utf8.ValidString(text) {
		e.Text = "memory file of agent " + agent + ": " + rel + " (" + strconv.FormatInt(in.Size, 10) + " bytes, not text; file mtime)"
	} else {
		e.Text = "memory file of agent " + agent + ": " + rel + " (" + strconv.FormatInt(in.Size, 10) + " bytes, file mtime)" + cut + ":\n" + text
	}
	out.Event(e)
	return nil
}

// reflog reads a git reflog: "<old> <new> <name> <<email>> <unix> <tz>\t<message>".
func reflog(ctx context.Context, in *parser.Input, out parser.Sink, agent string) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		head, msg, ok := strings.Cut(string(line), "\t")
		f := strings.Fields(head)
		if !ok || len(f) < 5 {
			out.Problem(n, "not a reflog line")
			return nil
		}
		newSHA := f[1]
		tz := f[len(f)-1]
		unix, err := strconv.ParseInt(f[len(f)-2], 10, 64)
		if err != nil {
			out.Problem(n, "reflog line without a time")
			return nil
		}
		who := strings.Join(f[2:len(f)-2], " ")
		e := timeline.Event{Time: time.Unix(unix, 0).UTC(), TurnType: timeline.System, SourceLine: n}
		action, what, _ := strings.Cut(msg, ": ")
		// The same commit is in logs/HEAD and logs/refs/heads/<branch>:
		// one text, so the two rows are one record.
		e.Text = "memory repository " + action + " " + newSHA[:min(12, len(newSHA))] + ": " + what + " (by " + who + ", zone " + tz + "; agent " + agent + ")"
		e.RecordID = "memfs:" + agent + "@" + newSHA + "#" + action
		out.Event(e)
		return nil
	})
}

// gitConfig reports the memory repository's remotes: Letta pushes every
// memory commit to letta.memoryRepository.url (the post-commit hook it
// installs), so a remote there is where the agent's memory went.
func gitConfig(ctx context.Context, in *parser.Input, out parser.Sink, agent string) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	section := ""
	rows := 0
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		l := strings.TrimSpace(string(line))
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			section = strings.ToLower(strings.Trim(l, "[]"))
			return nil
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), `"`)
		if k != "url" && !strings.HasSuffix(k, ".url") {
			return nil // [letta] memoryRepository.url or [remote "x"] url
		}
		e := parser.SettingEvent(&in.File)
		e.SourceLine = n
		e.Text = "memory repository of agent " + agent + " pushes to " + redactURL(v) + " ([" + section + "] " + k + "; file mtime)"
		out.Event(e)
		rows++
		return nil
	})
	if err == nil && rows == 0 {
		out.Skip(1, "no_evidence:git_config")
	}
	return err
}

// pushLog reads memory-repository-push.log, written by Letta's
// post-commit hook: "--- <date> <sha> on <branch> ---", git's output,
// then "exit=<code>".
func pushLog(ctx context.Context, in *parser.Input, out parser.Sink, agent string) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	var cur *timeline.Event
	var body []string
	flush := func() {
		if cur != nil {
			if len(body) > 0 {
				cur.Text += ": " + strings.Join(body, "\n")
			}
			out.Event(*cur)
		}
		cur, body = nil, nil
	}
	err = parser.Lines(ctx, rc, out, func(n int64, line []byte) error {
		l := strings.TrimSpace(string(line))
		if strings.HasPrefix(l, "--- ") && strings.HasSuffix(l, " ---") {
			flush()
			f := strings.Fields(strings.Trim(l, "- "))
			e := timeline.Event{TurnType: timeline.System, SourceLine: n}
			if len(f) >= 1 {
				if t, err := time.Parse("2006-01-02T15:04:05-0700", f[0]); err == nil {
					e.Time = t.UTC()
				}
			}
			if e.Time.IsZero() {
				e.TimeBasis = timeline.TimeNone
			}
			e.Text = "memory repository of agent " + agent + " pushed " + strings.Join(f[1:], " ")
			cur = &e
			return nil
		}
		if cur == nil {
			out.Problem(n, "push log line before a push header")
			return nil
		}
		body = append(body, redactURL(l))
		out.Skip(n, "state_only") // folded into the push row
		return nil
	})
	flush()
	return err
}
