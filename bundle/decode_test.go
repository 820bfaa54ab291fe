package bundle

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestDecodeHeaderForwardCompatible(t *testing.T) {
	h, err := DecodeHeader([]byte(`{"format_version":1,"bundle_id":"b1","future_field":{"x":[1,2]},"host":{"hostname":"h","future":true}}`))
	if err != nil || h.BundleID != "b1" || h.Host.Hostname != "h" {
		t.Fatalf("header with unknown fields: %+v %v", h, err)
	}
	if _, err := DecodeHeader([]byte(`{"format_version":2}`)); !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("version 2: %v", err)
	}
	var fe *FormatError
	if _, err := DecodeHeader([]byte(`{"format_version":"1"}`)); !errors.As(err, &fe) || fe.Member != HeaderName {
		t.Fatalf("wrong type: %v", err)
	}
}

func TestManifestDecoderRows(t *testing.T) {
	in := strings.Join([]string{
		`{"record":"file","path":"/a","size":3,"new_field":"x"}`,
		`{"record":"home_v2","path":"/b"}`,
		`{"record":"file","path":"/c","size":"three"}`,
		`{"record":"summary","complete":true,"files":1}`,
		`{"record":"file","path":"/d"`,
		`{"record":"file","path":"/e"}`,
	}, "\n")
	d := NewManifestDecoder(strings.NewReader(in))
	var got []string
	for {
		row, err := d.Next()
		if err == io.EOF {
			t.Fatal("EOF before the syntax error")
		}
		if err != nil {
			if !errors.Is(err, ErrManifestSyntax) || !strings.Contains(err.Error(), "row 5") {
				t.Fatalf("syntax error: %v", err)
			}
			break
		}
		switch {
		case row.Err != nil:
			got = append(got, "err:"+row.Err.Error()[:5])
		case row.Entry != nil:
			got = append(got, "file:"+row.Entry.Path)
		case row.Summary != nil:
			got = append(got, "summary")
		default:
			got = append(got, row.UnknownRecord())
		}
	}
	want := []string{"file:/a", `row 2: record "home_v2" unknown to this reader (format version 1): skipped`, "err:row 3", "summary"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("rows\n got %q\nwant %q", got, want)
	}
}
