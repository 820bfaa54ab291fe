package timeline

import (
	"bufio"
	"encoding/binary"
	"errors"
	"time"
	"unsafe"
)

// The event codec spills events to sorter runs: a flags byte, the time
// (Unix seconds and nanoseconds), the source line, Seq and Ord as varints,
// then the lengths of the string fields and their bytes one after the
// other, so a decoded event's strings share one allocation.

const (
	flagDated = 1 << iota
	flagSecondary
	flagReplayed
)

// eventStrings lists the event's string fields in codec order.
func eventStrings(e *Event) [21]*string {
	return [21]*string{(*string)(&e.TimeBasis), &e.Host, &e.User, &e.Agent, &e.SessionID, &e.ProjectPath, (*string)(&e.TurnType),
		&e.Model, &e.ToolName, &e.ToolUseID, &e.Text, &e.ToolInput, &e.IsError, &e.SourceFile, &e.BundleID, &e.Parser,
		&e.RecordID, &e.ParentSessionID, &e.Verified, &e.Recovered, &e.Provenance}
}

// AppendEventBinary appends e in the sorter's run encoding.
func AppendEventBinary(b []byte, e *Event) []byte {
	var fl byte
	if !e.Time.IsZero() {
		fl |= flagDated
	}
	if e.Secondary {
		fl |= flagSecondary
	}
	if e.Replayed {
		fl |= flagReplayed
	}
	b = append(b, fl)
	if fl&flagDated != 0 {
		b = binary.AppendVarint(b, e.Time.Unix())
		b = binary.AppendUvarint(b, uint64(e.Time.Nanosecond()))
	}
	b = binary.AppendVarint(b, e.SourceLine)
	b = binary.AppendVarint(b, e.Seq)
	b = binary.AppendVarint(b, e.Ord)
	strs := eventStrings(e)
	for _, p := range strs {
		b = binary.AppendUvarint(b, uint64(len(*p)))
	}
	b = binary.AppendUvarint(b, uint64(len(e.Action)))
	for _, p := range strs {
		b = append(b, *p...)
	}
	return append(b, e.Action...)
}

var errCodec = errors.New("timeline: corrupt run record")

// framedHeadMax bounds the head WriteEventFramed writes before the
// strings: the flags, the time, three numbers and 22 lengths.
const framedHeadMax = 1 + 5*binary.MaxVarintLen64 + 22*binary.MaxVarintLen64

// WriteEventFramed writes e as AppendEventBinary does, after its length,
// straight to w: the strings are copied from the event, never gathered in
// a record-sized buffer first.
func WriteEventFramed(w *bufio.Writer, e *Event) error {
	// The frame's length and the head are put together in w's own free
	// buffer (AvailableBuffer), after room for the length: a local array
	// handed to Write escaped to the heap, one allocation a row spilled.
	const room = binary.MaxVarintLen64
	buf := w.AvailableBuffer()
	if cap(buf) < room+framedHeadMax {
		if err := w.Flush(); err != nil {
			return err
		}
		if buf = w.AvailableBuffer(); cap(buf) < room+framedHeadMax {
			buf = make([]byte, 0, room+framedHeadMax) // a writer smaller than a head
		}
	}
	h := buf[:room]
	var fl byte
	if !e.Time.IsZero() {
		fl |= flagDated
	}
	if e.Secondary {
		fl |= flagSecondary
	}
	if e.Replayed {
		fl |= flagReplayed
	}
	h = append(h, fl)
	if fl&flagDated != 0 {
		h = binary.AppendVarint(h, e.Time.Unix())
		h = binary.AppendUvarint(h, uint64(e.Time.Nanosecond()))
	}
	h = binary.AppendVarint(h, e.SourceLine)
	h = binary.AppendVarint(h, e.Seq)
	h = binary.AppendVarint(h, e.Ord)
	strs := eventStrings(e)
	total := 0
	for _, p := range strs {
		h = binary.AppendUvarint(h, uint64(len(*p)))
		total += len(*p)
	}
	h = binary.AppendUvarint(h, uint64(len(e.Action)))
	total += len(e.Action)
	var frame [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(frame[:], uint64(len(h)-room+total))
	copy(h[room-n:room], frame[:n])
	if _, err := w.Write(h[room-n:]); err != nil {
		return err
	}
	for _, p := range strs {
		if _, err := w.WriteString(*p); err != nil {
			return err
		}
	}
	_, err := w.WriteString(string(e.Action))
	return err
}

// DecodeEventOwned is DecodeEventBinary for a record whose memory the
// event's strings may keep (b is never written again).
func DecodeEventOwned(b []byte, e *Event) error { return decodeEvent(b, e, true) }

// DecodeEventBinary reads an event AppendEventBinary wrote.
func DecodeEventBinary(b []byte, e *Event) error { return decodeEvent(b, e, false) }

func decodeEvent(b []byte, e *Event, owned bool) error {
	if len(b) == 0 {
		return errCodec
	}
	fl := b[0]
	p := 1
	varint := func() int64 {
		if p < 0 {
			return 0
		}
		v, n := binary.Varint(b[p:])
		if n <= 0 {
			p = -1 << 30
			return 0
		}
		p += n
		return v
	}
	uvarint := func() uint64 {
		if p < 0 {
			return 0
		}
		v, n := binary.Uvarint(b[p:])
		if n <= 0 {
			p = -1 << 30
			return 0
		}
		p += n
		return v
	}
	*e = Event{Secondary: fl&flagSecondary != 0, Replayed: fl&flagReplayed != 0}
	if fl&flagDated != 0 {
		sec := varint()
		nsec := uvarint()
		if p < 0 {
			return errCodec
		}
		e.Time = time.Unix(sec, int64(nsec)).UTC()
	}
	e.SourceLine, e.Seq, e.Ord = varint(), varint(), varint()
	if p < 0 {
		return errCodec
	}
	var lens [22]uint64
	total := uint64(0)
	for i := range lens {
		lens[i] = uvarint()
		total += lens[i]
	}
	if p < 0 || uint64(len(b)-p) != total {
		return errCodec
	}
	// The text and tool_input get one allocation, the other strings
	// another: a string of the row that outlives it (a session's id and
	// host in the sessions' aggregator, a detector's key) keeps the
	// short fields reachable, not the row's text.
	var pre uint64
	for _, n := range lens[:textField] {
		pre += n
	}
	big := lens[textField] + lens[textField+1]
	data := b[p:]
	var long, short string
	switch {
	case owned:
		long = unsafe.String(unsafe.SliceData(data[pre:]), big)
	case big > 0:
		long = string(data[pre : pre+big])
	}
	if big == 0 && !owned {
		short = string(data)
	} else {
		buf := make([]byte, 0, total-big)
		buf = append(append(buf, data[:pre]...), data[pre+big:]...)
		short = unsafe.String(unsafe.SliceData(buf), len(buf))
	}
	o := uint64(0)
	for i, ptr := range eventStrings(e) {
		switch {
		case i == textField || i == textField+1:
			*ptr = long[o-pre : o-pre+lens[i]]
		case i < textField:
			*ptr = short[o : o+lens[i]]
		default:
			*ptr = short[o-big : o-big+lens[i]]
		}
		o += lens[i]
	}
	e.Action = Action(short[o-big : o-big+lens[21]])
	return nil
}

// textField is the index of Text in eventStrings (ToolInput follows it).
const textField = 10
