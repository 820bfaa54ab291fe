package claudetranscript

import (
	"bytes"
	"reflect"
	"strings"
	"sync"

	"github.com/doubleagent/doubleagent/analyzer/parser"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
)

// recordDecoder decodes transcript lines into record in one pass over a
// reused jsontext.Decoder: each member is matched by its exact name and
// read straight into its typed field (strings and booleans as tokens, the
// message through message.UnmarshalJSONFrom, raw members as slices of the
// line), the rest skipped. It replaces json.Unmarshal's reflection and
// case-folded name matching on the hot path.
//
// It gives up (false) on anything where json.Unmarshal (the encoding/json
// v1 semantics every earlier version of this parser had) could decide
// otherwise: an error of any kind, a member named with an escape, a name
// that matches a field only case-insensitively or is not ASCII, a field
// named twice, a value of another type than its field's, bytes after the
// object. The caller then decodes the line with json.Unmarshal, so the
// rows, problems and their wording stay what they were.
// TestRecordDecoderMatchesUnmarshal compares the two on every line of the
// fixtures and samples and on mutated lines.
//
// One record, one message and one decoder serve every line of a file,
// and the short strings that repeat from record to record (types, session
// and agent ids, cwd, entrypoint, model) are interned, the table kept
// from file to file with the decoder (decoders): the
// allocations per line are the strings a row keeps.
type recordDecoder struct {
	bb   bytes.Buffer
	dec  *jsontext.Decoder
	rec  record
	msg  message
	strs map[string]string
	// light is lightRecord's scratch, kept with the decoder from file
	// to file (made per file, its growing copy of the lines it shortens
	// was 15 MB of the 277 MB allocated on 2,560 transcripts).
	light lightScratch
}

// maxInterned bounds the strings a decoder interns (its table is emptied
// when it is full and the decoder goes back to the pool).
const maxInterned = 4096

var v1opts = json.DefaultOptionsV1()

func newRecordDecoder() *recordDecoder {
	return &recordDecoder{dec: jsontext.NewDecoder(bytes.NewReader(nil), v1opts), strs: map[string]string{}}
}

// decoders keeps recordDecoders between files: the JSON decoder's
// buffers and the interned strings (types, session ids, folders) carry
// over to the next file instead of being made again for each.
var decoders = sync.Pool{New: func() any { return newRecordDecoder() }}

func getRecordDecoder() *recordDecoder { return decoders.Get().(*recordDecoder) }

// putRecordDecoder returns d to the pool once its file is parsed; d must
// not be used afterwards.
func putRecordDecoder(d *recordDecoder) {
	d.rec, d.msg = record{}, message{}
	d.bb = bytes.Buffer{}
	d.dec.Reset(bytes.NewReader(nil), v1opts)
	if len(d.strs) >= maxInterned {
		clear(d.strs)
	}
	decoders.Put(d)
}

// record returns the decoder's record, zeroed: valid until the next call.
func (d *recordDecoder) record() *record {
	m := d.msg
	d.rec, d.msg = record{}, message{Content: msgContent{Blocks: m.Content.Blocks[:0]}, spread: m.spread[:0]}
	clear(m.Content.Blocks[:cap(m.Content.Blocks)])
	return &d.rec
}

// intern returns s's text as a string, shared with the earlier records of
// the file that had the same text.
func (d *recordDecoder) intern(b []byte) string {
	if s, ok := d.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.strs) < maxInterned && len(b) <= 256 { // a long one is not kept past its line
		d.strs[s] = s
	}
	return s
}

