package continuedev

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// The Continue cn 1.5.47 files of fixtures/roots/real-agents-3 (made by
// scripts/gen-real-fixtures-3.sh), read in place; goldens in
// testdata/real3/.
const (
	real3Root = "../../../fixtures/roots/real-agents-3"
	real3Cont = "/home/examiner3/.continue"
)

type real3Scenario struct {
	Scenario   string `json:"scenario"`
	SessionID  string `json:"session_id"`
	Prompt     string `json:"prompt"`
	Command    string `json:"command"`
	StartedUTC string `json:"started_utc"`
	EndedUTC   string `json:"ended_utc"`
}

func real3(t *testing.T) map[string]real3Scenario {
	t.Helper()
	b, err := os.ReadFile(real3Root + ".expect.json")
	if err != nil {
		t.Fatalf("the in-repo fixture is missing: %v", err)
	}
	var e struct {
		Continue struct {
			Scenarios []real3Scenario `json:"scenarios"`
		} `json:"continue"`
	}
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	out := map[string]real3Scenario{}
	for _, s := range e.Continue.Scenarios {
		out[s.Scenario] = s
	}
	return out
}

// real3Files maps the fixture's .continue files to their original paths.
func real3Files(t *testing.T) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	base := real3Root + "/home/examiner3/.continue"
	err := filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		files[real3Cont+"/"+filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func real3Run(t *testing.T, id, target, orig string, golden string) *parsertest.Sink {
	t.Helper()
	files := real3Files(t)
	f := parser.File{Path: orig, Agent: Agent, Target: target, MTime: fixedMTime}
	p := byID(t, id)
	if !p.Match(&f) {
		t.Fatalf("%s does not match %s", id, orig)
	}
	in := parsertest.Input(t, files[orig], f, files)
	if golden != "" {
		return parsertest.Golden(t, p, in, filepath.Join("testdata", "real3", golden+".golden.jsonl"))
	}
	return parsertest.Run(t, p, in)
}

func within(t *testing.T, tm time.Time, from, to string) bool {
	t.Helper()
	a, err1 := time.Parse(time.RFC3339Nano, from)
	b, err2 := time.Parse(time.RFC3339Nano, to)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad window %s..%s", from, to)
	}
	return !tm.Before(a.Add(-2*time.Second)) && !tm.After(b.Add(2*time.Second))
}

// Every cn file of the real runs against its reviewed golden.
func TestReal3Golden(t *testing.T) {
	files := real3Files(t)
	var origs []string
	for o := range files {
		origs = append(origs, o)
	}
	sort.Strings(origs)
	n := 0
	for _, o := range origs {
		rel := strings.TrimPrefix(o, real3Cont+"/")
		var id, target string
		switch {
		case strings.HasPrefix(rel, "sessions/"):
			id, target = "continue/sessions", "sessions"
		case strings.HasPrefix(rel, "logs/cn"):
			id, target = "continue/cli-log", "logs"
		case rel == "permissions.yaml":
			id, target = "continue/permissions", "permissions"
		default:
			continue // config files (catalog kind secret): no parser reads them
		}
		n++
		name := strings.NewReplacer("/", "_", ".", "_").Replace(rel)
		t.Run(name, func(t *testing.T) {
			s := real3Run(t, id, target, o, name)
			if len(s.Problems) != 0 {
				t.Errorf("problems: %v", s.Problems)
			}
		})
	}
	if n != 6 {
		t.Fatalf("%d files routed, want 6", n)
	}
}

// The basic session resumed with the other config: every assistant row
// names the model usage.model records, the switch has its row, and the
// resumed run's rows carry the time cn.log gives the resume, after the
// first run and within the resume's window; record ids on calls.
func TestReal3ResumeModelAndTimes(t *testing.T) {
	sc := real3(t)
	basic, resume := sc["basic"], sc["resume"]
	id := basic.SessionID
	s := real3Run(t, "continue/sessions", "sessions", real3Cont+"/sessions/"+id+".json", "")
	var users, switches []timeline.Event
	for _, e := range s.Events {
		switch {
		case e.TurnType == timeline.User:
			users = append(users, e)
		case strings.HasPrefix(e.Text, "model: "):
			switches = append(switches, e)
		case e.TurnType == timeline.Assistant || e.TurnType == timeline.ToolUse:
			if e.Model != "mock-coder" && e.Model != "mock-coder-2" {
				t.Errorf("row without its model: %+v", e)
			}
		}
	}
	if len(users) != 2 || users[0].Text != basic.Prompt || users[1].Text != resume.Prompt {
		t.Fatalf("users %+v", users)
	}
	if len(switches) != 2 || switches[0].Text != "model: mock-coder" || switches[1].Text != "model: mock-coder -> mock-coder-2" {
		t.Fatalf("model rows %+v", switches)
	}
	if !within(t, users[0].Time, basic.StartedUTC, basic.EndedUTC) || !within(t, users[1].Time, resume.StartedUTC, resume.EndedUTC) {
		t.Errorf("prompt times %s, %s; runs %s..%s and %s..%s", users[0].Time, users[1].Time, basic.StartedUTC, basic.EndedUTC, resume.StartedUTC, resume.EndedUTC)
	}
	if users[0].TimeBasis != timeline.TimeInherited || users[1].TimeBasis != timeline.TimeInherited {
		t.Errorf("time bases %q %q", users[0].TimeBasis, users[1].TimeBasis)
	}
	var resumedCall *timeline.Event
	for i, e := range s.Events {
		if e.TurnType == timeline.ToolUse && e.Text == resume.Command {
			resumedCall = &s.Events[i]
		}
	}
	if resumedCall == nil || resumedCall.Model != "mock-coder-2" || !resumedCall.Time.Equal(users[1].Time) || resumedCall.RecordID != resumedCall.ToolUseID || resumedCall.RecordID == "" {
		t.Fatalf("resumed call %+v", resumedCall)
	}
	log := real3Run(t, "continue/cli-log", "logs", real3Cont+"/logs/cn.log", "")
	var resumed *timeline.Event
	for i, e := range log.Events {
		if strings.HasPrefix(e.Text, "session resumed: ") {
			resumed = &log.Events[i]
		}
	}
	if resumed == nil || resumed.SessionID != id || !resumed.Time.Equal(users[1].Time) || resumed.TimeBasis != timeline.TimeLocalAsUTC {
		t.Fatalf("resume row %+v", resumed)
	}
}

