package windsurf

import (
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"google.golang.org/protobuf/encoding/protowire"
)

const (
	cascadeDir = home + "/.codeium/windsurf/cascade"
	uuid       = "0b6f4c1e-3c1d-4f5e-9a3b-2d1c0e9f8a7b"
	t0         = 1767225600 // 2026-01-01T00:00:00Z
)

// typicalPB is a hand-assembled message with the shapes the decoder
// distinguishes: nested messages with a Timestamp submessage, a varint in
// epoch milliseconds, a message without any time, opaque bytes, fixed
// fields, a short string, and printable text that would also parse as a
// message.
func typicalPB() pb {
	step1 := pb{}.Uint(1, 14).
		Msg(3, Timestamp(t0, 500_000_000)).
		Msg(5, pb{}.Str(1, "create a hello world file").Uint(2, 1))
	step2 := pb{}.Uint(1, 15).
		Msg(3, Timestamp(t0+60, 0)).
		Msg(20, pb{}.Str(1, "I'll create a hello world file for you.").Str(3, "The user wants a file."))
	return pb{}.
		Str(1, uuid).
		Msg(2, step1).
		Msg(2, step2).
		Uint(4, (t0+120)*1000).
		Str(5, "Hello world session").
		Bytes(6, []byte{0xff, 0xfe, 0x00, 0x80, 0x81}).
		Fixed64(7, 42).
		Fixed32(8, 7).
		Str(9, "ok").
		Msg(10, pb{}.Str(1, "no time in this message").Uint(2, 3)).
		Str(11, "hi there")
}

// writePB writes b as a test input and returns its path.
func writePB(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func randomBytes(n int) []byte {
	r := rand.New(rand.NewSource(52))
	b := make([]byte, n)
	r.Read(b)
	return b
}

func pbCases() []struct {
	name string
	data []byte
} {
	typ := typicalPB()
	return []struct {
		name string
		data []byte
	}{
		{"typical", typ},
		{"empty", nil},
		// Cut inside step2's response string: step1 and the uuid decode.
		{"truncated", typ[:strings.Index(string(typ), "I'll create")+5]},
		{"random", randomBytes(4096)},
		{"zstd", append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00}, randomBytes(64)...)},
		{"gzip", append([]byte{0x1f, 0x8b, 0x08, 0x00}, randomBytes(64)...)},
		{"snappy", append([]byte("\xff\x06\x00\x00sNaPpY"), randomBytes(64)...)},
		{"group", pb{}.Str(1, "before the group").tag(2, protowire.StartGroupType).Uint(1, 1).tag(2, protowire.EndGroupType)},
	}
}

func TestCascadePBGolden(t *testing.T) {
	p := byID(t, "windsurf/cascade-pb")
	for _, c := range pbCases() {
		t.Run(c.name, func(t *testing.T) {
			local := writePB(t, uuid+".pb", c.data)
			in := input(t, local, cascadeDir+"/"+uuid+".pb", "cascade")
			parsertest.Golden(t, p, in, filepath.Join("testdata", "cascade", c.name+".golden.jsonl"))
		})
	}
}

func runPB(t *testing.T, data []byte) *parsertest.Sink {
	t.Helper()
	local := writePB(t, uuid+".pb", data)
	return parsertest.Run(t, byID(t, "windsurf/cascade-pb"), input(t, local, cascadeDir+"/"+uuid+".pb", "cascade"))
}

