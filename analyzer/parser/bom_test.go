package parser

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	json "github.com/go-json-experiment/json/v1"
)

func TestSkipBOM(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\xef", "\xef"},         // a lone first byte of a mark
		{"\xef\xbb", "\xef\xbb"}, // two bytes: not a mark
		{"\xef\xbb\xbf", ""},     // the mark alone
		{"\xef\xbb\xbf{}", "{}"}, // the mark, then the text
		{"\xef\xbb\xbf\xef\xbb\xbf{}", "\xef\xbb\xbf{}"}, // only the first is the file's mark
		{"\xef\xbbX{}", "\xef\xbbX{}"},                   // a partial mark then other bytes
		{"{}\xef\xbb\xbf", "{}\xef\xbb\xbf"},             // a mark later is text
		{"ab", "ab"},
		{"{\"a\":1}\r\n", "{\"a\":1}\r\n"},
	} {
		for name, wrap := range map[string]func(io.Reader) io.Reader{
			"whole": func(r io.Reader) io.Reader { return r },
			"1byte": iotest.OneByteReader,
		} {
			rc := SkipBOM(io.NopCloser(wrap(strings.NewReader(c.in))))
			got, err := io.ReadAll(rc)
			if err != nil || string(got) != c.want {
				t.Errorf("%s %q: got %q, %v; want %q", name, c.in, got, err, c.want)
			}
			if err := rc.Close(); err != nil {
				t.Error(err)
			}
		}
	}
	// An error before the mark is read is passed on, not taken for EOF.
	rc := SkipBOM(io.NopCloser(iotest.ErrReader(io.ErrClosedPipe)))
	if _, err := io.ReadAll(rc); err != io.ErrClosedPipe {
		t.Errorf("got %v, want the reader's error", err)
	}
	if err := iotest.TestReader(SkipBOM(io.NopCloser(strings.NewReader("\xef\xbb\xbfhello, world"))), []byte("hello, world")); err != nil {
		t.Error(err)
	}
}

// Every way a parser reaches content goes through the one reader: Open,
// OpenRelated, ReadWhole, ReadRelated and Input.ReadRelated all give the
// text without the mark, and Lines reads a BOM-and-CRLF JSONL file's
// first line as JSON; OpenRaw keeps the bytes.
func TestInputReadersSkipBOM(t *testing.T) {
	const file = "\xef\xbb\xbf{\"a\":1}\r\n{\"a\":2}\r\n"
	in := &Input{
		OpenFunc:    func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(file)), nil },
		RelatedFunc: func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(file)), nil },
	}
	want := file[len(BOM):]
	read := func(name string, f func() (io.ReadCloser, error)) {
		rc, err := f()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		if string(b) != want {
			t.Errorf("%s: %q", name, b)
		}
	}
	read("Open", in.Open)
	read("OpenRelated", func() (io.ReadCloser, error) { return in.OpenRelated("/x") })
	if b, err := ReadWhole(in, 1<<10); err != nil || string(b) != want {
		t.Errorf("ReadWhole: %q %v", b, err)
	}
	if b, err := ReadRelated(in, "/x", 1<<10); err != nil || string(b) != want {
		t.Errorf("ReadRelated: %q %v", b, err)
	}
	if b, ok := in.ReadRelated("/x", 1<<10); !ok || string(b) != want {
		t.Errorf("Input.ReadRelated: %q %v", b, ok)
	}
	rc, _ := in.OpenRaw()
	if b, _ := io.ReadAll(rc); string(b) != file {
		t.Errorf("OpenRaw: %q", b)
	}
	rc, _ = in.Open()
	var lines []string
	if err := Lines(t.Context(), rc, nil, func(n int64, line []byte) error {
		var v struct{ A int }
		if err := json.Unmarshal(line, &v); err != nil {
			t.Errorf("line %d %q: %v", n, line, err)
		}
		lines = append(lines, string(line))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(lines, "|") != `{"a":1}|{"a":2}` {
		t.Errorf("lines %q", lines)
	}
	if got := string(TrimBOM([]byte(file))); got != want {
		t.Errorf("TrimBOM: %q", got)
	}
}
