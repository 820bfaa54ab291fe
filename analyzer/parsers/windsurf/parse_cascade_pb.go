package windsurf

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// maxPB is the largest .pb file decoded (the whole file is held in memory:
// a schemaless reader needs random access to try payloads as messages).
const maxPB = 1 << 30

// highEntropy is the byte entropy (bits per byte) above which a file that
// does not decode is taken for encrypted or compressed data, and the
// fields read before the failure are discarded as noise.
const highEntropy = 7.5

// magic is a compression format's leading bytes.
type magic struct {
	name  string
	bytes []byte
}

var compressionMagic = []magic{
	{"zstd frame", []byte{0x28, 0xb5, 0x2f, 0xfd}},
	{"gzip", []byte{0x1f, 0x8b}},
	{"snappy framing format", []byte{0xff, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y'}},
	{"xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}},
	{"lz4 frame", []byte{0x04, 0x22, 0x4d, 0x18}},
}

// pbProblem is the problem wording for a file that does not decode.
func pbProblem(off int, why string) string {
	return fmt.Sprintf("cascade .pb not decodable as protobuf wire format at byte %d: %s", off, why)
}

// parseCascadePB decodes one ~/.codeium/windsurf/cascade/<uuid>.pb.
func parseCascadePB(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return fmt.Errorf("open %s: %w", in.Path, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxPB+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", in.Path, err)
	}
	session := strings.TrimSuffix(path.Base(strings.ReplaceAll(in.Path, `\`, "/")), ".pb")
	summary := func(fields, texts, stamps, undecoded int) {
		e := timeline.Event{Time: in.MTime, TimeBasis: timeline.TimeFileMTime, SessionID: session, TurnType: timeline.System,
			Text: fmt.Sprintf("cascade protobuf: %d fields decoded, %d strings, %d timestamps, %d undecoded bytes", fields, texts, stamps, undecoded)}
		if in.MTime.IsZero() {
			e.TimeBasis = timeline.TimeNone
		}
		out.Event(e)
	}
	if len(b) > maxPB {
		summary(0, 0, 0, len(b))
		out.Problem(0, pbProblem(0, fmt.Sprintf("file larger than %d bytes, not decoded", maxPB)))
		return nil
	}
	for _, m := range compressionMagic {
		if bytes.HasPrefix(b, m.bytes) {
			summary(0, 0, 0, len(b))
			out.Problem(0, pbProblem(0, fmt.Sprintf("starts with the %s magic (% x): compressed, not decompressed here", m.name, m.bytes)))
			return nil
		}
	}
	d := &decoder{ctx: ctx}
	fields, werr := d.parse(b, 0, 0, false)
	if d.err != nil {
		return d.err
	}
	undecoded := 0
	if werr != nil {
		undecoded = len(b) - werr.Off
		if e := entropy(b); len(b) >= 256 && e >= highEntropy {
			// Random-looking bytes: whatever parsed before the failure is
			// chance, not data (newer Windsurf builds encrypt the file).
			fields, undecoded = nil, len(b)
			werr.Why += fmt.Sprintf("; byte entropy %.2f bits/byte, as encrypted or compressed data has (no compression magic found); nothing decoded", e)
		}
	}
	var st pbStats
	st.count(fields)
	summary(st.fields, st.texts, st.stamps, undecoded)
	w := &pbRows{ctx: ctx, out: out, session: session}
	w.walk(fields, "")
	if werr != nil {
		out.Problem(0, pbProblem(werr.Off, werr.Why))
	}
	return w.err
}

// pbStats counts what was decoded.
type pbStats struct{ fields, texts, stamps int }

func (s *pbStats) count(fs []wireField) {
	for i := range fs {
		f := &fs[i]
		s.fields++
		if _, ok := timestampOf(f); ok {
			s.stamps++
			if f.Kind == kindMessage {
				s.fields += len(f.Sub) // its seconds and nanos, not counted again as times
				continue
			}
		}
		switch f.Kind {
		case kindText:
			s.texts++
		case kindMessage:
			s.count(f.Sub)
		}
	}
}

// pbRows emits one system row per text field of at least minTextRunes
// characters, in file order.
type pbRows struct {
	ctx     context.Context
	out     parser.Sink
	session string
	err     error
}

func (w *pbRows) walk(fs []wireField, prefix string) {
	for i := range fs {
		if w.err != nil {
			return
		}
		f := &fs[i]
		p := strconv.Itoa(f.Num)
		if prefix != "" {
			p = prefix + "." + p
		}
		switch f.Kind {
		case kindMessage:
			if _, ok := timestampOf(f); !ok {
				w.walk(f.Sub, p)
			}
		case kindText:
			if utf8.RuneCount(bytes.TrimSpace(f.Data)) < minTextRunes {
				continue
			}
			if w.err = w.ctx.Err(); w.err != nil {
				return
			}
			e := timeline.Event{SessionID: w.session, TurnType: timeline.System, TimeBasis: timeline.TimeNone,
				Text: "pb field " + p + ": " + string(f.Data), SourceLine: int64(f.Off) + 1}
			if t, ok := nearestTime(fs, i); ok {
				e.Time, e.TimeBasis = t, timeline.TimeInherited
			}
			w.out.Event(e)
		}
	}
}

// nearestTime finds the timestamp among fs (the fields of the message
// that encloses fs[i]) closest to position i, the earlier on a tie.
func nearestTime(fs []wireField, i int) (time.Time, bool) {
	best, bestDist := time.Time{}, math.MaxInt
	for j := range fs {
		if j == i {
			continue
		}
		d := j - i
		if d < 0 {
			d = -d
		}
		if d >= bestDist {
			continue
		}
		if t, ok := timestampOf(&fs[j]); ok {
			best, bestDist = t, d
		}
	}
	return best, bestDist != math.MaxInt
}

// entropy is the Shannon entropy of b's bytes in bits per byte.
func entropy(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	var n [256]int
	for _, c := range b {
		n[c]++
	}
	var h float64
	for _, k := range n {
		if k == 0 {
			continue
		}
		p := float64(k) / float64(len(b))
		h -= p * math.Log2(p)
	}
	return h
}
