package bundle

import "regexp"

// SecretShapes matches well-known credential shapes: provider API keys
// (sk-..., sk-ant-..., AIza...), GitHub and Slack tokens, AWS access key
// ids, and bearer/basic authorization values (group 1 is the scheme word
// and the space after it). It is the one definition the analyzer's secret
// scanner (analyzer/parser FindSecrets, RedactSecrets) and the
// collector's log share.
var SecretShapes = regexp.MustCompile(`(?i)(\b(bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\bsk-(ant-)?[A-Za-z0-9_-]{8,}|\bgh[pousr]_[A-Za-z0-9]{16,}|\bgithub_pat_[A-Za-z0-9_]{16,}|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{30,}`)

// MaskSecrets is s, a path or a value to be printed (a log line, a
// problem's message, a terminal line), with every credential-shaped
// substring (SecretShapes) written "[redacted]", an authorization scheme
// word kept: a token inside a path (CLAUDE_CONFIG_DIR=/x/ghp_...) is not
// printed. The manifest keeps paths as found (format.md); what prints
// them masks them.
func MaskSecrets(s string) string {
	if !SecretShapes.MatchString(s) {
		return s
	}
	return SecretShapes.ReplaceAllStringFunc(s, func(m string) string {
		if sub := SecretShapes.FindStringSubmatch(m); sub != nil && sub[1] != "" {
			return sub[1] + "[redacted]"
		}
		return "[redacted]"
	})
}