// TestCanonicalBytes decodes the examples of the protobuf encoding guide:
// 08 96 01 is field 1 = 150 and 12 07 74 65 73 74 69 6e 67 is field 2 =
// "testing".
func TestCanonicalBytes(t *testing.T) {
	s := runPB(t, []byte{0x08, 0x96, 0x01, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'})
	one(t, s, timeline.System, "cascade protobuf: 2 fields decoded, 1 strings, 0 timestamps, 0 undecoded bytes")
	e := one(t, s, timeline.System, "pb field 2: testing")
	if e.SourceLine != 4 || e.TimeBasis != timeline.TimeNone || !e.Time.IsZero() {
		t.Errorf("testing row: line %d basis %q time %v, want line 4 (byte 3), no time", e.SourceLine, e.TimeBasis, e.Time)
	}
	if len(s.Problems) != 0 {
		t.Errorf("problems: %v", s.Problems)
	}
	d := &decoder{ctx: t.Context()}
	fs, err := d.parse([]byte{0x08, 0x96, 0x01}, 0, 0, false)
	if err != nil || len(fs) != 1 || fs[0].Num != 1 || fs[0].Val != 150 {
		t.Errorf("08 96 01 = %+v, %v; want field 1 = 150", fs, err)
	}
}

func TestCascadePBRows(t *testing.T) {
	s := runPB(t, typicalPB())
	sum := one(t, s, timeline.System, "cascade protobuf: 26 fields decoded, 8 strings, 3 timestamps, 0 undecoded bytes")
	if sum.TimeBasis != timeline.TimeFileMTime || !sum.Time.Equal(fixedMTime) || sum.SessionID != uuid {
		t.Errorf("summary: %+v", sum)
	}
	for _, c := range []struct{ text, time string }{
		// Same enclosing message as the Timestamp submessage: its time.
		{"pb field 2.5.1: create a hello world file", ""},
		{"pb field 2.20.1: I'll create a hello world file for you.", ""},
		// Top level: the nearest field that is a time is 4, epoch ms.
		{"pb field 1: " + uuid, "2026-01-01T00:02:00Z"},
		{"pb field 5: Hello world session", "2026-01-01T00:02:00Z"},
		{"pb field 11: hi there", "2026-01-01T00:02:00Z"},
	} {
		e := one(t, s, timeline.System, c.text)
		if c.time == "" {
			// 2.5 and 2.20 enclose no time themselves: the Timestamp is
			// one level up, in the step, which is not the same message.
			if e.TimeBasis != timeline.TimeNone || !e.Time.IsZero() {
				t.Errorf("%s: time %v basis %q, want none", c.text, e.Time, e.TimeBasis)
			}
			continue
		}
		if e.TimeBasis != timeline.TimeInherited || !e.Time.Equal(parsertest.Time(t, c.time)) {
			t.Errorf("%s: time %v basis %q, want %s inherited", c.text, e.Time, e.TimeBasis, c.time)
		}
	}
	one(t, s, timeline.System, "pb field 10.1: no time in this message")
	if len(find(s, timeline.System, "pb field 9: ok")) != 0 {
		t.Error("a two-character string gave a row")
	}
	for _, e := range s.Events {
		if e.TurnType != timeline.System {
			t.Errorf("row %q is %s: .pb rows must all be system", e.Text, e.TurnType)
		}
	}
}

// A string in the same message as a Timestamp submessage takes its time.
func TestCascadePBTimestampSibling(t *testing.T) {
	s := runPB(t, pb{}.Msg(1, pb{}.Str(1, "first message text").Msg(2, Timestamp(t0+5, 250_000_000)).Str(3, "after the time")))
	for _, text := range []string{"pb field 1.1: first message text", "pb field 1.3: after the time"} {
		e := one(t, s, timeline.System, text)
		if e.TimeBasis != timeline.TimeInherited || !e.Time.Equal(parsertest.Time(t, "2026-01-01T00:00:05.25Z")) {
			t.Errorf("%s: %v %q", text, e.Time, e.TimeBasis)
		}
	}
	// The nearest of two: field 4's seconds is next to field 5.
	s = runPB(t, pb{}.Uint(1, t0).Str(2, "near one").Uint(3, 5).Uint(4, t0+3600).Str(5, "near four"))
	if e := one(t, s, timeline.System, "pb field 2: near one"); !e.Time.Equal(parsertest.Time(t, "2026-01-01T00:00:00Z")) {
		t.Errorf("near one: %v", e.Time)
	}
	if e := one(t, s, timeline.System, "pb field 5: near four"); !e.Time.Equal(parsertest.Time(t, "2026-01-01T01:00:00Z")) {
		t.Errorf("near four: %v", e.Time)
	}
}

func TestCascadePBUndecodable(t *testing.T) {
	for _, c := range []struct {
		name, problem string
	}{
		{"random", "entropy"},
		{"zstd", "starts with the zstd frame magic (28 b5 2f fd)"},
		{"gzip", "starts with the gzip magic (1f 8b)"},
		{"snappy", "snappy framing format"},
		{"group", "at byte 18: group wire type 3 (field 2) is not supported"},
		{"truncated", "runs past the end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var data []byte
			for _, pc := range pbCases() {
				if pc.name == c.name {
					data = pc.data
				}
			}
			s := runPB(t, data)
			if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "cascade .pb not decodable as protobuf wire format at byte ") ||
				!strings.Contains(s.Problems[0], c.problem) {
				t.Fatalf("problems %q, want one containing %q", s.Problems, c.problem)
			}
			switch c.name {
			case "group", "truncated":
				// Partial rows: what decoded before the failure.
				if len(s.Events) < 2 {
					t.Errorf("want partial rows, got %s", parsertest.Render(s))
				}
			default:
				// Nothing invented: only the summary, with every byte undecoded.
				want := "cascade protobuf: 0 fields decoded, 0 strings, 0 timestamps, " + strconv.Itoa(len(data)) + " undecoded bytes"
				if len(s.Events) != 1 || s.Events[0].Text != want {
					t.Errorf("rows:\n%s\nwant only %q", parsertest.Render(s), want)
				}
			}
		})
	}
	s := runPB(t, pbCases()[2].data)
	one(t, s, timeline.System, "pb field 1: "+uuid)
	one(t, s, timeline.System, "pb field 2.5.1: create a hello world file")
}