// decode fills r (which must be zero) from line; false when the line must
// be decoded by json.Unmarshal instead (r is then in an unspecified state).
// Raw members (record's json.RawMessage fields) alias line.
func (d *recordDecoder) decode(line []byte, r *record) bool {
	d.bb = *bytes.NewBuffer(line)
	d.dec.Reset(&d.bb, v1opts)
	dec := d.dec
	if dec.PeekKind() != '{' {
		return false
	}
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	var seen uint64
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil || len(name) < 2 || name[0] != '"' || bytes.IndexByte(name, '\\') >= 0 {
			return false
		}
		key := name[1 : len(name)-1]
		f, ok, folds := lookupField(key)
		if !ok {
			if folds {
				return false
			}
			if dec.SkipValue() != nil {
				return false
			}
			continue
		}
		if seen&(1<<f.idx) != 0 {
			return false
		}
		seen |= 1 << f.idx
		if !f.read(d, dec, r) {
			return false
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return false
	}
	for _, c := range line[dec.InputOffset():] {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// recField reads one member's value into its field of record.
type recField struct {
	idx  uint
	read func(d *recordDecoder, dec *jsontext.Decoder, r *record) bool
}

// readStr reads a string member (null leaves the field as it is, as
// json.Unmarshal does; any other kind gives up).
func readStr(dec *jsontext.Decoder, p *string) bool {
	switch dec.PeekKind() {
	case '"':
		s, err := parser.ReadString(dec)
		if err != nil {
			return false
		}
		*p = s
		return true
	case 'n':
		_, err := dec.ReadToken()
		return err == nil
	}
	return false
}

func readBool(dec *jsontext.Decoder, p *bool) bool {
	switch dec.PeekKind() {
	case 't', 'f':
		tok, err := dec.ReadToken()
		if err != nil {
			return false
		}
		*p = tok.Bool()
		return true
	case 'n':
		_, err := dec.ReadToken()
		return err == nil
	}
	return false
}

// readInterned is readStr for a member whose text repeats from record to
// record: a string with no escape and only ASCII is interned; any other
// is decoded as readStr does.
func (d *recordDecoder) readInterned(dec *jsontext.Decoder, p *string) bool {
	if dec.PeekKind() != '"' {
		return readStr(dec, p)
	}
	v, err := dec.ReadValue()
	if err != nil {
		return false
	}
	b := v[1 : len(v)-1]
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return jsonv2.Unmarshal(v, p, v1opts) == nil
		}
	}
	*p = d.intern(b)
	return true
}

// readRaw keeps a member's value as written (null as "null", as
// json.RawMessage's own decoding does), aliasing the line.
func readRaw(dec *jsontext.Decoder, p *json.RawMessage) bool {
	v, err := dec.ReadValue()
	if err != nil {
		return false
	}
	*p = json.RawMessage(v)
	return true
}

// readAny decodes a member into a field of a nested type through the
// v1 options (the members record rarely has: compactMetadata, hookInfos,
// forkedFrom, toolUseResult).
func readAny(dec *jsontext.Decoder, p any) bool {
	return jsonv2.UnmarshalDecode(dec, p, v1opts) == nil
}

