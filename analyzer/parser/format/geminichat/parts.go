package geminichat

import (
	"bytes"
	"fmt"
	"strings"

	json "github.com/go-json-experiment/json/v1"
)

// Part is one @google/genai Part (or a bare string), as Gemini CLI and its
// fork Qwen Code record it in their chat files.
type Part struct {
	Text             *string           `json:"text"`
	Thought          bool              `json:"thought"`
	FunctionCall     *FunctionCall     `json:"functionCall"`
	FunctionResponse *FunctionResponse `json:"functionResponse"`
	InlineData       *struct {
		MimeType string `json:"mimeType"`
	} `json:"inlineData"`
	FileData *struct {
		MimeType string `json:"mimeType"`
		FileURI  string `json:"fileUri"`
	} `json:"fileData"`
	ExecutableCode *struct {
		Code string `json:"code"`
	} `json:"executableCode"`
	CodeExecutionResult *struct {
		Output string `json:"output"`
	} `json:"codeExecutionResult"`
}

// FunctionCall is a Part's functionCall.
type FunctionCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// FunctionResponse is a Part's functionResponse.
type FunctionResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// ParseParts reads a PartListUnion: a string, a Part, or an array of
// strings and Parts.
func ParseParts(raw json.RawMessage) []Part {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []Part{{Text: &s}}
		}
	case '{':
		var p Part
		if json.Unmarshal(raw, &p) == nil {
			return []Part{p}
		}
	case '[':
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) == nil {
			var ps []Part
			for _, a := range arr {
				ps = append(ps, ParseParts(a)...)
			}
			return ps
		}
	}
	return nil
}

// PartsText joins the text of parts (thought parts when thoughts is true,
// the others otherwise), the way the agent's partListUnionToString does,
// with placeholders for data parts.
func PartsText(ps []Part, thoughts bool) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Thought != thoughts {
			continue
		}
		switch {
		case p.Text != nil:
			b.WriteString(*p.Text)
		case thoughts:
		case p.InlineData != nil:
			fmt.Fprintf(&b, "[inlineData %s]", p.InlineData.MimeType)
		case p.FileData != nil:
			fmt.Fprintf(&b, "[fileData %s %s]", p.FileData.MimeType, p.FileData.FileURI)
		case p.ExecutableCode != nil:
			b.WriteString(p.ExecutableCode.Code)
		case p.CodeExecutionResult != nil:
			b.WriteString(p.CodeExecutionResult.Output)
		}
	}
	return b.String()
}