// The denied run: the call kept with its command, the refusal as an error
// result and a permission decision, linked by the call id.
func TestReal3Denied(t *testing.T) {
	d := real3(t)["denied"]
	s := real3Run(t, "continue/sessions", "sessions", real3Cont+"/sessions/"+d.SessionID+".json", "")
	var call, res, dec *timeline.Event
	for i, e := range s.Events {
		switch {
		case e.TurnType == timeline.ToolUse:
			call = &s.Events[i]
		case e.TurnType == timeline.ToolResult:
			res = &s.Events[i]
		case strings.HasPrefix(e.Text, "permission decision: "):
			dec = &s.Events[i]
		}
	}
	if call == nil || call.Text != d.Command || call.ToolInput != `{"command":"`+strings.ReplaceAll(d.Command, ">", `\u003e`)+`"}` && call.ToolInput != `{"command":"`+d.Command+`"}` {
		t.Fatalf("call %+v", call)
	}
	if res == nil || res.Text != "Command blocked by security policy" || res.IsError != "true" || res.ToolUseID != call.ToolUseID || res.RecordID != call.ToolUseID+"#result" {
		t.Fatalf("result %+v", res)
	}
	if dec == nil || dec.Text != "permission decision: denied source=policy" || dec.RecordID != call.ToolUseID+"#decision" {
		t.Fatalf("decision %+v", dec)
	}
}

func resumeInput(t *testing.T, target, rel string) *parser.Input {
	t.Helper()
	related := parsertest.Files{}
	for _, r := range []string{"sessions/sessions.json", "sessions/aaaa1111-0000-4000-8000-000000000001.json",
		"sessions/bbbb2222-0000-4000-8000-000000000002.json", "logs/cn.log"} {
		related["/home/examiner/.continue/"+r] = filepath.Join("testdata", "resume", r)
	}
	f := parser.File{Path: "/home/examiner/.continue/" + rel, Agent: Agent, Target: target, MTime: fixedMTime}
	return parsertest.Input(t, related[f.Path], f, related)
}

// One resume the log pins to a session that holds three prompts: which
// prompts the resumed run added is not recorded, so the rows keep
// dateCreated (inherited, in order) and a problem says why; a resume two
// sessions could have been is not attributed, and says so.
func TestResumeNotPlaceable(t *testing.T) {
	s := golden(t, "continue/sessions", resumeInput(t, "sessions", "sessions/aaaa1111-0000-4000-8000-000000000001.json"), "resume_three_prompts")
	created := time.UnixMilli(1796130000000).UTC()
	for _, e := range s.Events {
		if !e.Time.Equal(created) || e.TimeBasis != timeline.TimeInherited {
			t.Fatalf("row %+v not at dateCreated", e)
		}
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "cn.log records 1 resume(s) of this session (2026-12-01T13:01:30.000Z) but it holds 3 prompt(s)") {
		t.Fatalf("problems %v", s.Problems)
	}
	if c := s.SkipCounts(); c["empty_message"] != 1 {
		t.Fatalf("skips %v", c)
	}
	log := golden(t, "continue/cli-log", resumeInput(t, "logs", "logs/cn.log"), "resume_log")
	if len(log.Events) != 2 || log.Events[0].SessionID != "aaaa1111-0000-4000-8000-000000000001" || log.Events[1].SessionID != "" ||
		log.Events[1].Text != "session resumed: --resume loaded the session written last (not named in the log; 2 collected session(s) were created before and written after it)" {
		t.Fatalf("log rows %+v", log.Events)
	}
}
