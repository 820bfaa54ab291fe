package aider

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

var (
	// confirmRx matches confirm_ask's record "<question> (Y)es/(N)o... [Yes]: <answer>".
	confirmRx = regexp.MustCompile(`^(.+?) \(Y\)es/\(N\)o(.*?) \[[^\]]*\]:\s*(\S*)\s*$`)
	// modelRx matches the announcement "Main model: <id> with <format> edit format"
	// ("Model:" when the weak model is the main model).
	modelRx = regexp.MustCompile(`^(?:Main model|Model): (\S+) with `)
)

type blockKind int

const (
	blockNone blockKind = iota
	blockUser
	blockQuote
	blockReply
)

// chatState is the reader of one .aider.chat.history.md.
type chatState struct {
	out    parser.Sink
	proj   string
	strict bool // the file keeps aider's "  " line ends: only such lines are prompts and tool lines

	start time.Time
	sid   string
	model string

	kind  blockKind
	lines []string
	first int64
	fence string
}

func parseChat(ctx context.Context, in *parser.Input, out parser.Sink) error {
	// Pass 1: does the file keep the two trailing spaces aider writes after
	// every prompt and tool line? (A repository's whitespace hook may strip
	// them; then every "#### " and "> " line outside a fence is taken as one.)
	strict := false
	err := readLines(ctx, in, nil, func(_ int64, line []byte) error {
		if (hasPrefixB(line, "#### ") || hasPrefixB(line, "> ")) && hasSuffixB(line, "  ") {
			strict = true
			return errStop
		}
		return nil
	})
	if err != nil && err != errStop {
		return err
	}
	st := &chatState{out: out, proj: projectPath(in.Path), strict: strict}
	dec := &decoder{out: out}
	var prev int64
	err = readLines(ctx, in, out, func(n int64, raw []byte) error {
		blank := n > prev+1
		gap := int(n - prev - 1)
		prev = n
		st.line(n, dec.text(n, raw), blank, gap)
		return nil
	})
	st.flush()
	return err
}

func (st *chatState) line(n int64, s string, blank bool, gap int) {
	if st.kind == blockReply && st.fence != "" {
		st.addReply(s, gap)
		return
	}
	if strings.HasPrefix(s, "# aider chat started at ") {
		if m := startRx.FindStringSubmatch(s); m != nil {
			st.flush()
			t, err := time.Parse("2006-01-02 15:04:05", m[1])
			if err != nil {
				st.out.Problem(n, "bad run start time: "+m[1])
			}
			st.start, st.sid, st.model = t, sessionID(t), ""
			st.emit(timeline.System, "aider chat started at "+m[1], n)
			return
		}
	}
	isUser := strings.HasPrefix(s, "#### ") || s == "####"
	isQuote := strings.HasPrefix(s, ">")
	if st.strict {
		isUser = isUser && strings.HasSuffix(s, "  ")
		isQuote = isQuote && strings.HasSuffix(s, "  ")
	}
	switch {
	case isUser:
		text := strings.TrimPrefix(strings.TrimPrefix(s, "####"), " ")
		text = strings.TrimSuffix(text, "  ")
		if st.kind == blockUser && !blank {
			st.lines = append(st.lines, text)
			return
		}
		st.flush()
		st.kind, st.first, st.lines = blockUser, n, []string{text}
	case isQuote:
		st.flush()
		text := strings.TrimPrefix(strings.TrimPrefix(s, ">"), " ")
		st.kind, st.first, st.lines = blockQuote, n, []string{strings.TrimSuffix(text, "  ")}
	case st.kind == blockQuote && !blank:
		// A multi-line subject (a shell command) is written after one "> ".
		st.lines = append(st.lines, strings.TrimSuffix(s, "  "))
	case st.kind == blockReply:
		st.addReply(s, gap)
	default:
		st.flush()
		st.kind, st.first, st.lines = blockReply, n, nil
		st.addReply(s, 0)
	}
}

// addReply appends a reply line (after gap blank lines) and tracks code
// fences, inside which "#### " and "> " lines are the reply's own.
func (st *chatState) addReply(s string, gap int) {
	for i := 0; i < gap; i++ {
		st.lines = append(st.lines, "")
	}
	st.lines = append(st.lines, s)
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return
	}
	c := t[0]
	k := 0
	for k < len(t) && t[k] == c {
		k++
	}
	if k < 3 {
		return
	}
	if st.fence == "" {
		st.fence = t[:k]
		return
	}
	if c == st.fence[0] && k >= len(st.fence) && strings.TrimSpace(t[k:]) == "" {
		st.fence = ""
	}
}

func (st *chatState) emit(tt timeline.TurnType, text string, line int64) timeline.Event {
	e := event(st.start, st.sid, st.proj, tt, text, line)
	st.out.Event(e)
	return e
}

// flush emits the block held.
func (st *chatState) flush() {
	kind, lines, n := st.kind, st.lines, st.first
	st.kind, st.lines, st.fence = blockNone, nil, ""
	switch kind {
	case blockUser:
		text := strings.Join(lines, "\n")
		if text == "<blank>" || strings.TrimSpace(text) == "" {
			st.out.Skip(n, "empty_prompt")
			return
		}
		if m := confirmRx.FindStringSubmatch(text); m != nil && len(lines) == 1 {
			// A group's remembered answer, logged as if typed.
			st.emit(timeline.System, "permission decision: "+decision(m[3], m[2])+" "+m[1], n)
			return
		}
		st.emit(timeline.User, text, n)
	case blockQuote:
		text := strings.Join(lines, "\n")
		if m := confirmRx.FindStringSubmatch(lines[0]); m != nil {
			st.emit(timeline.System, "permission decision: "+decision(m[3], m[2])+" "+m[1], n)
			return
		}
		if strings.TrimSpace(text) == "" {
			st.out.Skip(n, "no_evidence:empty_tool_line")
			return
		}
		st.emit(timeline.System, text, n)
		if m := modelRx.FindStringSubmatch(text); m != nil && m[1] != st.model {
			if st.model == "" {
				st.emit(timeline.System, "model: "+m[1], n)
			} else {
				st.emit(timeline.System, "model: "+st.model+" -> "+m[1], n)
			}
			st.model = m[1]
		}
	case blockReply:
		text := strings.TrimSpace(strings.Join(lines, "\n"))
		if text == "" {
			return
		}
		think, answer := splitThinking(text)
		if think != "" {
			e := event(st.start, st.sid, st.proj, timeline.Thinking, think, n)
			e.Model = st.model
			st.out.Event(e)
		}
		if answer != "" {
			e := event(st.start, st.sid, st.proj, timeline.Assistant, answer, n)
			e.Model = st.model
			st.out.Event(e)
		}
	}
}

// decision maps confirm_ask's one-letter answer to what it returned:
// y, and a when the question offered (A)ll, are yes; n, s (skip all) and d
// (don't ask again) are no.
func decision(answer, options string) string {
	a := strings.ToLower(answer)
	switch {
	case strings.HasPrefix(a, "y"):
		return "yes"
	case strings.HasPrefix(a, "a") && strings.Contains(options, "(A)ll"):
		return "yes"
	case a == "":
		return "unknown"
	default:
		return "no"
	}
}
