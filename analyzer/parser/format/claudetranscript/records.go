package claudetranscript

import (
	"sort"
	"strconv"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/parser"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	json "github.com/go-json-experiment/json/v1"
)

// record is one transcript line; only the keys the parser uses.
type record struct {
	Type                      string          `json:"type"`
	Subtype                   string          `json:"subtype"`
	UUID                      string          `json:"uuid"`
	ParentUUID                *string         `json:"parentUuid"`
	SessionID                 string          `json:"sessionId"`
	Cwd                       string          `json:"cwd"`
	Timestamp                 string          `json:"timestamp"`
	IsSidechain               bool            `json:"isSidechain"`
	IsMeta                    bool            `json:"isMeta"`
	IsCompactSummary          bool            `json:"isCompactSummary"`
	IsVisibleInTranscriptOnly bool            `json:"isVisibleInTranscriptOnly"`
	IsAPIErrorMessage         bool            `json:"isApiErrorMessage"`
	AgentID                   string          `json:"agentId"`
	RequestID                 string          `json:"requestId"`
	Entrypoint                string          `json:"entrypoint"`
	PromptSource              string          `json:"promptSource"`
	TurnOrigin                string          `json:"turnOrigin"`
	PermissionMode            string          `json:"permissionMode"`
	RequestedModel            string          `json:"requestedModel"`
	Message                   *message        `json:"message"`
	Content                   json.RawMessage `json:"content"`
	ToolUseResult             toolUseResult   `json:"toolUseResult"`
	PermissionDecision        json.RawMessage `json:"permissionDecision"`
	ToolDenialKind            string          `json:"toolDenialKind"`
	Summary                   string          `json:"summary"`
	Operation                 string          `json:"operation"`
	Data                      json.RawMessage `json:"data"`
	Attachment                json.RawMessage `json:"attachment"`
	CompactMetadata           *struct {
		Trigger   string          `json:"trigger"`
		PreTokens json.RawMessage `json:"preTokens"`
	} `json:"compactMetadata"`
	Error        json.RawMessage `json:"error"`
	RetryAttempt json.RawMessage `json:"retryAttempt"`
	MaxRetries   json.RawMessage `json:"maxRetries"`
	RetryInMs    json.RawMessage `json:"retryInMs"`
	HookInfos    []struct {
		Command string `json:"command"`
	} `json:"hookInfos"`
	HookErrors            json.RawMessage `json:"hookErrors"`
	PreventedContinuation bool            `json:"preventedContinuation"`
	StopReason            string          `json:"stopReason"`

	// Forks and copies: /branch and the SDK's forkSession stamp every
	// copied entry with the session and record it came from.
	ForkedFrom *struct {
		SessionID   string `json:"sessionId"`
		MessageUUID string `json:"messageUuid"`
	} `json:"forkedFrom"`
	// Remote Control, teleport and the session daemon.
	RemoteSourced        json.RawMessage `json:"remoteSourced"`
	RemoteSessionID      string          `json:"remoteSessionId"`
	BridgeSessionID      json.RawMessage `json:"bridgeSessionId"`
	LastSequenceNum      json.RawMessage `json:"lastSequenceNum"`
	ContinuedInSessionID string          `json:"continuedInSessionId"`
	URL                  string          `json:"url"`
	// A /loop or cron firing (system scheduled_task_fire).
	TaskID string          `json:"taskId"`
	Cron   string          `json:"cron"`
	Atis   json.RawMessage `json:"atis"`
	Mode   json.RawMessage `json:"mode"` // the mode record: normal, coordinator
}

// message is the Anthropic API message inside user and assistant records.
// It is decoded with its record in one pass: a long line (a 50 MB tool
// output) is not kept as raw JSON at several levels.
type message struct {
	ID      string
	Model   string
	Role    string
	Content msgContent
	// spread holds the members of a message written as an object of
	// numeric keys, one fragment each (claude-code #24663: after a
	// streaming fallback the message is the characters of a string spread
	// into an object, and content is empty).
	spread []spreadPart
}

type spreadPart struct {
	n int
	s string
}

// UnmarshalJSONFrom reads the message's few keys straight from the
// decoder and skips the rest (usage, stop_reason); numeric keys with a
// string value are kept as fragments of a spread message.
func (m *message) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '{':
	case '"':
		s, err := parser.ReadString(dec)
		if err != nil {
			return err
		}
		m.Content.Str = s
		return nil
	default:
		return dec.SkipValue()
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		nt, err := dec.ReadToken()
		if err != nil {
			return err
		}
		switch name := nt.String(); name {
		case "id":
			m.ID, err = readString(dec)
		case "model":
			m.Model, err = readString(dec)
		case "role":
			m.Role, err = readString(dec)
		case "content":
			err = m.Content.UnmarshalJSONFrom(dec)
		default:
			n, nerr := -1, error(nil)
			if name != "" && name[0] >= '0' && name[0] <= '9' { // Atoi's error allocates
				n, nerr = strconv.Atoi(name)
			}
			if nerr == nil && n >= 0 && dec.PeekKind() == '"' {
				var s string
				if s, err = parser.ReadString(dec); err == nil {
					m.spread = append(m.spread, spreadPart{n, s})
				}
			} else {
				err = dec.SkipValue()
			}
		}
		if err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// readString reads a string value, or skips any other value as "".
