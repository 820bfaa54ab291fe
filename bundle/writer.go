package bundle

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Writer streams a bundle: header first, artifacts hashed as they are
// copied, then the manifest and the log. It is not safe for concurrent use.
type Writer struct {
	out io.Writer // what the zstd frames are written to
	zw  *zstd.Encoder
	// sink is what the tar writer writes to: zw, except while a member's
	// zero padding is written as a frame of its own (padStopped).
	sink   switchWriter
	tw     *tar.Writer
	counts map[string]int
	bytes  int64
	files  int
	err    error
	closed bool
	// names counts the members per escaped base name, keyed by a keyed
	// 128-bit hash of the name so memory does not grow with path lengths.
	names map[nameKey]int
	seed  maphash.Seed
	// The manifest is held compressed as rows come (a row costs tens of
	// bytes, not a kilobyte), except the last row, which FlagLast may
	// still amend.
	man     manifestSpool
	pending *Entry
	// headerSum and manifestSum are the SHA-256 of the bundle.json and
	// manifest.jsonl members' bytes, for the sidecar (HeaderSHA256,
	// ManifestSHA256).
	headerSum, manifestSum string
}

type nameKey [2]uint64

func (w *Writer) nameKey(s string) nameKey {
	var h maphash.Hash
	h.SetSeed(w.seed)
	h.WriteString(s)
	a := h.Sum64()
	h.WriteByte(0)
	return nameKey{a, h.Sum64()}
}

// manifestSpool holds manifest rows zstd-compressed in memory and counts
// their uncompressed size, which the tar header needs first.
type manifestSpool struct {
	buf bytes.Buffer
	zw  *zstd.Encoder
	enc *json.Encoder
	n   int64
}

func (m *manifestSpool) Write(p []byte) (int, error) {
	if m.zw == nil {
		zw, err := zstd.NewWriter(&m.buf, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
		if err != nil {
			return 0, err
		}
		m.zw = zw
	}
	n, err := m.zw.Write(p)
	m.n += int64(n)
	return n, err
}

func (m *manifestSpool) encode(v any) error {
	if m.enc == nil {
		m.enc = json.NewEncoder(m)
		m.enc.SetEscapeHTML(false)
	}
	return m.enc.Encode(v)
}

// reader closes the compressed rows and returns them uncompressed.
func (m *manifestSpool) reader() (io.Reader, func(), error) {
	if m.zw == nil {
		return bytes.NewReader(nil), func() {}, nil
	}
	if err := m.zw.Close(); err != nil {
		return nil, nil, err
	}
	zr, err := zstd.NewReader(&m.buf, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, nil, err
	}
	return zr, zr.Close, nil
}

// NewWriter writes hdr as bundle.json to a new bundle on w. FormatVersion
// is set by the writer.
func NewWriter(w io.Writer, hdr Header) (*Writer, error) {
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	bw := &Writer{out: w, zw: zw, counts: map[string]int{}, names: map[nameKey]int{}, seed: maphash.MakeSeed()}
	bw.sink.w = zw
	bw.tw = tar.NewWriter(&bw.sink)
	hdr.FormatVersion = FormatVersion
	b, err := json.MarshalIndent(hdr, "", "  ")
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	if err := bw.writeMember(HeaderName, hdr.startTime(), b, nil); err != nil {
		return nil, err
	}
	hs := sha256.Sum256(b)
	bw.headerSum = hex.EncodeToString(hs[:])
	if err := bw.flush(); err != nil {
		return nil, err
	}
	return bw, nil
}

func (h Header) startTime() time.Time {
	t := parseTime(h.StartedUTC)
	if t.IsZero() {
		return time.Unix(0, 0)
	}
	return t
}

func (w *Writer) writeMember(name string, mtime time.Time, data []byte, pax map[string]string) error {
	if w.err != nil {
		return w.err
	}
	h := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(data)), Mode: 0o644, ModTime: mtime.UTC().Truncate(time.Second), Format: tar.FormatPAX, PAXRecords: pax}
	if err := w.writeHeader(h); err != nil {
		return err
	}
	if _, err := w.tw.Write(data); err != nil {
		w.err = err
		return err
	}
	return nil
}

