package catalog

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteTable prints list as the plain-text table `doubleagent catalog` and
// `doubleagent-collector --list` show: one line per agent (name, status,
// evidence, display name), then one per target (ID, kind, systems, the
// home-relative patterns).
func WriteTable(w io.Writer, list []Agent) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "statuses: parsed = the analyzer reads its records; backlog = collected, a parser is wanted; collected = collected and detected, nothing to parse")
	fmt.Fprintf(bw, "%-22s %-10s %-15s %s\n", "AGENT", "STATUS", "EVIDENCE", "NAME")
	fmt.Fprintf(bw, "    %-18s %-10s %-20s %s\n", "TARGET", "KIND", "OS", "PATHS (relative to each home)")
	for _, a := range list {
		fmt.Fprintf(bw, "%-22s %-10s %-15s %s\n", a.Name, a.Status, a.Evidence, a.Display)
		for _, t := range a.Targets {
			var os []string
			for _, o := range t.OSes() {
				os = append(os, string(o))
			}
			fmt.Fprintf(bw, "    %-18s %-10s %-20s %s\n", t.ID, t.Kind, strings.Join(os, ","), strings.Join(TargetPatterns(t), "  "))
		}
	}
	return bw.Flush()
}
