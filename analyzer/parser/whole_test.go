package parser

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadWhole(t *testing.T) {
	in := &Input{OpenFunc: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("0123456789")), nil }}
	b, err := ReadWhole(in, 10)
	if err != nil || string(b) != "0123456789" {
		t.Fatalf("at the limit: %q %v", b, err)
	}
	if _, err := ReadWhole(in, 9); !errors.Is(err, ErrTooLarge) || err.Error() != "file over the size limit for a whole-file read (9 bytes)" {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := ReadRelated(in, "/x", 10); !errors.Is(err, ErrNotCollected) {
		t.Fatalf("related without a lister: %v", err)
	}
}
