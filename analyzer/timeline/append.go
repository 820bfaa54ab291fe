package timeline

import (
	"bufio"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendRow appends e's timeline row as one JSON line (fields in Fields
// order, trailing '\n') to buf: the bytes AppendJSON writes for e.ToRow(),
// made without reflection or an encoder per row (a test holds the two
// equal on every golden row).
func AppendRow(buf []byte, e *Event) []byte { return appendRow(buf, e, AppendString) }

// appendRow is AppendRow with the text and tool input written by long
// (which may hand them to a stream and return buf emptied).
func appendRow(buf []byte, e *Event, long func(buf []byte, s string) []byte) []byte {
	tb := string(e.TimeBasis)
	if e.Time.IsZero() {
		tb = string(TimeNone)
	}
	sec := ""
	if e.Secondary {
		sec = "true"
	}
	buf = append(buf, `{"timestamp_utc":`...)
	if e.Time.IsZero() {
		buf = append(buf, `""`...)
	} else {
		buf = append(buf, '"')
		buf = e.Time.UTC().AppendFormat(buf, "2006-01-02T15:04:05.000Z")
		buf = append(buf, '"')
	}
	buf = field(buf, `,"host":`, e.Host)
	buf = field(buf, `,"user":`, e.User)
	buf = field(buf, `,"agent":`, e.Agent)
	buf = field(buf, `,"session_id":`, e.SessionID)
	buf = field(buf, `,"project_path":`, e.ProjectPath)
	buf = field(buf, `,"turn_type":`, string(e.TurnType))
	buf = field(buf, `,"model":`, e.Model)
	buf = field(buf, `,"tool_name":`, e.ToolName)
	buf = field(buf, `,"tool_use_id":`, e.ToolUseID)
	buf = long(append(buf, `,"text":`...), e.Text)
	buf = long(append(buf, `,"tool_input":`...), e.ToolInput)
	buf = field(buf, `,"is_error":`, e.IsError)
	buf = field(buf, `,"source_file":`, e.SourceFile)
	buf = append(buf, `,"source_line":`...)
	buf = strconv.AppendInt(buf, e.SourceLine, 10)
	buf = field(buf, `,"bundle_id":`, e.BundleID)
	buf = field(buf, `,"parser":`, e.Parser)
	buf = field(buf, `,"secondary":`, sec)
	buf = field(buf, `,"time_basis":`, tb)
	buf = field(buf, `,"record_id":`, e.RecordID)
	buf = field(buf, `,"parent_session_id":`, e.ParentSessionID)
	buf = field(buf, `,"verified":`, e.Verified)
	buf = field(buf, `,"action":`, string(e.Action))
	if e.Recovered != "" {
		buf = field(buf, `,"recovered":`, e.Recovered)
	}
	if e.Provenance != "" {
		buf = field(buf, `,"provenance":`, e.Provenance)
	}
	return append(buf, "}\n"...)
}

func field(buf []byte, name, v string) []byte {
	return AppendString(append(buf, name...), v)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way the timeline's encoder
// writes it: '"' and '\' escaped, \b \f \n \r \t by name, other control
// characters and U+2028, U+2029 as \u00XX / \u202X, invalid UTF-8 as
// U+FFFD, no HTML escaping.
func AppendString(buf []byte, s string) []byte {
	return append(appendStringBody(append(buf, '"'), s), '"')
}

// appendStringBody is AppendString without the quotes; escaping is per
// rune, so a string cut at rune starts encodes piece by piece to the same
// bytes.
func appendStringBody(buf []byte, s string) []byte {
	// Valid UTF-8 with no 0xE2 byte (the lead byte of U+2028 and U+2029)
	// needs no rune decoding: only ASCII bytes can need an escape.
	if utf8.ValidString(s) && strings.IndexByte(s, 0xe2) < 0 {
		start := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			if safeByte[c] {
				continue
			}
			buf = appendEscape(append(buf, s[start:i]...), c)
			start = i + 1
		}
		return append(buf, s[start:]...)
	}
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeByte[c] {
				i++
				continue
			}
			buf = appendEscape(append(buf, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, "\ufffd"...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(buf, s[start:]...)
}

// safeByte marks the bytes written as they are (bytes >= 0x80 are handled
// by the caller).
var safeByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

func appendEscape(buf []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(buf, '\\', c)
	case '\b':
		return append(buf, '\\', 'b')
	case '\f':
		return append(buf, '\\', 'f')
	case '\n':
		return append(buf, '\\', 'n')
	case '\r':
		return append(buf, '\\', 'r')
	case '\t':
		return append(buf, '\\', 't')
	}
	return append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// writeLongRow writes e's row to w with its text and tool input escaped
// 64 KiB at a time, so a 50 MB tool output is not built into a second
// row-sized buffer.
func writeLongRow(w *bufio.Writer, buf []byte, e *Event) ([]byte, error) {
	var err error
	long := func(b []byte, s string) []byte {
		if err != nil {
			return b[:0]
		}
		b = append(b, '"')
		for len(s) > 0 {
			n := min(len(s), 64<<10)
			for n < len(s) && !utf8.RuneStart(s[n]) {
				n++
			}
			b = appendStringBody(b, s[:n])
			s = s[n:]
			if len(b) >= 64<<10 {
				if _, err = w.Write(b); err != nil {
					return b[:0]
				}
				b = b[:0]
			}
		}
		return append(b, '"')
	}
	buf = appendRow(buf[:0], e, long)
	if err != nil {
		return buf, err
	}
	_, err = w.Write(buf)
	return buf, err
}

// ValidUTF8 is s with each byte that is not part of valid UTF-8 (a lone
// surrogate's three bytes included) replaced by U+FFFD, as AppendString
// writes it: every other output (CSV, Parquet, bodyfile, Markdown) uses it
// so that all carry the value the JSON Lines timeline carries.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
