package cody

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// parseSettings reads the cody.* standing permission settings of the
// editor's settings.json (vscode/package.json contributes them).
func parseSettings(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readWhole(in)
	if err != nil {
		return err
	}
	if !bytes.Contains(b, []byte(`"cody.`)) {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(parser.StandardJSON(b), &m); err != nil {
		out.Problem(0, parser.NotJSONObject("settings.json", err))
		return nil
	}
	file := parser.DisplayFile(&in.File)
	row := func(key, value string) {
		e := parser.SettingEvent(&in.File)
		e.Agent = Agent
		e.Text = fmt.Sprintf("permission setting: %s=%s (from %s, file mtime)", key, value, file)
		out.Event(e)
	}
	for _, k := range []string{"cody.agentic.context.experimentalShell", "cody.chat.agenticContext"} {
		if v, ok := m[k]; ok {
			row(k, string(bytes.TrimSpace(v)))
		}
	}
	if v, ok := m["cody.agentic.context.experimentalOptions"]; ok {
		var o struct {
			Shell *struct {
				Allow []string `json:"allow"`
				Block []string `json:"block"`
			} `json:"shell"`
		}
		if err := json.Unmarshal(v, &o); err != nil {
			out.Problem(0, "cody.agentic.context.experimentalOptions: "+parser.JSONError(err))
		} else if o.Shell != nil {
			k := "cody.agentic.context.experimentalOptions.shell"
			if o.Shell.Allow != nil && len(o.Shell.Allow) == 0 {
				row(k+".allow", "[] (every command)")
			}
			for _, a := range o.Shell.Allow {
				row(k+".allow", a)
			}
			for _, a := range o.Shell.Block {
				row(k+".block", a)
			}
		}
	}
	if v, ok := m["cody.mcpServers"]; ok {
		// Server names and commands only: env and headers may hold keys.
		var servers map[string]struct {
			Command  string   `json:"command"`
			Args     []string `json:"args"`
			URL      string   `json:"url"`
			Disabled *bool    `json:"disabled"`
		}
		if err := json.Unmarshal(v, &servers); err != nil {
			out.Problem(0, "cody.mcpServers: "+parser.JSONError(err))
		} else {
			names := make([]string, 0, len(servers))
			for n := range servers {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				s := servers[n]
				val := strings.TrimSpace(strings.Join(append([]string{s.Command}, s.Args...), " "))
				if s.URL != "" {
					val = s.URL
				}
				if s.Disabled != nil {
					val += " disabled=" + strconv.FormatBool(*s.Disabled)
				}
				row("cody.mcpServers."+n, parser.RedactSecrets(val))
			}
		}
	}
	return nil
}

// node is an element of a small XML tree.
type node struct {
	name  string
	attrs map[string]string
	kids  []*node
}

// field names an element the way IntelliJ's serializer does: an
// <option name="x" value="..."/> is field x; <x value="..."/> is field x.
func (n *node) field() string {
	if n.name == "option" {
		return n.attrs["name"]
	}
	return n.name
}

func (n *node) child(field string) *node {
	for _, k := range n.kids {
		if k.field() == field {
			return k
		}
	}
	return nil
}

func (n *node) value(field string) string {
	if c := n.child(field); c != nil {
		return c.attrs["value"]
	}
	return ""
}

func readXML(r io.Reader) (*node, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	root := &node{name: "#root"}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return root, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.kids = append(top.kids, n)
			if len(stack) > 256 {
				return root, fmt.Errorf("nesting over 256 elements")
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// chatNodes finds the chat states: elements with an internalId and a
// messages field, wherever the serializer nested them (HistoryState.chats,
// or AccountData.chats per account in later plugin versions).
func chatNodes(n *node, acct string, fn func(chat *node, acct string)) {
	if n.child("internalId") != nil && n.child("messages") != nil {
		fn(n, acct)
		return
	}
	if a := n.value("accountId"); a != "" {
		acct = a
	}
	for _, k := range n.kids {
		chatNodes(k, acct, fn)
	}
}

// messageNodes lists a chat's message states in order.
func messageNodes(n *node, fn func(m *node)) {
	if n.child("speaker") != nil {
		fn(n)
		return
	}
	for _, k := range n.kids {
		messageNodes(k, fn)
	}
}

// parseLegacyHistory reads the JetBrains plugin's project history
// (sourcegraph/jetbrains HistoryService, @State ChatHistory, storage
// cody_history.xml): chats of messages {speaker HUMAN|ASSISTANT, text} with
// an updatedAt in ISO local date-time (host-local, no zone).
func parseLegacyHistory(_ context.Context, in *parser.Input, out parser.Sink) error {
	b, err := readWhole(in)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	root, err := readXML(bytes.NewReader(b))
	if err != nil {
		out.Problem(0, "cody_history.xml: "+err.Error())
	}
	project := projectOf(in.Path)
	n := 0
	chatNodes(root, "", func(c *node, acct string) {
		n++
		id := c.value("internalId")
		e0 := timeline.Event{SessionID: id, ProjectPath: project, SourceLine: int64(n), Secondary: true}
		if t, err := time.Parse("2006-01-02T15:04:05.999999999", c.value("updatedAt")); err == nil {
			e0.Time, e0.TimeBasis = t, timeline.TimeLocalAsUTC
		} else {
			e0.TimeBasis = timeline.TimeNone
		}
		if acct != "" {
			e := e0
			e.TurnType, e.Text = timeline.System, "legacy chat: account="+acct
			out.Event(e)
		}
		model := ""
		if l := c.child("llm"); l != nil {
			var find func(*node)
			find = func(x *node) {
				if v := x.value("model"); v != "" && model == "" {
					model = v
				}
				for _, k := range x.kids {
					find(k)
				}
			}
			find(l)
		}
		rows := 0
		messageNodes(c.child("messages"), func(m *node) {
			text := m.value("text")
			if text == "" {
				return
			}
			e := e0
			e.Text = text
			switch strings.ToUpper(m.value("speaker")) {
			case "HUMAN":
				e.TurnType = timeline.User
			case "ASSISTANT":
				e.TurnType, e.Model = timeline.Assistant, model
			default:
				e.TurnType = timeline.System
			}
			out.Event(e)
			rows++
		})
		if rows == 0 && acct == "" {
			out.Skip(int64(n), "no_evidence:empty-legacy-chat")
		}
	})
	return nil
}

// projectOf is the project directory of <project>/.idea/cody_history.xml.
func projectOf(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.LastIndex(p, "/.idea/"); i > 0 {
		return p[:i]
	}
	return ""
}
