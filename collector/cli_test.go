package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// TestLogWriterFilters: stderr gets --log-level and up, while the bundle's
// own log (joined with zerolog.MultiLevelWriter, as collect.Collect does)
// keeps every level.
func TestLogWriterFilters(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	c := &CLI{LogLevel: "warn", LogFormat: "json"}
	lw := c.logWriter()
	os.Stderr = stderr
	var bundleLog bytes.Buffer
	log := zerolog.New(zerolog.MultiLevelWriter(&bundleLog, lw))
	log.Debug().Msg("walk detail")
	log.Info().Msg("walking home")
	log.Warn().Msg("unreadable file")
	w.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	if s := got.String(); strings.Count(s, "\n") != 1 || !strings.Contains(s, `"message":"unreadable file"`) {
		t.Errorf("stderr at warn: %q", s)
	}
	if s := bundleLog.String(); strings.Count(s, "\n") != 3 {
		t.Errorf("bundle log: %q", s)
	}
}
