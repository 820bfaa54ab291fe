package merge

import (
	"bufio"
	stdjson "encoding/json"
	"fmt"
	"path/filepath"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
	"github.com/doubleagent/doubleagent/bundle"
)

// elemSource reads the elements of one array member of a JSON object
// file written by json.MarshalIndent(v, "", "  "), each as its bytes in
// the file (already indented for its depth).
type elemSource struct {
	path, field string
	f           interface{ Close() error }
	dec         *stdjson.Decoder
	n           int
	null        bool // the member is null
	done        bool
}

// openElems opens path and finds the member field; keys are the members
// the object must hold, in order (so the layout is the one merged).
func openElems(path, field string, keys []string) (*elemSource, error) {
	f, err := bundle.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	s := &elemSource{path: path, field: field, f: f, dec: stdjson.NewDecoder(bufio.NewReaderSize(f, 1<<16))}
	fail := func(format string, a ...any) (*elemSource, error) {
		f.Close()
		return nil, fmt.Errorf("%s: "+format, append([]any{path}, a...)...)
	}
	if t, err := s.dec.Token(); err != nil || t != stdjson.Delim('{') {
		return fail("not a JSON object (%v)", err)
	}
	for i := 0; ; i++ {
		t, err := s.dec.Token()
		if err != nil {
			return fail("%v", err)
		}
		k, ok := t.(string)
		if !ok {
			return fail("no member %q", field)
		}
		if i >= len(keys) || keys[i] != k {
			return fail("member %q where %q was expected: not the layout this version writes", k, keys[min(i, len(keys)-1)])
		}
		if k != field {
			var skip stdjson.RawMessage
			if err := s.dec.Decode(&skip); err != nil {
				return fail("%v", err)
			}
			continue
		}
		t, err = s.dec.Token()
		switch {
		case err != nil:
			return fail("%v", err)
		case t == nil:
			s.null, s.done = true, true
		case t != stdjson.Delim('['):
			return fail("member %q is not an array", field)
		}
		return s, nil
	}
}

func (s *elemSource) where() string { return fmt.Sprintf("%s %s[%d]", s.path, s.field, s.n) }
func (s *elemSource) close()        { s.f.Close() }

func (s *elemSource) next() ([]byte, bool, error) {
	if s.done || !s.dec.More() {
		s.done = true
		return nil, false, nil
	}
	var raw stdjson.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.where(), err)
	}
	s.n++
	return raw, true, nil
}

// objWriter writes a JSON object as json.MarshalIndent(v, "", "  ")
// lays it out, one member at a time.
type objWriter struct {
	w  *bufio.Writer
	n  int
	sp *spill // intermediate files of array's merges
}

func (o *objWriter) key(name string) {
	if o.n == 0 {
		o.w.WriteString("{\n  ")
	} else {
		o.w.WriteString(",\n  ")
	}
	o.n++
	b, _ := json.Marshal(name)
	o.w.Write(b)
	o.w.WriteString(": ")
}

// value writes a member whose value is v.
func (o *objWriter) value(name string, v any) error {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return err
	}
	o.key(name)
	_, err = o.w.Write(b)
	return err
}

// array writes a member merged from the same array of every shard file:
// null when every shard's is null, [] when all are empty.
func array[K any](o *objWriter, name string, paths []string, keys []string, decode func([]byte) (K, error), less, before func(a, b K) bool, each func(K)) (err error) {
	defer func() {
		if rerr := o.sp.remove(); err == nil {
			err = rerr
		}
	}()
	allNull := true
	opens := make([]opener, len(paths))
	for i, p := range paths {
		// Every shard file is opened once, in reduce's first round or
		// below, and says then whether its member is null.
		opens[i] = func() (source, error) {
			s, err := openElems(p, name, keys)
			if err != nil {
				return nil, err
			}
			allNull = allNull && s.null
			return s, nil
		}
	}
	opens, err = reduce(opens, o.sp, decode, less, before)
	if err != nil {
		return err
	}
	srcs, err := openAll(opens)
	if err != nil {
		return err
	}
	o.key(name)
	n := 0
	err = mergeSources(srcs, decode, less, before, func(item []byte, k K) error {
		if n == 0 {
			o.w.WriteString("[\n    ")
		} else {
			o.w.WriteString(",\n    ")
		}
		n++
		if each != nil {
			each(k)
		}
		_, err := o.w.Write(item)
		return err
	})
	switch {
	case err != nil:
		return err
	case n > 0:
		o.w.WriteString("\n  ]")
	case allNull:
		o.w.WriteString("null")
	default:
		o.w.WriteString("[]")
	}
	return nil
}

