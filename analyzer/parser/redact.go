package parser

import "regexp"

// secretRe matches well-known credential shapes: provider API keys
// (sk-..., sk-ant-..., AIza...), GitHub and Slack tokens, AWS access key
// ids, and bearer/basic authorization values.
var secretRe = regexp.MustCompile(`(?i)(\b(bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\bsk-(ant-)?[A-Za-z0-9_-]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_[A-Za-z0-9_]{16,}|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}`)

// RedactSecrets replaces credential-shaped substrings of s with
// "[redacted]", keeping an authorization scheme word. Settings rows pass
// their values through it, since a permission rule can embed a token
// (Bash(curl -H "Authorization: Bearer ...")).
func RedactSecrets(s string) string {
	return secretRe.ReplaceAllStringFunc(s, func(m string) string {
		if sub := secretRe.FindStringSubmatch(m); sub != nil && sub[1] != "" {
			return sub[1] + "[redacted]"
		}
		return "[redacted]"
	})
}
