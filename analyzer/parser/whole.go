package parser

import (
	"errors"
	"fmt"
	"io"
)

// ErrTooLarge is returned by ReadWhole and ReadRelated for a file over the
// limit the caller gave.
var ErrTooLarge = errors.New("file over the size limit for a whole-file read")

// ReadWhole reads the input's content whole, for formats that are one JSON
// document (a settings file, a chat saved as one object), up to limit
// bytes; a longer file gives ErrTooLarge (wrapped with the limit), never a
// cut document.
func ReadWhole(in *Input, limit int64) ([]byte, error) {
	rc, err := in.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return readLimited(rc, limit)
}

// ReadRelated reads another collected file of the same home whole (see
// Input.OpenRelated), up to limit bytes; ErrNotCollected when it is not in
// the input.
func ReadRelated(in *Input, origPath string, limit int64) ([]byte, error) {
	rc, err := in.OpenRelated(origPath)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return readLimited(rc, limit)
}

func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, limit)
	}
	return b, nil
}
