package claudetranscript

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

// TestRecordFields: recordDecoder knows every member record has, by its
// json name, and no other (a field added to record but not to recFields
// would be silently dropped by the fast path), and tracks at most 64.
func TestRecordFields(t *testing.T) {
	rt := reflect.TypeOf(record{})
	want := map[string]bool{}
	for i := range rt.NumField() {
		tag := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
		if tag == "" || tag == "-" {
			t.Fatalf("record field %s has no json name", rt.Field(i).Name)
		}
		want[tag] = true
	}
	if len(recFields) != len(want) || len(recFields) > 64 {
		t.Fatalf("recFields has %d names, record %d (at most 64)", len(recFields), len(want))
	}
	for k := range want {
		if _, ok := recFields[k]; !ok {
			t.Errorf("recFields lacks %q", k)
		}
	}
}

// transcriptLines returns every line of the Claude Code transcripts in
// testdata, the fixture roots and the shared samples.
func transcriptLines(t *testing.T) [][]byte {
	t.Helper()
	var files []string
	for _, root := range []string{"../../../parsers/claudecode/testdata", "../../../../fixtures/roots", parsertest.SharedSamples(t, "claude-code")} {
		if err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && !strings.HasSuffix(p, ".golden.jsonl") &&
				(root == "../../../parsers/claudecode/testdata" || strings.Contains(p, ".claude") || strings.Contains(p, "claude-code")) {
				files = append(files, p)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	var lines [][]byte
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 256<<20)
		for sc.Scan() {
			if len(bytes.TrimSpace(sc.Bytes())) > 0 {
				lines = append(lines, bytes.Clone(sc.Bytes()))
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(f, err)
		}
	}
	if len(files) < 40 || len(lines) < 800 {
		t.Fatalf("found %d files, %d lines: the fixtures moved?", len(files), len(lines))
	}
	return lines
}

// mutations returns hostile variants of a line: names differing in case,
// a member twice, values of other types, nulls, bytes after the object,
// invalid UTF-8, a cut.
func mutations(line []byte) [][]byte {
	var out [][]byte
	rep := func(old, new string) {
		if bytes.Contains(line, []byte(old)) {
			out = append(out, bytes.Replace(line, []byte(old), []byte(new), 1))
		}
	}
	rep(`"type":`, `"Type":`)
	// No JSON inside balanced brackets (a skipped record's large value
	// included): a colon gone, a comma doubled.
	rep(`"text":"`, `"text" "`)
	rep(`,"text":`, `,,"text":`)
	rep(`"sessionId":`, `"SESSIONID":`)
	rep(`"uuid":"`, `"uuid":1,"x":"`)
	rep(`"uuid":`, `"uuid":null,"uuid":`)
	rep(`"isSidechain":false`, `"isSidechain":"false"`)
	rep(`"isSidechain":false`, `"isSidechain":null`)
	rep(`"parentUuid":null`, `"parentUuid":7`)
	rep(`"parentUuid":"`, `"parentUuid":null,"p":"`)
	rep(`"message":{`, `"message":null,"m":{`)
	rep(`"message":{`, `"message":{"x":1},"message":{`)
	rep(`"content":`, `"content":null,"c":`)
	rep(`"timestamp":"`, `"timestamp":"\u00e9`)
	rep(`"timestamp":"`, "\"timestamp\":\"\xff\xfe")
	rep(`"cwd":"`, `"c\u0077d":"`)
	rep(`"toolUseResult":`, `"toolUseResult":7,"t":`)
	rep(`"forkedFrom":{`, `"forkedFrom":[],"f":{`)
	rep(`"compactMetadata":{`, `"compactMetadata":"x","f":{`)
	rep(`"attachment":{`, `"attachment":{"a":tru},"b":{`)
	out = append(out,
		append(bytes.Clone(line), `{"type":"user"}`...),
		append(bytes.Clone(line), " \t\r"...),
		append(bytes.Clone(line), ` x`...),
		line[:len(line)/2],
		append([]byte(`{"ſessionId":"x",`), line[1:]...),
		append([]byte(`{"isMeta":1,`), line[1:]...),
		[]byte(`null`), []byte(`[]`), []byte(`"x"`), []byte(`{}`), []byte(`{"type":"user","message":"hi"}`),
	)
	return out
}

// TestRecordDecoderMatchesUnmarshal: wherever recordDecoder takes a line
// it decodes it exactly as json.Unmarshal does, and it never takes a line
// json.Unmarshal refuses; lightRecord's smaller lines too.
func TestRecordDecoderMatchesUnmarshal(t *testing.T) {
	rd := newRecordDecoder()
	var taken, refused, n int
	check := func(line []byte) {
		n++
		var fast, slow record
		ok := rd.decode(line, &fast)
		err := json.Unmarshal(line, &slow)
		switch {
		case ok && err != nil:
			t.Errorf("fast path took a line json.Unmarshal refuses (%v): %.300s", err, line)
		case ok && !reflect.DeepEqual(fast, slow):
			t.Errorf("fast path decoded differently:\n%.300s\nfast %+v\nslow %+v", line, fast, slow)
		case ok:
			taken++
		default:
			refused++
		}
	}
	// lightRecord may shorten only a line that is JSON: a value it
	// leaves out never hides a bad line (which the whole decode reports).
	light := func(line []byte) {
		small, ok := lightRecord(line)
		if !ok {
			return
		}
		check(small)
		if !bytes.Equal(small, line) && !jsontext.Value(line).IsValid(v1opts) {
			t.Errorf("lightRecord shortened a line that is no JSON: %.300s", line)
		}
	}
	for _, line := range transcriptLines(t) {
		check(line)
		light(line)
		for _, m := range mutations(line) {
			check(m)
			light(m)
		}
	}
	t.Logf("%d lines: %d decoded by the fast path, %d left to json.Unmarshal", n, taken, refused)
	if taken < n/3 || refused < n/10 {
		t.Errorf("%d of %d lines taken, %d refused: the comparison tests too little", taken, n, refused)
	}
}

// TestLightRecordMessage: a record whose type, seen before its message,
// gives no row (api-request-blob) has its large message left out like
// any other large value; a user or assistant record, a record whose type
// comes after its message, and one that names a second type are decoded
// whole (ok false).
func TestLightRecordMessage(t *testing.T) {
	big := `{"role":"user","content":"` + strings.Repeat("the conversation as sent ", 20) + `"}`
	for _, c := range []struct {
		line, want string
		ok         bool
	}{
		{`{"type":"api-request-blob","sessionId":"s","hash":"h","message":` + big + `}`, `{"type":"api-request-blob","sessionId":"s","hash":"h","message":null}`, true},
		{`{"type":"api-request-blob","sessionId":"s","message":{"role":"user"}}`, `{"type":"api-request-blob","sessionId":"s","message":{"role":"user"}}`, true},
		{`{"sessionId":"s","message":` + big + `,"type":"api-request-blob"}`, "", false},
		{`{"type":"user","message":` + big + `}`, "", false},
		{`{"type":"api-request-blob","message":` + big + `,"type":"user"}`, "", false},
		{`{"type":"api-request-blob","message":` + big[:len(big)-2] + `}`, "", false},
		// Balanced brackets around what is no JSON: left to the whole
		// decode, which reports the bad line.
		{`{"type":"api-request-blob","sessionId":"s","message":{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("x", 300) + `" tru}]}}`, "", false},
		{`{"type":"api-request-blob","sessionId":"s","message":{"role":"user" "content":"` + strings.Repeat("x", 300) + `"}}`, "", false},
		{`{"type":"api-request-shape","sessionId":"s","shape":{"tools":[` + strings.Repeat(`{"name":"Bash"},`, 20) + `]}}`, "", false},
	} {
		got, ok := lightRecord([]byte(c.line))
		if ok != c.ok || string(got) != c.want {
			t.Errorf("lightRecord(%.60s...) = %q, %v; want %q, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// TestLightScratchReused: a file's lines that lightRecord shortens are put
// together in one buffer, reused line after line: no allocation once it
// has grown to the longest (the copy it returned was not the one it kept).
func TestLightScratchReused(t *testing.T) {
	shape := `{"type":"api-request-shape","sessionId":"s","timestamp":"2026-09-10T12:50:35.628Z","shape":{"tools":[` + strings.Repeat(`{"name":"Bash","input_schema":{"type":"object"}},`, 40) + `{}]},"tail":"x"}`
	var sc lightScratch
	want := `{"type":"api-request-shape","sessionId":"s","timestamp":"2026-09-10T12:50:35.628Z","shape":null,"tail":"x"}`
	if got, ok := sc.light([]byte(shape)); !ok || string(got) != want {
		t.Fatalf("light = %q, %v; want %q", got, ok, want)
	}
	line := []byte(shape)
	if n := testing.AllocsPerRun(100, func() { sc.light(line) }); n != 0 {
		t.Errorf("light: %v allocations a line, want 0", n)
	}
}

// TestFillSkippedMatchesDecode: wherever fillSkipped takes a line (a
// record of a type that gives no row, filled from the prescan's spans),
// its record is exactly what decode makes of light's smaller line, and it
// takes no line decode refuses, on every fixture line and the mutations.
func TestFillSkippedMatchesDecode(t *testing.T) {
	rd := newRecordDecoder()
	var taken, left, n int
	check := func(line []byte) {
		small, ok := rd.light.light(line)
		if !ok || !rd.light.skip {
			return
		}
		n++
		var fast, slow record
		if !rd.fillSkipped(line, &fast) {
			left++
			return
		}
		switch {
		case !rd.decode(small, &slow):
			t.Errorf("fillSkipped took a line decode refuses: %.300s", line)
		case !reflect.DeepEqual(fast, slow):
			t.Errorf("fillSkipped filled differently:\n%.300s\nfill   %+v\ndecode %+v", line, fast, slow)
		default:
			taken++
		}
	}
	extra := [][]byte{
		[]byte(`{"type":"cost-state","sessionId":"s","n":01}`),
		[]byte(`{"type":"cost-state","sessionId":"s","n":[1,]}`),
		[]byte(`{"type":"cost-state","sessionId":"s","n":1}` + "\v"),
		[]byte(`{"type":"cost-state","sessionId":"s","n":1}` + "\u00a0"),
		[]byte(`{"type":"cost-state","sessionId":"s","isMeta":"x"}`),
		[]byte(`{"type":"cost-state","sessionId":"s","sessionid":"t"}`),
		[]byte(`{"type":"cost-state","sessionId":"s","sessionId":"t"}`),
		[]byte(`{"type":"cost-state","sessionId":"s\u0041"}`),
		[]byte(`{"type":"cost-state","sessionId":"s","isSidechain":true,"parentUuid":"p","agentId":"a","cwd":"/x","uuid":"u","timestamp":"t"}`),
		[]byte(`{"type":"cost-state","isSidechain":1}`),
		[]byte(`{"type":"cost-state","parentUuid":null,"x":{"a":"` + strings.Repeat("y", 300) + `"}}`),
		[]byte(`{"type":"api-request-blob","content":[` + strings.Repeat(`"y",`, 100) + `"z"]}`),
		[]byte(`{"type":"api-request-blob","summary":"` + strings.Repeat("y", 300) + `"}`),
		[]byte(`{"type":"api-request-blob","toolUseResult":"` + strings.Repeat("y", 300) + `"}`),
		[]byte(`{"type":"api-request-blob","message":{"role":"user","content":"` + strings.Repeat("y", 300) + `"}}`),
		[]byte(`{"type":"api-request-blob","timestamp":"2026-01-01T00:00:00Z` + "\t" + `"}`),
		[]byte("{\"type\":\"api-request-blob\",\"cwd\":\"/h\xc3\xa9\"}"),
	}
	lines := transcriptLines(t)
	for _, line := range lines {
		check(line)
	}
	realN, realTaken := n, taken
	for _, line := range append(lines, extra...) {
		for _, m := range append(mutations(line), line) {
			check(m)
		}
	}
	t.Logf("%d skipped-type lines of the fixtures: %d filled from the prescan; with the mutations %d lines, %d filled, %d left to decode",
		realN, realTaken, n, taken, left)
	if realTaken < realN*8/10 || left < 1000 {
		t.Errorf("%d of %d fixture lines filled, %d lines left in all: the comparison tests too little", realTaken, realN, left)
	}
}

// TestStringListMatchesUnmarshal: stringList decodes what json.Unmarshal
// into a []string decodes, and fails where it fails; deferredDelta is
// json.Unmarshal of the attachment into the five lists; plainKey keys
// are what json.Marshal writes.
func TestStringListMatchesUnmarshal(t *testing.T) {
	for _, c := range []string{`[]`, `null`, ` null `, `["a","b"]`, `[ "a" , "b" ]`, `["a",]`, `["a" "b"]`, `["a"]x`, `["a\"b"]`, `["\u00e9"]`,
		"[\"\xff\"]", "[\"é\"]", `[null]`, `["a",null]`, `[1]`, `"a"`, `{}`, `[`, `["a"`, "[\"a\tb\"]", `[[]]`, `["<&>"]`} {
		var got, want []string
		gok := stringList([]byte(c), &got)
		werr := json.Unmarshal([]byte(c), &want)
		if gok != (werr == nil) || (gok && !reflect.DeepEqual(got, want)) {
			t.Errorf("stringList(%s) = %q, %v; json.Unmarshal: %q, %v", c, got, gok, want, werr)
		}
	}
	type lists struct {
		Added    []string `json:"addedNames"`
		Removed  []string `json:"removedNames"`
		Pending  []string `json:"pendingMcpServers"`
		NeedAuth []string `json:"needsAuthMcpServers"`
		Failed   []string `json:"failedMcpServers"`
	}
	for _, c := range []string{
		`{"type":"deferred_tools_delta","addedNames":["A","B"],"removedNames":[],"pendingMcpServers":null,"failedMcpServers":["x"]}`,
		`{"type":"deferred_tools_delta","addedNames":["A"],"addednames":["B"]}`,
		`{"type":"deferred_tools_delta","AddedNames":["B"]}`,
		`{"type":"deferred_tools_delta","addedNames":"A"}`,
		`{"type":"deferred_tools_delta","addedNames":["A"],"addedNames":["C"]}`,
		`{"type":"deferred_tools_delta","needsAuthMcpServers":[1]}`,
		`{"type":"deferred_tools_delta","failedMcpServers":["\u0041"]}`,
	} {
		a := map[string][]byte{}
		if !parser.TopMapInto(a, []byte(c), nil) {
			t.Fatal(c)
		}
		var got, want lists
		gok := deferredDelta(a, []byte(c), &got.Added, &got.Removed, &got.Pending, &got.NeedAuth, &got.Failed)
		werr := json.Unmarshal([]byte(c), &want)
		if gok != (werr == nil) || (gok && !reflect.DeepEqual(got, want)) {
			t.Errorf("deferredDelta(%s) = %+v, %v; json.Unmarshal: %+v, %v", c, got, gok, want, werr)
		}
	}
	for c := 0; c < 0x80; c++ {
		k := "k" + string(rune(c))
		q, _ := json.Marshal(k)
		if plainKey(k) && string(q) != `"`+k+`"` {
			t.Errorf("plainKey(%q) but json.Marshal writes %s", k, q)
		}
	}
	if !plainKey("snapshot") || plainKey("é") {
		t.Error("plainKey")
	}
}

// foldedFields are record's member names in ASCII lower case.
var foldedFields = func() map[string]bool {
	m := map[string]bool{}
	for k := range recFields {
		m[string(bytes.ToLower([]byte(k)))] = true
	}
	return m
}()

// foldsToField reports whether json.Unmarshal could take key for one of
// record's fields (it matches names case-insensitively), or cannot be
// told cheaply (a name that is not ASCII).
func foldsToField(key []byte) bool {
	var buf [64]byte
	if len(key) > len(buf) {
		return false // longer than any field's name
	}
	for i, c := range key {
		switch {
		case c >= 0x80:
			return true
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return foldedFields[string(buf[:len(key)])]
}

// TestLookupField: one probe of fieldTable answers as recFields and
// foldsToField (two maps, as decode had them) do, for every field's name,
// its case variants, names one byte off and others.
func TestLookupField(t *testing.T) {
	var keys []string
	for name := range recFields {
		keys = append(keys, name, strings.ToUpper(name), strings.ToLower(name), name[:len(name)-1], name+"x", "x"+name[1:], strings.ToUpper(name[:1])+name[1:])
	}
	keys = append(keys, "", "ſessionId", "sessionıd", strings.Repeat("a", 64), strings.Repeat("a", 65), "rendered", "version", "gitBranch", "\u0074ype")
	for _, k := range keys {
		f, ok, folds := lookupField([]byte(k))
		wf, wok := recFields[k]
		wfolds := !wok && foldsToField([]byte(k))
		if ok != wok || folds != wfolds || (ok && f.idx != wf.idx) {
			t.Errorf("lookupField(%q) = %v, %v, %v; want %v, %v, %v", k, f.idx, ok, folds, wf.idx, wok, wfolds)
		}
	}
}
