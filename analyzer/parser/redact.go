package parser

import (
	"regexp"
	"strings"
)

// secretRe matches well-known credential shapes: provider API keys
// (sk-..., sk-ant-..., AIza...), GitHub and Slack tokens, AWS access key
// ids, and bearer/basic authorization values.
var secretRe = regexp.MustCompile(`(?i)(\b(bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\bsk-(ant-)?[A-Za-z0-9_-]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_[A-Za-z0-9_]{16,}|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}`)

// namedSecretRe matches a value given under a secret's name: TOKEN=...,
// X-Api-Key: ..., password ..., client_secret="...": the name and the
// separator are kept, the value (one with a letter: a count such as
// max_tokens=4096 is not a secret) is not; values of 5 characters or
// fewer are left as written.
var namedSecretRe = regexp.MustCompile(`(?i)(\b[A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credential)[A-Za-z0-9_-]*["']?\s*[=:]\s*["']?)([^\s"',;&)}\]]*[A-Za-z][^\s"',;&)}\]]*)`)

// RedactSecrets replaces credential-shaped substrings of s with
// "[redacted]", keeping an authorization scheme word, and the value given
// under a secret's name (TOKEN=..., X-Api-Key: ...) with "[redacted]",
// keeping the name. Settings rows pass
// their values through it, since a permission rule can embed a token
// (Bash(curl -H "Authorization: Bearer ...")).
func RedactSecrets(s string) string {
	s = secretRe.ReplaceAllStringFunc(s, func(m string) string {
		if sub := secretRe.FindStringSubmatch(m); sub != nil && sub[1] != "" {
			return sub[1] + "[redacted]"
		}
		return "[redacted]"
	})
	return namedSecretRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := namedSecretRe.FindStringSubmatch(m)
		if sub == nil || len(sub[2]) < 6 || strings.HasPrefix(sub[2], "[redacted") || strings.HasPrefix(sub[2], "***") {
			return m
		}
		return sub[1] + "[redacted]"
	})
}

// Secret is one credential-shaped value found in a text: Kind names its
// shape ("anthropic or openai key", "github token", "aws access key id",
// "slack token", "google api key", "authorization header", or
// "named:NAME" for a value given under a secret's name), Value is the
// value itself (callers fingerprint it; never print it).
type Secret struct {
	Kind, Value string
}

// FindSecrets returns the credential-shaped values of s, in order, as
// RedactSecrets would replace them.
func FindSecrets(s string) []Secret {
	var out []Secret
	for _, sub := range secretRe.FindAllStringSubmatch(s, -1) {
		m := sub[0]
		kind := ""
		switch l := strings.ToLower(m); {
		case sub[1] != "":
			kind, m = "authorization header", m[len(sub[1]):]
		case strings.HasPrefix(l, "sk-"):
			kind = "anthropic or openai key"
		case strings.HasPrefix(l, "gh") || strings.HasPrefix(l, "github_pat_"):
			kind = "github token"
		case strings.HasPrefix(l, "xox"):
			kind = "slack token"
		case strings.HasPrefix(m, "AKIA"):
			kind = "aws access key id"
		default:
			kind = "google api key"
		}
		out = append(out, Secret{kind, m})
	}
	for _, sub := range namedSecretRe.FindAllStringSubmatch(s, -1) {
		if len(sub[2]) < 6 || strings.HasPrefix(sub[2], "[redacted") || strings.HasPrefix(sub[2], "***") || secretRe.MatchString(sub[2]) {
			continue
		}
		name := strings.TrimRight(sub[1], "\"' \t=:")
		out = append(out, Secret{"named:" + name, sub[2]})
	}
	return out
}