// writeMemberFrom writes a member of size bytes read from r.
func (w *Writer) writeMemberFrom(name string, mtime time.Time, size int64, r io.Reader) error {
	if w.err != nil {
		return w.err
	}
	h := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o644, ModTime: mtime.UTC().Truncate(time.Second), Format: tar.FormatPAX}
	if err := w.writeHeader(h); err != nil {
		return err
	}
	if _, err := io.CopyN(w.tw, r, size); err != nil {
		w.err = err
		return err
	}
	return nil
}

// writeHeader writes a member's tar header and ends the zstd block there,
// so a reader of a bundle cut anywhere in the member's content has its
// header, and names the member where the stream stops (a zstd decoder
// delivers a block whole or not at all).
func (w *Writer) writeHeader(h *tar.Header) error {
	if err := w.tw.WriteHeader(h); err != nil {
		w.err = err
		return err
	}
	if err := w.zw.Flush(); err != nil {
		w.err = err
		return err
	}
	return nil
}

func (w *Writer) flush() error {
	if err := w.tw.Flush(); err != nil {
		w.err = err
		return err
	}
	if err := w.zw.Flush(); err != nil {
		w.err = err
		return err
	}
	return nil
}

// Err returns the first write error, which makes the writer unusable.
func (w *Writer) Err() error { return w.err }

// ErrShortRead is wrapped in AddFile's error when the source gave fewer
// bytes than declared; the member was padded with zeros to its size.
var ErrShortRead = errors.New("source shorter than declared size")

// AddFile stores one artifact: exactly size bytes read from r are written
// as a member (zero-padded if r ends early, in which case the returned
// error wraps ErrShortRead and the entry still describes what was written),
// hashed while written. e.Path is the original path (raw bytes); the
// returned Entry has ArchivePath, Size, SHA256, Status collected and the
// escaped Path, and is recorded for the manifest. A non-nil error other
// than ErrShortRead is a write error: the bundle cannot continue.
func (w *Writer) AddFile(e Entry, size int64, r io.Reader) (Entry, error) {
	if w.err != nil {
		return e, w.err
	}
	base := ArchiveName(e.Path) // from the raw path: escaped once
	e = w.prepare(e)
	name := base
	key := w.nameKey(base)
	if n := w.names[key]; n > 0 {
		name = fmt.Sprintf("%s%%23%d", base, n) // duplicate escaped name: keep both
	}
	w.names[key]++
	e.ArchivePath = name
	meta, err := encodeMeta(e)
	if err != nil {
		w.err = err
		return e, err
	}
	pax := map[string]string{paxComment: meta}
	mt := parseTime(e.MTime)
	if mt.IsZero() {
		mt = time.Unix(0, 0)
	}
	h := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o644, ModTime: mt.Truncate(time.Second), Format: tar.FormatPAX, PAXRecords: pax}
	if err := w.writeHeader(h); err != nil {
		return e, err
	}
	hs := sha256.New()
	mw := errWriter{io.MultiWriter(w.tw, hs)}
	n, err := io.CopyN(mw, r, size)
	var short error
	if err != nil && errors.Is(err, ErrStopped) && !isWriteErr(err) {
		// The collection was interrupted inside this file: the member is
		// padded to its declared size at once (a frame of RLE blocks,
		// whatever the size), and its row says how many bytes are the
		// file's, with their hash.
		sum := hex.EncodeToString(hs.Sum(nil))
		if perr := w.padStopped(size - n); perr != nil {
			return e, perr
		}
		if err := w.flush(); err != nil {
			return e, err
		}
		e.Size = size
		e.SHA256 = sum
		e.Status = StatusCollected
		e.InterruptedAt = &n
		e.Error = fmt.Sprintf("the collection was interrupted while this file was copied: the member holds its first %d of %d bytes, then zero padding; sha256 is of those %d bytes", n, size, n)
		w.record(e)
		w.bytes += size
		w.files++
		return e, fmt.Errorf("%w: after %d of %d bytes", ErrStopped, n, size)
	}
	if err != nil {
		if !errors.Is(err, io.EOF) && !isWriteErr(err) {
			// A read error: pad and report.
			short = fmt.Errorf("%w: read %d of %d bytes: %v", ErrShortRead, n, size, err)
		} else if errors.Is(err, io.EOF) {
			short = fmt.Errorf("%w: read %d of %d bytes", ErrShortRead, n, size)
		} else {
			w.err = err
			return e, err
		}
		if _, perr := io.CopyN(mw, zeroReader{}, size-n); perr != nil {
			w.err = perr
			return e, perr
		}
	}
	// End the zstd block here, so a bundle cut short later still yields
	// every artifact written before the cut.
	if err := w.flush(); err != nil {
		return e, err
	}
	e.Size = size
	e.SHA256 = hex.EncodeToString(hs.Sum(nil))
	e.Status = StatusCollected
	if short != nil && e.Error == "" {
		e.Error = short.Error()
	}
	w.record(e)
	w.bytes += size
	w.files++
	return e, short
}