var recFields = func() map[string]recField {
	type reader = func(*recordDecoder, *jsontext.Decoder, *record) bool
	str := func(get func(r *record) *string) reader {
		return func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readStr(dec, get(r)) }
	}
	istr := func(get func(r *record) *string) reader {
		return func(d *recordDecoder, dec *jsontext.Decoder, r *record) bool { return d.readInterned(dec, get(r)) }
	}
	boo := func(get func(r *record) *bool) reader {
		return func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readBool(dec, get(r)) }
	}
	raw := func(get func(r *record) *json.RawMessage) reader {
		return func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readRaw(dec, get(r)) }
	}
	fs := map[string]reader{
		"type":                      istr(func(r *record) *string { return &r.Type }),
		"subtype":                   istr(func(r *record) *string { return &r.Subtype }),
		"uuid":                      str(func(r *record) *string { return &r.UUID }),
		"sessionId":                 istr(func(r *record) *string { return &r.SessionID }),
		"cwd":                       istr(func(r *record) *string { return &r.Cwd }),
		"timestamp":                 str(func(r *record) *string { return &r.Timestamp }),
		"agentId":                   istr(func(r *record) *string { return &r.AgentID }),
		"requestId":                 str(func(r *record) *string { return &r.RequestID }),
		"entrypoint":                istr(func(r *record) *string { return &r.Entrypoint }),
		"promptSource":              istr(func(r *record) *string { return &r.PromptSource }),
		"turnOrigin":                istr(func(r *record) *string { return &r.TurnOrigin }),
		"permissionMode":            istr(func(r *record) *string { return &r.PermissionMode }),
		"requestedModel":            istr(func(r *record) *string { return &r.RequestedModel }),
		"toolDenialKind":            istr(func(r *record) *string { return &r.ToolDenialKind }),
		"summary":                   str(func(r *record) *string { return &r.Summary }),
		"operation":                 istr(func(r *record) *string { return &r.Operation }),
		"stopReason":                istr(func(r *record) *string { return &r.StopReason }),
		"remoteSessionId":           istr(func(r *record) *string { return &r.RemoteSessionID }),
		"continuedInSessionId":      str(func(r *record) *string { return &r.ContinuedInSessionID }),
		"url":                       str(func(r *record) *string { return &r.URL }),
		"taskId":                    str(func(r *record) *string { return &r.TaskID }),
		"cron":                      str(func(r *record) *string { return &r.Cron }),
		"isSidechain":               boo(func(r *record) *bool { return &r.IsSidechain }),
		"isMeta":                    boo(func(r *record) *bool { return &r.IsMeta }),
		"isCompactSummary":          boo(func(r *record) *bool { return &r.IsCompactSummary }),
		"isVisibleInTranscriptOnly": boo(func(r *record) *bool { return &r.IsVisibleInTranscriptOnly }),
		"isApiErrorMessage":         boo(func(r *record) *bool { return &r.IsAPIErrorMessage }),
		"preventedContinuation":     boo(func(r *record) *bool { return &r.PreventedContinuation }),
		"content":                   raw(func(r *record) *json.RawMessage { return &r.Content }),
		"permissionDecision":        raw(func(r *record) *json.RawMessage { return &r.PermissionDecision }),
		"data":                      raw(func(r *record) *json.RawMessage { return &r.Data }),
		"attachment":                raw(func(r *record) *json.RawMessage { return &r.Attachment }),
		"error":                     raw(func(r *record) *json.RawMessage { return &r.Error }),
		"retryAttempt":              raw(func(r *record) *json.RawMessage { return &r.RetryAttempt }),
		"maxRetries":                raw(func(r *record) *json.RawMessage { return &r.MaxRetries }),
		"retryInMs":                 raw(func(r *record) *json.RawMessage { return &r.RetryInMs }),
		"hookErrors":                raw(func(r *record) *json.RawMessage { return &r.HookErrors }),
		"remoteSourced":             raw(func(r *record) *json.RawMessage { return &r.RemoteSourced }),
		"bridgeSessionId":           raw(func(r *record) *json.RawMessage { return &r.BridgeSessionID }),
		"lastSequenceNum":           raw(func(r *record) *json.RawMessage { return &r.LastSequenceNum }),
		"atis":                      raw(func(r *record) *json.RawMessage { return &r.Atis }),
		"mode":                      raw(func(r *record) *json.RawMessage { return &r.Mode }),
		"parentUuid": func(d *recordDecoder, dec *jsontext.Decoder, r *record) bool {
			switch dec.PeekKind() {
			case 'n':
				_, err := dec.ReadToken()
				r.ParentUUID = nil
				return err == nil
			case '"':
				s := ""
				if !readStr(dec, &s) {
					return false
				}
				r.ParentUUID = &s
				return true
			}
			return false
		},
		"message": func(d *recordDecoder, dec *jsontext.Decoder, r *record) bool {
			if dec.PeekKind() == 'n' {
				_, err := dec.ReadToken()
				r.Message = nil
				return err == nil
			}
			var m *message
			if r == &d.rec {
				m = &d.msg // the decoder's own record: its message is reused
			} else {
				m = new(message)
			}
			if m.UnmarshalJSONFrom(dec) != nil {
				return false
			}
			r.Message = m
			return true
		},
		"toolUseResult":   func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readAny(dec, &r.ToolUseResult) },
		"compactMetadata": func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readAny(dec, &r.CompactMetadata) },
		"hookInfos":       func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readAny(dec, &r.HookInfos) },
		"forkedFrom":      func(_ *recordDecoder, dec *jsontext.Decoder, r *record) bool { return readAny(dec, &r.ForkedFrom) },
	}
	m := make(map[string]recField, len(fs))
	var i uint
	for k, f := range fs {
		m[k] = recField{idx: i, read: f}
		i++
	}
	return m // at most 64: TestRecordFields
}()

// fieldSlot is one entry of fieldTable.
type fieldSlot struct {
	name, folded string // the member's name, and in ASCII lower case
	f            recField
}

// fieldTable holds recFields open-addressed by fieldHash of the folded
// name, so that one probe answers both questions decode asks of a name:
// is it a field's, and could json.Unmarshal take it for one (it matches
// names case-insensitively)? Two map lookups a member (recFields, then
// foldedFields for a name not found) were 6 % of the parser's time.
var fieldTable = func() (t [256]fieldSlot) {
	for name, f := range recFields {
		folded := string(bytes.ToLower([]byte(name)))
		h := fieldHash([]byte(folded))
		for t[h].name != "" {
			h = (h + 1) % uint(len(t))
		}
		t[h] = fieldSlot{name, folded, f}
	}
	return t
}()

func fieldHash(folded []byte) uint {
	n := len(folded)
	if n == 0 {
		return 0
	}
	return (uint(n)*31 + uint(folded[0])*7 + uint(folded[n/2])*131 + uint(folded[n-1])*17) % 256
}