func readString(dec *jsontext.Decoder) (string, error) {
	if dec.PeekKind() != '"' {
		return "", dec.SkipValue()
	}
	return parser.ReadString(dec)
}

// spreadText joins a spread message's fragments in key order.
func (m *message) spreadText() string {
	sort.Slice(m.spread, func(i, j int) bool { return m.spread[i].n < m.spread[j].n })
	var b strings.Builder
	for _, p := range m.spread {
		b.WriteString(p.s)
	}
	return b.String()
}

// msgContent is message.content: a string or a list of blocks.
type msgContent struct {
	Str    string
	Blocks []block
}

// UnmarshalJSONFrom decodes either form straight from the decoder, so a
// long string is not first copied as raw JSON.
func (c *msgContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		s, err := parser.ReadString(dec)
		if err != nil {
			return err
		}
		c.Str = s
		return nil
	case '[':
		return jsonv2.UnmarshalDecode(dec, &c.Blocks, json.DefaultOptionsV1())
	}
	return dec.SkipValue()
}

// resultContent is a tool_result block's content, kept only as its text
// (a string, or text blocks joined, images named).
type resultContent struct{ Text string }

// UnmarshalJSONFrom renders the content as text straight from the decoder.
func (c *resultContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		s, err := parser.ReadString(dec)
		if err != nil {
			return err
		}
		c.Text = s
		return nil
	case '[':
		var blocks []block
		if err := jsonv2.UnmarshalDecode(dec, &blocks, json.DefaultOptionsV1()); err != nil {
			return err
		}
		c.Text = blocksText(blocks)
		return nil
	case 'n':
		return dec.SkipValue()
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if s, ok := functionResponseText(v); ok {
		c.Text = s
		return nil
	}
	c.Text = parser.CompactJSON(json.RawMessage(v))
	return nil
}

// functionResponseText reads the tool result object iFlow writes (a
// Gemini function response kept whole: {callId, responseParts:
// {functionResponse: {id, name, response: {output | error}}},
// resultDisplay}, responseParts also a list of parts): the output, else
// the error, else the display text. ok is false for any other object.
func functionResponseText(v []byte) (string, bool) {
	var o struct {
		ResponseParts json.RawMessage `json:"responseParts"`
		ResultDisplay json.RawMessage `json:"resultDisplay"`
	}
	if json.Unmarshal(v, &o) != nil || len(o.ResponseParts) == 0 {
		return "", false
	}
	type part struct {
		FunctionResponse *struct {
			Response map[string]json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	}
	var parts []part
	var one part
	if json.Unmarshal(o.ResponseParts, &one) == nil {
		parts = []part{one}
	} else if json.Unmarshal(o.ResponseParts, &parts) != nil {
		return "", false
	}
	var out []string
	for _, p := range parts {
		if p.FunctionResponse == nil {
			continue
		}
		r := p.FunctionResponse.Response
		for _, k := range []string{"output", "error"} {
			if s := parser.JSONText(r[k]); s != "" {
				out = append(out, s)
				break
			}
		}
	}
	if len(out) == 0 {
		if s := parser.JSONText(o.ResultDisplay); s != "" {
			return s, true
		}
		return "", false
	}
	return strings.Join(out, "\n"), true
}

// toolUseResult is the structured copy of a tool result: only the fields
// the parser reads are kept (an object's exit code, interruption and
// persisted-output path; a string's text), not the copy of the output.
type toolUseResult struct {
	Obj                 bool
	Str                 string
	Interrupted         bool
	ExitCode            string
	PersistedOutputPath string
	Status              string // iFlow: success, error
}

// UnmarshalJSONFrom keeps the few fields read, skipping the rest (the
// output's copy) without storing it.
func (u *toolUseResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '{':
		var o struct {
			Interrupted         bool            `json:"interrupted"`
			ExitCode            json.RawMessage `json:"exitCode"`
			PersistedOutputPath string          `json:"persistedOutputPath"`
			Status              json.RawMessage `json:"status"`
		}
		if err := jsonv2.UnmarshalDecode(dec, &o, json.DefaultOptionsV1()); err != nil {
			return nil // a shape we do not know: the fields stay unset
		}
		u.Obj, u.Interrupted, u.ExitCode, u.PersistedOutputPath = true, o.Interrupted, parser.JSONText(o.ExitCode), o.PersistedOutputPath
		u.Status, _ = parser.JSONString(o.Status)
		return nil
	case '"':
		s, err := parser.ReadString(dec)
		if err != nil {
			return err
		}
		u.Str = s
		return nil
	}
	return dec.SkipValue()
}

// block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   resultContent   `json:"content"`
	IsError   *bool           `json:"is_error"`
	Source    *struct {
		MediaType string `json:"media_type"`
	} `json:"source"`
}

// progressData is a progress record's data: a hook that ran, or (for
// agent_progress) a copy of one of a subagent's own records.
type progressData struct {
	Type     string          `json:"type"`
	HookName string          `json:"hookName"`
	Command  string          `json:"command"`
	AgentID  string          `json:"agentId"`
	Message  json.RawMessage `json:"message"`
}