// ErrStopped is what a source given to AddFile returns (wrapped) when the
// collection is interrupted while it is read: AddFile then pads the member
// to its declared size in constant time (padStopped), records the row
// with InterruptedAt and the hash of the bytes copied, and returns an
// error wrapping ErrStopped. The bundle can still be closed.
var ErrStopped = errors.New("bundle: the copy was stopped")

// switchWriter writes to w, or, while off, drops what it is given.
type switchWriter struct {
	w   io.Writer
	off bool
}

func (s *switchWriter) Write(p []byte) (int, error) {
	if s.off {
		return len(p), nil
	}
	return s.w.Write(p)
}

// padStopped writes n zero bytes of the current member without
// compressing or hashing them: the zstd frame is ended, a frame of
// run-length blocks that decodes to n zeros is written (4 bytes per
// 128 KiB: a 4 GiB rest costs 128 KiB and no time), the tar writer is told
// the bytes were written (it only counts them) and a new frame begins.
// Readers accept any number of frames (format.md, Container).
func (w *Writer) padStopped(n int64) error {
	if n <= 0 {
		return nil
	}
	if err := w.zw.Close(); err != nil {
		w.err = err
		return err
	}
	if err := writeZeroFrame(w.out, n); err != nil {
		w.err = err
		return err
	}
	w.sink.off = true
	for rest := n; rest > 0; {
		k := min(rest, int64(len(zeroChunk)))
		if _, err := w.tw.Write(zeroChunk[:k]); err != nil {
			w.sink.off = false
			w.err = err
			return err
		}
		rest -= k
	}
	w.sink.off = false
	w.zw.Reset(w.out)
	return nil
}

// zstdRLEBlock is the largest block a zstd frame with a 128 KiB window
// holds (RFC 8878, 3.1.1.2.4: Block_Maximum_Size).
const zstdRLEBlock = 128 << 10