// lookupField is recFields[key] (f, ok) and foldsToField(key) (folds)
// for a key that is not a field's, in one probe of fieldTable.
func lookupField(key []byte) (f recField, ok, folds bool) {
	var buf [64]byte
	if len(key) > len(buf) {
		return recField{}, false, false // longer than any field's name
	}
	for i, c := range key {
		switch {
		case c >= 0x80:
			return recField{}, false, true
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	folded := buf[:len(key)]
	for h := fieldHash(folded); fieldTable[h].name != ""; h = (h + 1) % uint(len(fieldTable)) {
		if fieldTable[h].folded == string(folded) {
			if fieldTable[h].name == string(key) {
				return fieldTable[h].f, true, false
			}
			return recField{}, false, true
		}
	}
	return recField{}, false, false
}

// fillKind is how fillSkipped treats a member of record that is not in
// the prologue, by its field's type.
type fillKind uint8

const (
	fillOther   fillKind = iota // decoded by a reader of its own: the line goes to decode
	fillRaw                     // json.RawMessage: a large value left out reads as null
	fillString                  // string: a large value left out (null) leaves it as it is
	fillMessage                 // *message: a large value left out (null) leaves it nil
)

// fillKinds are record's members by json name, from its fields' types;
// fillIndex their fields.
var fillKinds, fillIndex = func() (map[string]fillKind, map[string][]int) {
	m, idx := map[string]fillKind{}, map[string][]int{}
	rt := reflect.TypeOf(record{})
	for i := range rt.NumField() {
		f := rt.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		idx[name] = f.Index
		switch f.Type {
		case reflect.TypeOf(json.RawMessage(nil)):
			m[name] = fillRaw
		case reflect.TypeOf(""):
			m[name] = fillString
		case reflect.TypeOf((*message)(nil)):
			m[name] = fillMessage
		default:
			m[name] = fillOther
		}
	}
	return m, idx
}()

var jsonNull = json.RawMessage("null")

// fillSkipped fills r (which must be zero) from the members lightScratch
// found in line, for a record whose type gives no row (skipTypes): the
// prologue record reads of such a record (its session, agent, sidechain
// state, uuid, parent, cwd and time) is taken from the spans the prescan
// already found, with no decoder, and every other member small enough to
// be kept in the smaller line is checked with parser.ValidJSON, so r is
// exactly what decode of light's smaller line gives, and a line decode
// would refuse is refused here (false) and goes to decode as before.
// It is false too for anything it does not decide cheaply: an escape or
// a non-ASCII byte in a name or a prologue string, a name twice, a
// record member other than the prologue and a large raw, string or
// message one (TestFillSkippedMatchesDecode).
func (d *recordDecoder) fillSkipped(line []byte, r *record) bool {
	sc := &d.light
	if !sc.skip || len(sc.members) == 0 {
		return false
	}
	var seen uint64
	for _, m := range sc.members {
		key := line[m.key.at:m.key.end]
		v := line[m.val.at:m.val.end]
		if bytes.IndexByte(key, '\\') >= 0 {
			return false
		}
		f, ok, folds := lookupField(key)
		if !ok {
			if folds {
				return false
			}
			if len(v) <= 256 && !parser.ValidJSON(v) { // a larger one is null in the smaller line
				return false
			}
			continue
		}
		if seen&(1<<f.idx) != 0 {
			return false
		}
		seen |= 1 << f.idx
		if !prologue[string(key)] {
			if len(v) <= 256 {
				return false
			}
			switch fillKinds[string(key)] {
			case fillRaw:
				reflect.ValueOf(r).Elem().FieldByIndex(fillIndex[string(key)]).SetBytes(jsonNull)
			case fillString, fillMessage:
			default:
				return false
			}
			continue
		}
		if !fillPrologue(d, string(key), v, r) {
			return false
		}
	}
	last := sc.members[len(sc.members)-1].val.end
	i := last
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n') {
		i++
	}
	if i >= len(line) || line[i] != '}' {
		return false
	}
	for _, c := range line[i+1:] {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// fillPrologue sets one prologue member from its raw value v, as its
// reader in recFields would; false for a value it leaves to decode.
func fillPrologue(d *recordDecoder, key string, v []byte, r *record) bool {
	switch key {
	case "isSidechain":
		switch string(v) {
		case "true":
			r.IsSidechain = true
		case "false":
			r.IsSidechain = false
		case "null":
		default:
			return false
		}
		return true
	}
	if string(v) == "null" {
		if key == "parentUuid" {
			r.ParentUUID = nil
		}
		return true
	}
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	b := v[1 : len(v)-1]
	for _, c := range b {
		if c < 0x20 || c == '\\' || c >= 0x80 {
			return false
		}
	}
	switch key {
	case "type":
		r.Type = d.intern(b)
	case "sessionId":
		r.SessionID = d.intern(b)
	case "cwd":
		r.Cwd = d.intern(b)
	case "agentId":
		r.AgentID = d.intern(b)
	case "uuid":
		r.UUID = string(b)
	case "timestamp":
		r.Timestamp = string(b)
	case "parentUuid":
		s := string(b)
		r.ParentUUID = &s
	default:
		return false
	}
	return true
}
