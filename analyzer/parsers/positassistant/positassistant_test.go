package positassistant

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

const ws = ".posit/assistant/workspaces/"

// home maps every file of testdata/home to its place under /home/ex,
// less the ones named in drop.
func home(t *testing.T, drop ...string) parsertest.Files {
	t.Helper()
	files := parsertest.Files{}
	err := filepath.WalkDir("testdata/home", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata/home", p)
		for _, x := range drop {
			if filepath.ToSlash(rel) == x {
				return nil
			}
		}
		files["/home/ex/"+filepath.ToSlash(rel)] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func run(t *testing.T, id int, local, rel, golden string, related parsertest.Files) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, local, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: Agent, Target: "conversations"}, related)
	return parsertest.Golden(t, Parsers()[id], in, "testdata/"+golden+".golden.jsonl")
}

func rows(s *parsertest.Sink) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "%d %s %s sid=%s parent=%s proj=%s model=%s rec=%s id=%s in=%s err=%s t=%s/%s: %q\n", e.SourceLine, e.TurnType, e.ToolName, e.SessionID, e.ParentSessionID, e.ProjectPath, e.Model, e.RecordID, e.ToolUseID, e.ToolInput, e.IsError, e.TimeString(), e.TimeBasis, e.Text)
	}
	return b.String()
}

