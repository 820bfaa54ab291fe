package openclaw

import (
	"bytes"
	"context"
	json "github.com/go-json-experiment/json/v1"
	"io"
	"path"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/format/pisession"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// OpenClaw's transcripts are pi session entries (session, model_change,
// thinking_level_change, message, custom, compaction, ...), whether in
// transcript_events rows or in legacy JSONL files: both are read through
// pi's exported session reader.

// provenance is a user message's input provenance
// (src/sessions/input-provenance.ts): external_user is a person;
// inter_session is another session or an internal tool (a subagent's task,
// a child's completion report); internal_system is OpenClaw itself.
type provenance struct {
	Kind             string `json:"kind"`
	SourceRole       string `json:"sourceRole"`
	SourceSessionKey string `json:"sourceSessionKey"`
	SourceChannel    string `json:"sourceChannel"`
	SourceTool       string `json:"sourceTool"`
}

// userOrigin classifies a user message by its provenance: "" for text a
// person typed (no provenance, or external_user), else the prefix of the
// system row it becomes. In a subagent's session, the message its parent
// wrote is "subagent task: ".
func userOrigin(parentKey string) func([]byte) string {
	return func(raw []byte) string {
		var e struct {
			Message struct {
				Provenance *provenance `json:"provenance"`
			} `json:"message"`
		}
		if json.Unmarshal(raw, &e) != nil || e.Message.Provenance == nil {
			return ""
		}
		p := e.Message.Provenance
		switch p.Kind {
		case "", "external_user":
			return ""
		case "inter_session":
			if parentKey != "" && (p.SourceSessionKey == parentKey || p.SourceTool == "sessions_spawn") {
				return "subagent task: "
			}
			from := p.SourceSessionKey
			if from == "" {
				from = p.SourceChannel
			}
			return "inter-session message from " + from + " via " + p.SourceTool + ": "
		default:
			return p.Kind + " message (" + p.SourceTool + "): "
		}
	}
}

// noEvidenceCustom are custom entries that only carry runtime caches.
var noEvidenceCustom = map[string]bool{
	"openclaw.cache-ttl":              true,
	"openclaw.google-prompt-cache":    true,
	"google-turn-ordering-bootstrap":  true,
	"openclaw:bootstrap-context:full": true,
}

// customEntry reads OpenClaw's custom entries: model-snapshot records the
// model of each run (a resume with --model writes no model_change, only a
// new snapshot), the cache entries carry nothing; the rest are system rows
// (pi's reader writes "<customType>: <data>").
func customEntry(s *pisession.Session, n int64, c pisession.CustomEntry) bool {
	switch {
	case c.Type == "model-snapshot":
		var d struct {
			Provider string `json:"provider"`
			ModelAPI string `json:"modelApi"`
			ModelID  string `json:"modelId"`
		}
		_ = json.Unmarshal(c.Data, &d)
		old := s.Model()
		switch {
		case d.ModelID == "":
			s.Out().Skip(n, "no_evidence:custom:model-snapshot")
			return true
		case old == d.ModelID:
			s.Out().Skip(n, "state_only")
			return true
		case old == "":
			s.Out().Event(s.Event(c.Time, timeline.System, "model: "+d.ModelID+" provider="+d.Provider, n, c.ID))
		default:
			s.Out().Event(s.Event(c.Time, timeline.System, "model: "+old+" -> "+d.ModelID+" provider="+d.Provider, n, c.ID))
		}
		s.SetModel(d.ModelID)
		return true
	case noEvidenceCustom[c.Type]:
		s.Out().Skip(n, "no_evidence:custom:"+c.Type)
		return true
	}
	return false
}

// sessionOptions are the reader options for one session.
func sessionOptions(parentKey string) pisession.Options {
	return pisession.Options{Agent: Agent, Contract: true, UserOrigin: userOrigin(parentKey), Custom: customEntry, ToolResultNote: execDecision}
}

// execDecision turns a refused exec into a permission decision row: the
// exec tool answers a call its approvals deny with an error result
// "Exec denied (SYSTEM_RUN_DENIED: <reason>): <command>" (details.status
// "failed"); a person's or reviewer's denial reads "... denied ...".
func execDecision(raw []byte) string {
	var e struct {
		Message struct {
			IsError bool            `json:"isError"`
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil || !e.Message.IsError {
		return ""
	}
	text := pisession.ContentText(e.Message.Content)
	rest, ok := strings.CutPrefix(text, "Exec denied (")
	if !ok {
		return ""
	}
	reason, _, _ := strings.Cut(rest, "): ")
	code, why, found := strings.Cut(reason, ": ")
	if !found {
		code, why = reason, ""
	}
	out := "permission decision: denied source=exec-approvals code=" + code
	if why != "" {
		out += " reason=" + why
	}
	return out
}

// rowSink marks the rows of one source: secondary copies, and the parent
// session of a subagent.
type rowSink struct {
	parser.Sink
	secondary bool
	parent    string
}

func (s rowSink) Event(e timeline.Event) {
	if s.secondary {
		e.Secondary = true
	}
	if s.parent != "" && e.ParentSessionID == "" {
		e.ParentSessionID = s.parent
	}
	s.Sink.Event(e)
}

// sessionFileKind names a legacy session file: its session id and whether
// it is a copy (a secondary source).
func sessionFileKind(p string) (sid string, copyOf string) {
	base := path.Base(p)
	switch {
	case strings.Contains(base, ".jsonl.reset."):
		return base[:strings.Index(base, ".jsonl.reset.")], "reset archive"
	case strings.Contains(base, ".jsonl.deleted."):
		return base[:strings.Index(base, ".jsonl.deleted.")], "deleted archive"
	case strings.Contains(base, ".checkpoint."):
		return base[:strings.Index(base, ".checkpoint.")], "compaction checkpoint"
	case strings.Contains(base, ".jsonl.pre-doctor-"):
		return base[:strings.Index(base, ".jsonl.pre-doctor-")], "pre-doctor repair backup"
	case strings.HasSuffix(base, ".jsonl.zst"):
		return strings.TrimSuffix(base, ".jsonl.zst"), ""
	}
	return strings.TrimSuffix(base, ".jsonl"), ""
}

func parseSessionFile(ctx context.Context, in *parser.Input, out parser.Sink) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	sid, copyOf := sessionFileKind(in.Path)
	var r io.Reader = rc
	b, err := io.ReadAll(io.LimitReader(rc, 4))
	if err != nil {
		return err
	}
	r = io.MultiReader(bytes.NewReader(b), rc)
	if bytes.Equal(b, zstdMagic) {
		all, err := io.ReadAll(io.LimitReader(r, maxBlob+1))
		if err != nil {
			return err
		}
		plain, err := unzstd(all)
		if err != nil {
			out.Problem(0, "zstd: "+err.Error())
			return nil
		}
		r = bytes.NewReader(plain)
	}
	sink := rowSink{Sink: out, secondary: copyOf != ""}
	s := pisession.NewSession(in, sink, sessionOptions(""))
	s.SetID(sid)
	if copyOf != "" {
		t := in.MTime
		e := s.Event(t, timeline.System, copyOf+" of session "+sid+" ("+path.Base(in.Path)+")", 0, "")
		if t.IsZero() {
			e.TimeBasis = timeline.TimeNone
		} else {
			e.TimeBasis = timeline.TimeFileMTime
		}
		out.Event(e) // the copy itself is primary evidence that it exists
	}
	return s.ReadLines(ctx, r)
}
