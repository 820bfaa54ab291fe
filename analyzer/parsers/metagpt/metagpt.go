package metagpt

import (
	"context"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

const agentName = "metagpt"

// maxConfig bounds the config read.
const maxConfig = 1 << 20

// Parsers returns the MetaGPT parsers.
func Parsers() []parser.Parser {
	return []parser.Parser{
		parser.New(parser.Spec{
			ID: agentName + "/config", Agent: agentName, Version: 1, ReadsSecretKind: true,
			Targets: []string{"config", "project"}, Names: []string{"config2.yaml", "config2.bak"},
			Doc: "~/.metagpt/config2.yaml and a project's config/config2.yaml: the model each LLM block names (api_type, model, base_url, proxy), never the key, at the file's mtime",
		}, parseConfig),
	}
}

// llm is one LLM block of config2.yaml (metagpt/configs/llm_config.py):
// only the members shown are decoded; api_key and the other secret
// members are noted as set, never decoded.
type llm struct {
	APIType string `yaml:"api_type"`
	Model   string `yaml:"model"`
	BaseURL string `yaml:"base_url"`
	Proxy   string `yaml:"proxy"`
}

var secretKeys = []string{"api_key", "api_secret", "secret_key", "access_key", "app_id"}

func parseConfig(ctx context.Context, in *parser.Input, out parser.Sink) error {
	b, err := parser.ReadWhole(in, maxConfig)
	if err != nil {
		out.Problem(0, "config not read: "+err.Error())
		return nil
	}
	var doc map[string]yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		out.Problem(0, "not a MetaGPT config2.yaml: "+err.Error())
		return nil
	}
	type block struct {
		name string
		node yaml.Node
	}
	var blocks []block
	if n, ok := doc["llm"]; ok {
		blocks = append(blocks, block{"llm", n})
	}
	if n, ok := doc["models"]; ok && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			blocks = append(blocks, block{"models." + n.Content[i].Value, *n.Content[i+1]})
		}
	}
	if len(blocks) == 0 {
		out.Skip(0, "no_evidence:no_llm_block")
		return nil
	}
	for _, bl := range blocks {
		var l llm
		if bl.node.Kind != yaml.MappingNode || bl.node.Decode(&l) != nil {
			out.Problem(int64(bl.node.Line), fmt.Sprintf("%s is not a mapping: not read", bl.name))
			continue
		}
		var set []string
		for i := 0; i+1 < len(bl.node.Content); i += 2 {
			k := bl.node.Content[i].Value
			for _, s := range secretKeys {
				if k == s && strings.TrimSpace(bl.node.Content[i+1].Value) != "" {
					set = append(set, k)
				}
			}
		}
		text := fmt.Sprintf("model config %s: api_type=%s model=%s base_url=%s", bl.name, orDash(l.APIType), orDash(l.Model), orDash(parser.RedactSecrets(l.BaseURL)))
		if l.Proxy != "" {
			text += " proxy=" + parser.RedactSecrets(l.Proxy)
		}
		if len(set) > 0 {
			text += " (" + strings.Join(set, ", ") + " set; not read)"
		}
		e := parser.SettingEvent(&in.File)
		e.Text = text + " (from " + parser.DisplayFile(&in.File) + ", file mtime)"
		e.SourceLine = int64(bl.node.Line)
		out.Event(e)
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