func check(t *testing.T, s *parsertest.Sink, want, wantProblems string) {
	t.Helper()
	if got := rows(s); got != want {
		t.Errorf("rows:\n%s\nwant:\n%s", got, want)
	}
	if got := strings.Join(s.Problems, "|"); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

const main = ws + "9f3c/c0a1/lm-messages.jsonl"

// TestMessages: the typed prompt (with its image) is the one user row;
// reasoning, the reply (its summary tag kept), two calls from one message;
// a text and an error-text result; a string reply without its own time
// takes its tree node's (inherited); the approval request and the denial
// (a permission decision row, and the execution-denied result as an
// error); the prompt of an inactive branch and a message no node names are
// kept and marked; an unknown role, a line without a message, an unknown
// part and a cut line are counted; the node naming message 12, which the
// file lacks, is an orphan.
func TestMessages(t *testing.T) {
	s := run(t, 0, "testdata/home/"+main, main, "messages", home(t))
	want := strings.NewReplacer("SX", "sid=c0a1 parent= proj=/home/ex/projects/survey").Replace(`1 user  SX model= rec=c0a1:lm0 id= in= err= t=2026-11-24T09:00:00.000Z/: "drop the rows with a missing email in survey.csv\n[image image/png]"
2 thinking  SX model=claude-sonnet-4-6 rec=c0a1:lm1 id= in= err= t=2026-11-24T09:00:10.000Z/: "Look at the file first."
2 assistant  SX model=claude-sonnet-4-6 rec=c0a1:lm1#1 id= in= err= t=2026-11-24T09:00:10.000Z/: "Reading it.\n<MESSAGESUMMARY>reads survey.csv</MESSAGESUMMARY>"
2 tool_use read SX model=claude-sonnet-4-6 rec=c0a1:lm1#2 id=toolu_1 in={"file_path":"survey.csv"} err= t=2026-11-24T09:00:10.000Z/: "survey.csv"
2 tool_use read SX model=claude-sonnet-4-6 rec=c0a1:lm1#3 id=toolu_2 in={"file_path":"survey_old.csv"} err= t=2026-11-24T09:00:10.000Z/: "survey_old.csv"
2 system  SX model=claude-sonnet-4-6 rec=c0a1:lm1#4 id= in= err= t=2026-11-24T09:00:10.000Z/: "token usage: input 12, output 34"
3 tool_result read SX model= rec=c0a1:lm2 id=toolu_1 in= err=false t=2026-11-24T09:00:10.000Z/inherited: "email,score\n,3\na@x.org,5\n"
3 tool_result read SX model= rec=c0a1:lm2#1 id=toolu_2 in= err=true t=2026-11-24T09:00:10.000Z/inherited: "ENOENT: survey_old.csv"
4 assistant  SX model=claude-sonnet-4-6 rec=c0a1:lm3 id= in= err= t=2026-11-24T09:00:10.000Z/inherited: "One row has no email."
5 user  SX model= rec=c0a1:lm4 id= in= err= t=2026-11-24T09:00:30.000Z/: "delete survey.csv"
5 system  SX model= rec=c0a1:lm4#1 id= in= err= t=2026-11-24T09:00:30.000Z/: "lm message 4 above is on an inactive branch of conversation.json's tree (node n3; edited, retried or rewound in Posit Assistant)"
6 user  SX model= rec=c0a1:lm5 id= in= err= t=2026-11-24T09:00:40.000Z/: "show my .Renviron"
7 tool_use read SX model=claude-sonnet-4-6 rec=c0a1:lm6 id=toolu_3 in={"file_path":".Renviron"} err= t=2026-11-24T09:00:45.000Z/: ".Renviron"
7 system  SX model=claude-sonnet-4-6 rec=c0a1:lm6#1 id=toolu_3 in= err= t=2026-11-24T09:00:45.000Z/: "tool approval requested: approval ap1 for call toolu_3"
8 system  SX model= rec=c0a1:lm7 id= in= err= t=2026-11-24T09:00:50.000Z/: "permission decision: denied (approval ap1): not now"
8 tool_result read SX model= rec=c0a1:lm7#1 id=toolu_3 in= err=true t=2026-11-24T09:00:50.000Z/: "execution denied: not now"
9 assistant  SX model= rec=c0a1:lm8 id= in= err= t=2026-11-24T09:01:00.000Z/: "Not in the tree."
9 system  SX model= rec=c0a1:lm8#1 id= in= err= t=2026-11-24T09:01:00.000Z/: "lm message 8 above is not named by any node of conversation.json's tree"
12 system  SX model= rec=c0a1:lm11 id= in= err= t=2026-11-24T09:01:10.000Z/: "lm message 11 above is not named by any node of conversation.json's tree"
`)
	check(t, s, want, "line 10: skipped_record: a message of role developer|line 11: skipped_record: an lm-messages line without id or message|line 12: skipped_record: an assistant content part \"source\", not known|line 13: malformed JSON line (cut short or corrupt), skipped: unexpected end of JSON input|line 0: orphan_record: conversation.json node n5 names lm message 12, which this file does not hold")
}

// TestSubagent: a subagent's user-role message is its parent agent's task,
// never a typed prompt; the parent conversation and the workspace's folder
// come from the layout and conversation.json.
func TestSubagent(t *testing.T) {
	rel := ws + "9f3c/c0a1/subagents/s0b2/lm-messages.jsonl"
	s := run(t, 0, "testdata/home/"+rel, rel, "subagent", home(t))
	check(t, s, `1 system  sid=s0b2 parent=c0a1 proj=/home/ex/projects/survey model= rec=s0b2:lm0 id= in= err= t=2026-11-24T09:00:11.000Z/inherited: "subagent task from the parent agent (not typed): count the empty emails"
2 assistant  sid=s0b2 parent=c0a1 proj=/home/ex/projects/survey model=claude-haiku-4-5 rec=s0b2:lm1 id= in= err= t=2026-11-24T09:00:12.000Z/: "One empty email."
`, "")
}

// TestSubagentNoConversation: without conversation.json the subagents/
// folder still names the parent and makes the user-role message a task;
// the missing file is named, and the rows have no time.
func TestSubagentNoConversation(t *testing.T) {
	rel := ws + "9f3c/c0a1/subagents/s0b2/lm-messages.jsonl"
	s := run(t, 0, "testdata/home/"+rel, rel, "subagent_noconv", home(t, ws+"9f3c/c0a1/subagents/s0b2/conversation.json"))
	check(t, s, `2 assistant  sid=s0b2 parent=c0a1 proj=/home/ex/projects/survey model=claude-haiku-4-5 rec=s0b2:lm1 id= in= err= t=2026-11-24T09:00:12.000Z/: "One empty email."
1 system  sid=s0b2 parent=c0a1 proj=/home/ex/projects/survey model= rec=s0b2:lm0 id= in= err= t=/none: "subagent task from the parent agent (not typed): count the empty emails"
`, "line 0: conversation.json beside it was not collected: branches, subagent kind and node times unknown")
}

// TestDefaultWorkspace: the default workspace has no workspace.json (no
// folder) and this conversation no conversation.json; a broken
// conversation.json is named.
func TestDefaultWorkspace(t *testing.T) {
	rel := ws + "default/c0d3/lm-messages.jsonl"
	s := run(t, 0, "testdata/home/"+rel, rel, "default", home(t))
	check(t, s, `1 user  sid=c0d3 parent= proj= model= rec=c0d3:lm0 id= in= err= t=/none: "hello"
2 assistant  sid=c0d3 parent= proj= model= rec=c0d3:lm1 id= in= err= t=/none: "Hi."
`, "line 0: conversation.json beside it was not collected: branches, subagent kind and node times unknown")
	files := home(t)
	files["/home/ex/"+ws+"default/c0d3/conversation.json"] = "testdata/bad_conversation.json"
	s = run(t, 0, "testdata/home/"+rel, rel, "default_badconv", files)
	if got := strings.Join(s.Problems, "|"); got != "line 0: conversation.json beside it is not a JSON object: unexpected end of JSON input: branches, subagent kind and node times unknown" {
		t.Errorf("problems: %s", got)
	}
}

// TestConversation: one session row per conversation.json, main and
// subagent; a cut file is one problem.
func TestConversation(t *testing.T) {
	rel := ws + "9f3c/c0a1/conversation.json"
	s := run(t, 1, "testdata/home/"+rel, rel, "conversation", home(t))
	check(t, s, `1 system  sid=c0a1 parent= proj=/home/ex/projects/survey model=claude-sonnet-4-6 rec=c0a1#conversation id= in= err= t=2026-11-24T09:00:00.000Z/: "posit assistant conversation c0a1 (main); title Clean the survey data; summary Cleaning survey.csv; git branch cleanup; model claude-sonnet-4-6 via positai; 5 tree nodes, 1 on inactive branches"
`, "")
	rel = ws + "9f3c/c0a1/subagents/s0b2/conversation.json"
	s = run(t, 1, "testdata/home/"+rel, rel, "conversation_subagent", home(t))
	check(t, s, `1 system  sid=s0b2 parent=c0a1 proj=/home/ex/projects/survey model= rec=s0b2#conversation id= in= err= t=2026-11-24T09:00:11.000Z/: "posit assistant conversation s0b2 (subagent); summary count the empty emails; task count the empty emails; 2 tree nodes, 0 on inactive branches"
`, "")
	s = run(t, 1, "testdata/bad_conversation.json", ws+"x/c9/conversation.json", "bad_conversation", nil)
	check(t, s, "", "line 0: not a JSON object: unexpected end of JSON input")
}

// TestIndex: each listed conversation is a row; the one whose folder was
// not collected says so; an entry without an id is a problem.
func TestIndex(t *testing.T) {
	rel := ws + "9f3c/index.json"
	s := run(t, 2, "testdata/home/"+rel, rel, "index", home(t))
	check(t, s, `2 system  sid=c0ff parent= proj=/home/ex/projects/survey model= rec=c0ff#index id= in= err= t=2026-11-23T09:00:00.000Z/: "conversation listed in the workspace index; title Upload the keys; its folder was not collected (deleted, or outside the collection)"
1 system  sid=c0a1 parent= proj=/home/ex/projects/survey model= rec=c0a1#index id= in= err= t=2026-11-24T09:00:00.000Z/: "conversation listed in the workspace index; title Clean the survey data; summary Cleaning survey.csv"
`, "line 3: index entry is not a JSON object with an id")
}

// TestEmpty: an empty transcript gives no row; the missing
// conversation.json is still named.
func TestEmpty(t *testing.T) {
	s := run(t, 0, "testdata/empty.jsonl", ws+"default/e1/lm-messages.jsonl", "empty", nil)
	check(t, s, "", "line 0: conversation.json beside it was not collected: branches, subagent kind and node times unknown")
}
