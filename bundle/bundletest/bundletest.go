// Package bundletest builds bundles for tests, including hostile ones that
// the Writer would never produce.
package bundletest

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/bundle"
	"github.com/klauspost/compress/zstd"
)

// File is one artifact for Build.
type File struct {
	Path, Agent, Target, Kind, User string
	Data                            []byte
	MTime                           time.Time
}

// Build writes a valid bundle holding files, with a fixed header.
func Build(t testing.TB, files []File) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := bundle.NewWriter(&buf, bundle.Header{BundleID: "0190b1a4-0000-7000-8000-000000000001", CollectorVersion: "test", StartedUTC: "2026-12-01T00:00:00.000Z", Host: bundle.Host{Hostname: "testhost"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		kind := f.Kind
		if kind == "" {
			kind = "transcript"
		}
		if _, err := w.AddFile(bundle.Entry{Path: f.Path, Agent: f.Agent, Target: f.Target, Kind: kind, User: f.User, Type: "file", MTime: bundle.FormatTime(f.MTime)}, int64(len(f.Data)), bytes.NewReader(f.Data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(bundle.Summary{Complete: true, EndedUTC: "2026-01-01T00:00:01.000Z"}, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Raw is a tar member for RawBundle.
type Raw struct {
	Name     string
	Type     byte // tar.TypeReg when 0
	Data     []byte
	Linkname string
	PAX      map[string]string
}

// RawBundle writes members verbatim as a zstd tar stream, after a valid
// version 1 bundle.json unless noHeader (version 1 members carry their
// metadata as DOUBLEAGENT.* PAX records).
func RawBundle(t testing.TB, members []Raw, noHeader bool) []byte {
	t.Helper()
	return RawBundleVersion(t, 1, members, noHeader)
}

// RawBundleVersion is RawBundle with a header of the given format version
// (from version 2 a member's metadata is one "comment" PAX record).
func RawBundleVersion(t testing.TB, version int, members []Raw, noHeader bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if !noHeader {
		hdr, _ := json.Marshal(bundle.Header{FormatVersion: version, BundleID: "raw"})
		members = append([]Raw{{Name: bundle.HeaderName, Data: hdr}}, members...)
	}
	for _, m := range members {
		typ := m.Type
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: m.Name, Typeflag: typ, Mode: 0o644, Size: int64(len(m.Data)), Linkname: m.Linkname, Format: tar.FormatPAX, PAXRecords: m.PAX}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write(m.Data); err != nil {
				t.Fatal(err)
			}
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// ManifestLine renders manifest rows for a RawBundle manifest member.
func ManifestLine(t testing.TB, rows ...any) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}