func (o *objWriter) end() {
	if o.n == 0 {
		o.w.WriteString("{}\n")
		return
	}
	o.w.WriteString("\n}\n")
}

// writeObject creates p and writes the object fill builds.
func writeObject(p string, sp *spill, fill func(o *objWriter) error) error {
	f, err := bundle.CreateNew(p, 0o644)
	if err != nil {
		return err
	}
	o := &objWriter{w: bufio.NewWriterSize(f, 1<<16), sp: sp}
	err = fill(o)
	if err == nil {
		o.end()
		err = o.w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func decodeAs[T any](b []byte) (T, error) {
	var v T
	err := json.Unmarshal(b, &v)
	return v, err
}

// inventoryKeys are inventory.json's members in order.
var inventoryKeys = []string{"sources", "agents", "files", "parsers"}

func sourceLess(a, b analyze.InventorySource) bool { return a.Input < b.Input }

func agentLess(a, b analyze.InventoryAgent) bool {
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	return a.Agent < b.Agent
}

func fileLess(a, b analyze.InventoryFile) bool {
	if a.Host != b.Host {
		return a.Host < b.Host
	}
	if a.BundleID != b.BundleID {
		return a.BundleID < b.BundleID
	}
	if a.SourceFile != b.SourceFile {
		return a.SourceFile < b.SourceFile
	}
	return a.Parser < b.Parser
}

// writeInventory merges the shards' inventory.json: sources by input,
// agents by host and agent, files by host, bundle, file and parser, as
// one run sorts them; parsers are every shard's (checked equal in
// run.json), written once.
func writeInventory(p string, in []string, sp *spill, inv *analyze.Inventory) error {
	return writeObject(p, sp, func(o *objWriter) error {
		// The sources and agents (one per input, one per host and agent)
		// are kept for the summary lines; the files are not.
		if err := array(o, "sources", in, inventoryKeys, decodeAs[analyze.InventorySource], sourceLess, sourceLess, func(s analyze.InventorySource) { inv.Sources = append(inv.Sources, s) }); err != nil {
			return err
		}
		if err := array(o, "agents", in, inventoryKeys, decodeAs[analyze.InventoryAgent], agentLess, agentLess, func(a analyze.InventoryAgent) { inv.Agents = append(inv.Agents, a) }); err != nil {
			return err
		}
		if err := array(o, "files", in, inventoryKeys, decodeAs[analyze.InventoryFile], fileLess, fileLess, nil); err != nil {
			return err
		}
		return array(o, "parsers", in[:1], inventoryKeys, decodeAs[analyze.InventoryParser], func(a, b analyze.InventoryParser) bool { return false }, func(a, b analyze.InventoryParser) bool { return false }, nil)
	})
}

// runKeys are run.json's members in order (findings only when the rules ran).
var runKeys = []string{"tool", "tool_version", "schema_version", "command_line", "started_utc", "ended_utc", "filters", "formats", "parsers", "inputs", "inputs_given", "outputs", "summary", "findings"}

func givenLess(a, b analyze.InputStatus) bool {
	if a.Input != b.Input {
		return a.Input < b.Input
	}
	return a.Status == analyze.InputRead && b.Status != analyze.InputRead
}

func givenBefore(a, b analyze.InputStatus) bool { return a.Input < b.Input }

// writeRunJSON writes run.json last: the record of one run over every
// shard's inputs, with the merge's own command line, times and files.
func writeRunJSON(o Options, shards []*shard, sum *Summary, started time.Time, runs []string, sp *spill) error {
	first := &shards[0].rec
	var rs analyze.RunSummary
	for _, s := range shards {
		r := s.rec.Summary
		rs.Inputs += r.Inputs
		rs.InputsRead += r.InputsRead
		rs.Unusable += r.Unusable
		rs.CutShort += r.CutShort
		rs.Unproven += r.Unproven
		rs.DuplicateInputs += r.DuplicateInputs
		rs.RepeatsMerged += r.RepeatsMerged
		rs.RepeatedByID += r.RepeatedByID
		rs.RepeatedNoID += r.RepeatedNoID
		rs.SecondaryPaired += r.SecondaryPaired
		rs.DuplicateIDs += r.DuplicateIDs
		rs.UndatedDropped += r.UndatedDropped
		rs.RowsHidden += r.RowsHidden
		for t, n := range r.RowsHiddenByType {
			if rs.RowsHiddenByType == nil {
				rs.RowsHiddenByType = map[string]int{}
			}
			rs.RowsHiddenByType[t] += n
		}
	}
	if rs.RowsHiddenByType == nil {
		rs.RowsHiddenByType = map[string]int{}
	}
	rs.Rows, rs.Undated, rs.Sessions, rs.Problems = sum.Rows, sum.Undated, sum.Sessions, sum.Problems
	sum.Inputs = rs.Inputs
	r := sum.Run
	r.Events, r.Undated, r.Sessions, r.Problems = rs.Rows, rs.Undated, rs.Sessions, rs.Problems
	r.RepeatedByID, r.RepeatedNoID, r.Duplicates = rs.RepeatedByID, rs.RepeatedNoID, rs.RepeatedByID+rs.RepeatedNoID
	r.SecondaryPaired, r.DuplicateIDs, r.UndatedDropped = rs.SecondaryPaired, rs.DuplicateIDs, rs.UndatedDropped
	r.Hidden, r.Sources, r.Failed, r.CutShortUnnamed = rs.RowsHiddenByType, rs.Inputs, rs.Unusable, rs.CutShort
	sum.Unusable, sum.CutShort, sum.Unproven = rs.Unusable, rs.CutShort, rs.Unproven
	r.UnprovenInputs = rs.Unproven
	var outs []analyze.RunOutput
	for _, f := range sum.Files {
		size, h, err := hashFile(f)
		if err != nil {
			return err
		}
		outs = append(outs, analyze.RunOutput{File: filepath.Base(f), Size: size, SHA256: h})
	}
	cl := o.CommandLine
	if cl == nil {
		cl = []string{}
	}
	return writeObject(filepath.Join(o.OutDir, analyze.RunJSON), sp, func(w *objWriter) error {
		for _, m := range []struct {
			k string
			v any
		}{{"tool", "doubleagent"}, {"tool_version", first.ToolVersion}, {"schema_version", first.SchemaVersion}, {"command_line", cl},
			{"started_utc", timeline.FormatTime(started)}, {"ended_utc", timeline.FormatTime(time.Now().UTC())},
			{"filters", first.Filters}, {"formats", []string{analyze.FormatJSONL}}, {"parsers", first.Parsers}} {
			if err := w.value(m.k, m.v); err != nil {
				return err
			}
		}
		if err := array(w, "inputs", runs, runKeys, decodeAs[analyze.InventorySource], sourceLess, sourceLess, nil); err != nil {
			return err
		}
		unusable := func(st analyze.InputStatus) {
			if st.Status == analyze.InputUnusable {
				sum.UnusableInputs = append(sum.UnusableInputs, st.Input+": "+st.Reason)
			}
			sum.Run.Inputs = append(sum.Run.Inputs, st)
		}
		if err := array(w, "inputs_given", runs, runKeys, decodeAs[analyze.InputStatus], givenLess, givenBefore, unusable); err != nil {
			return err
		}
		if err := w.value("outputs", outs); err != nil {
			return err
		}
		if err := w.value("summary", rs); err != nil {
			return err
		}
		if sum.Findings != nil {
			return w.value("findings", sum.Findings.Record())
		}
		return nil
	})
}
