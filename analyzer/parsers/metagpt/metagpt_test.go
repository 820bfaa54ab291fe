package metagpt

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
)

var byID = parsertest.IDs(Parsers())

func run(t *testing.T, file, rel, target, golden string) *parsertest.Sink {
	t.Helper()
	in := parsertest.Input(t, file, parser.File{Path: "/home/ex/" + rel, Rel: rel, Agent: agentName, Target: target, Kind: "secret",
		MTime: time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)}, nil)
	p := byID(t, "metagpt/config")
	if !p.Match(&in.File) {
		t.Fatalf("%s does not match %s", p.ID(), rel)
	}
	return parsertest.Golden(t, p, in, "testdata/"+golden+".golden.jsonl")
}

// TestConfig: one row per LLM block (llm, models.*; at the line of the
// block's first member) with
// api_type, model and base_url, naming the secret members set, never
// their values.
func TestConfig(t *testing.T) {
	s := run(t, "testdata/home/.metagpt/config2.yaml", ".metagpt/config2.yaml", "config", "config")
	want := []string{
		"2 model config llm: api_type=openai model=gpt-4-turbo base_url=https://llm-gw.example.net/v1 (api_key set; not read) (from .metagpt/config2.yaml, file mtime)",
		"10 model config models.zhipu-glm: api_type=zhipuai model=glm-4 base_url=- (api_key set; not read) (from .metagpt/config2.yaml, file mtime)",
		"14 model config models.local: api_type=ollama model=llama3 base_url=http://127.0.0.1:11434/api (from .metagpt/config2.yaml, file mtime)",
	}
	var got []string
	for _, e := range s.Events {
		got = append(got, fmt.Sprintf("%d %s", e.SourceLine, e.Text))
		if strings.Contains(e.Text, "SECRET") {
			t.Errorf("row carries a key: %q", e.Text)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBadConfig: an llm block that is no mapping is a problem, no row.
func TestBadConfig(t *testing.T) {
	s := run(t, "testdata/bad_config2.yaml", "proj/config/config2.yaml", "project", "bad_config")
	if len(s.Events) != 0 || strings.Join(s.Problems, "|") != "line 1: llm is not a mapping: not read" {
		t.Errorf("events %d problems %q", len(s.Events), s.Problems)
	}
}