// writeZeroFrame writes one zstd frame (RFC 8878) that decodes to n zero
// bytes: no checksum, no content size, a 128 KiB window, then RLE blocks
// of up to 128 KiB of the byte 0x00, the last one flagged last.
func writeZeroFrame(out io.Writer, n int64) error {
	buf := make([]byte, 0, 64<<10)
	buf = append(buf, 0x28, 0xB5, 0x2F, 0xFD, // magic
		0x00, // frame header descriptor: no content size, not single segment, no checksum, no dictionary
		0x38, // window descriptor: exponent 7, mantissa 0: 1<<17 bytes
	)
	for n > 0 {
		k := min(n, zstdRLEBlock)
		n -= k
		hdr := uint32(k)<<3 | 1<<1 // Block_Type 1: RLE
		if n == 0 {
			hdr |= 1 // Last_Block
		}
		buf = append(buf, byte(hdr), byte(hdr>>8), byte(hdr>>16), 0x00)
		if len(buf)+4 > cap(buf) || n == 0 {
			if _, err := out.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return nil
}

// encodeMeta renders an artifact's metadata as its "comment" PAX record.
func encodeMeta(e Entry) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(memberMeta{Path: e.Path, User: e.User, Home: e.Home, Agent: e.Agent, Target: e.Target, Kind: e.Kind}); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

type errWriter struct{ w io.Writer }

func (e errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil {
		err = writeErr{err}
	}
	return n, err
}

type writeErr struct{ error }

func (e writeErr) Unwrap() error { return e.error }

func isWriteErr(err error) bool {
	var we writeErr
	return errors.As(err, &we)
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// AddEntry records a manifest row for a path whose content is not stored
// (a symlink, a skipped or unreadable path).
func (w *Writer) AddEntry(e Entry) {
	e = w.prepare(e)
	e.ArchivePath = ""
	w.record(e)
}

func (w *Writer) prepare(e Entry) Entry { return PrepareEntry(e) }

// PrepareEntry is a file row as the manifest holds it: its record kind
// set, its path, link target and sidecar_of escaped (path_b64 keeping a
// path's raw bytes). The collector's --inventory tallies rows so.
func PrepareEntry(e Entry) Entry {
	e.Record = RecordFile
	esc, changed := EscapePath(e.Path)
	if changed {
		e.PathB64 = base64.StdEncoding.EncodeToString([]byte(e.Path))
	}
	e.Path = esc
	if e.LinkTarget != "" {
		e.LinkTarget, _ = EscapePath(e.LinkTarget)
	}
	if e.SidecarOf != "" {
		e.SidecarOf, _ = EscapePath(e.SidecarOf)
	}
	return e
}

func (w *Writer) record(e Entry) {
	w.flushPending()
	w.pending = &e
	w.counts[e.Status]++
}

// flushPending moves the amendable last row into the compressed manifest.
func (w *Writer) flushPending() {
	if w.pending == nil {
		return
	}
	if err := w.man.encode(w.pending); err != nil && w.err == nil {
		w.err = fmt.Errorf("manifest: %w", err)
	}
	w.pending = nil
}

// Counts returns rows per status so far.
func (w *Writer) Counts() map[string]int {
	out := make(map[string]int, len(w.counts))
	for k, v := range w.counts {
		out[k] = v
	}
	return out
}

// BytesCollected returns the artifact bytes written so far.
func (w *Writer) BytesCollected() int64 { return w.bytes }

// Close writes the manifest with its closing summary (Counts, BytesCollected
// and Files are filled in), then the log, and closes the compressed stream.
// It does not close the underlying writer.
func (w *Writer) Close(s Summary, log []byte) error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.err != nil {
		// Best effort: finish the zstd frame so what was written is readable.
		_ = w.zw.Close()
		return w.err
	}
	w.flushPending()
	s.Record = RecordSummary
	s.Counts = w.Counts()
	s.BytesCollected = w.bytes
	s.Files = w.files
	if err := w.man.encode(&s); err != nil {
		_ = w.zw.Close()
		return err
	}
	if w.err != nil {
		_ = w.zw.Close()
		return w.err
	}
	end := parseTime(s.EndedUTC)
	if end.IsZero() {
		end = time.Unix(0, 0)
	}
	rows, done, err := w.man.reader()
	if err != nil {
		_ = w.zw.Close()
		return err
	}
	mh := sha256.New()
	err = w.writeMemberFrom(ManifestName, end, w.man.n, io.TeeReader(rows, mh))
	done()
	if err == nil {
		err = w.flush()
	}
	if err != nil {
		_ = w.zw.Close()
		return err
	}
	w.manifestSum = hex.EncodeToString(mh.Sum(nil))
	// The log's block ends too: a cut in the end-of-archive that follows
	// still delivers the whole log.
	if err := w.writeMember(LogName, end, log, nil); err != nil {
		_ = w.zw.Close()
		return err
	}
	if err := w.flush(); err != nil {
		_ = w.zw.Close()
		return err
	}
	if err := w.tw.Close(); err != nil {
		w.err = err
		_ = w.zw.Close()
		return err
	}
	if err := w.zw.Close(); err != nil {
		w.err = err
		return err
	}
	return nil
}

// HeaderSHA256 is the SHA-256 of the bundle.json member's bytes.
func (w *Writer) HeaderSHA256() string { return w.headerSum }

// ManifestSHA256 is the SHA-256 of the manifest.jsonl member's bytes,
// known once Close has written it ("" before, or after a failed Close).
func (w *Writer) ManifestSHA256() string { return w.manifestSum }

// FlagLast lets the caller amend the most recent manifest row (for a fact
// learnt after the copy, such as a change detected once it finished).
func (w *Writer) FlagLast(fn func(e *Entry)) {
	if w.pending != nil {
		fn(w.pending)
	}
}
