package windsurf

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/doubleagent/doubleagent/analyzer/parser/parsertest"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

func TestMCPConfig(t *testing.T) {
	p := byID(t, "windsurf/mcp-config")
	for _, name := range []string{"mcp_config", "malformed"} {
		t.Run(name, func(t *testing.T) {
			in := input(t, filepath.Join("testdata", "mcp", name+".json"), home+"/.codeium/windsurf/mcp_config.json", "mcp-config")
			s := parsertest.Golden(t, p, in, filepath.Join("testdata", "mcp", name+".golden.jsonl"))
			out := string(parsertest.Render(s))
			if strings.Contains(out, "SECRET") {
				t.Errorf("a secret value reached the output:\n%s", out)
			}
			if name != "mcp_config" {
				if len(s.Problems) != 1 {
					t.Errorf("problems %q", s.Problems)
				}
				return
			}
			for _, text := range []string{
				"permission setting: mcpServers.figma.disabled=true (from mcp_config.json, file mtime)",
				"permission setting: mcpServers.github.disabledTools=create_issue (from mcp_config.json, file mtime)",
				"permission setting: mcpServers.github.disabledTools=delete_repo (from mcp_config.json, file mtime)",
			} {
				e := one(t, s, timeline.System, text)
				if e.TimeBasis != timeline.TimeFileMTime || !e.Time.Equal(fixedMTime) {
					t.Errorf("%s: %v %q", text, e.Time, e.TimeBasis)
				}
			}
			if len(s.Events) != 3 {
				t.Errorf("%d rows", len(s.Events))
			}
		})
	}
}
