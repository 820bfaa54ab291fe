package ollama

import (
	"context"
	"fmt"
	"path"
	"strings"

	json "github.com/go-json-experiment/json/v1"

	"github.com/doubleagent/doubleagent/analyzer/parser"
)

// modelManifest is a file under models/manifests (ollama/ollama@fb30760
// manifest/manifest.go Manifest, manifest/layer.go Layer).
type modelManifest struct {
	SchemaVersion int             `json:"schemaVersion"`
	MediaType     string          `json:"mediaType"`
	Config        manifestLayer   `json:"config"`
	Layers        []manifestLayer `json:"layers"`
}

type manifestLayer struct {
	MediaType string `json:"mediaType"`
	Digest    string `json:"digest"`
	Size      int64  `json:"size"`
	From      string `json:"from,omitempty"`
	Name      string `json:"name,omitempty"`
}

// manifestName is the model a manifest's path names: the last four
// components are host, namespace, model and tag (types/model/name.go
// Filepath). It returns the full name and the shortest one ollama shows
// (DisplayShortest: "gpt-oss:20b" for registry.ollama.ai/library), or
// ok=false when the path has fewer components.
func manifestName(p string) (full, short string, ok bool) {
	parts := strings.Split(strings.ReplaceAll(p, "\\", "/"), "/")
	if len(parts) < 4 {
		return "", "", false
	}
	h, ns, m, tag := parts[len(parts)-4], parts[len(parts)-3], parts[len(parts)-2], parts[len(parts)-1]
	full = h + "/" + ns + "/" + m + ":" + tag
	switch {
	case strings.EqualFold(h, "registry.ollama.ai") && strings.EqualFold(ns, "library"):
		short = m + ":" + tag
	case strings.EqualFold(h, "registry.ollama.ai"):
		short = ns + "/" + m + ":" + tag
	default:
		short = full
	}
	return full, short, true
}

// layerKind is a layer's media type without ollama's prefix ("model",
// "template", "license", ...).
func layerKind(mt string) string {
	if k, ok := strings.CutPrefix(mt, "application/vnd.ollama.image."); ok {
		return k
	}
	return mt
}

func parseManifest(ctx context.Context, in *parser.Input, out parser.Sink) error {
	data, err := parser.ReadWhole(in, maxWhole)
	if err != nil {
		out.Problem(0, "model manifest not read: "+err.Error())
		return nil
	}
	var m modelManifest
	if err := json.Unmarshal(data, &m); err != nil {
		out.Problem(0, parser.NotJSONObject("model manifest", err))
		return nil
	}
	p := in.File.Rel
	if p == "" {
		p = in.File.Path
	}
	full, short, ok := manifestName(p)
	if !ok {
		full, short = path.Base(strings.ReplaceAll(p, "\\", "/")), path.Base(strings.ReplaceAll(p, "\\", "/"))
	}
	if len(m.Layers) == 0 && m.Config.Digest == "" {
		out.Problem(1, "model manifest of "+full+" names no layer and no config (not an ollama manifest, or emptied)")
		return nil
	}
	var total int64
	var listed []string
	for _, l := range m.Layers {
		total += l.Size
		d := l.Digest
		if d == "" {
			d = "(no digest)"
		}
		listed = append(listed, fmt.Sprintf("%s %s (%d bytes)", layerKind(l.MediaType), d, l.Size))
	}
	if m.Config.Digest != "" {
		total += m.Config.Size
		listed = append(listed, fmt.Sprintf("config %s (%d bytes)", m.Config.Digest, m.Config.Size))
	}
	e := parser.SettingEvent(&in.File)
	e.SourceLine, e.Model = 1, short
	e.Text = fmt.Sprintf("model manifest: %s (%s), %d layer(s), %d bytes: %s; written when the model was pulled or created (from %s, file mtime)",
		short, full, len(m.Layers), total, strings.Join(listed, ", "), parser.DisplayFile(&in.File))
	out.Event(e)
	return nil
}
