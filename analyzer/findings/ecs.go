package findings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/doubleagent/doubleagent/analyzer/analyze"
	"github.com/doubleagent/doubleagent/analyzer/rules"
	"github.com/doubleagent/doubleagent/analyzer/timeline"
)

// ECSFileName is findings.jsonl as Elastic Common Schema alerts, written
// beside the timeline's ECS output (timeline.ecs.jsonl) when the folder
// holds one.
const ECSFileName = "findings.ecs.jsonl"

// detectorTechniques are the ATT&CK techniques of the built-in detectors
// (the Sigma rules carry theirs as attack.tNNNN tags). The prompt-injection
// detector has none: no ATT&CK technique describes it.
var detectorTechniques = map[string][]string{
	ClonedHookID:           {"T1546", "T1195.001"},
	ApprovedMCPChangedID:   {"T1546", "T1195.001"},
	HeadlessBypassID:       {"T1562.001"},
	ForbiddenDestructionID: {"T1485"},
	ScanRateID:             {"T1046"},
	PromptLockID:           {"T1486", "T1083"},
	SecretExposureID:       {"T1552"},
}

// severity maps a level to ECS event.severity as Elastic's detection
// rules number them.
var severity = map[string]int{"low": 21, "medium": 47, "high": 73, "critical": 99}

// ECSFinding is one line of findings.ecs.jsonl.
type ECSFinding struct {
	Timestamp   string         `json:"@timestamp,omitempty"`
	ECS         ecsVer         `json:"ecs"`
	Message     string         `json:"message"`
	Event       ecsAlert       `json:"event"`
	Rule        ecsRule        `json:"rule"`
	Threat      *ecsThreat     `json:"threat,omitempty"`
	Host        *ecsName       `json:"host,omitempty"`
	User        *ecsName       `json:"user,omitempty"`
	DoubleAgent ecsFindingBody `json:"doubleagent"`
}

type ecsVer struct {
	Version string `json:"version"`
}

type ecsName struct {
	Name string `json:"name"`
}

type ecsAlert struct {
	Kind     string `json:"kind"` // "alert"
	Module   string `json:"module"`
	Dataset  string `json:"dataset"`
	Severity int    `json:"severity,omitempty"`
	Start    string `json:"start,omitempty"`
	End      string `json:"end,omitempty"`
}

type ecsRule struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Category string `json:"category"` // the finding's class
	Ruleset  string `json:"ruleset"`  // "doubleagent"
	Version  string `json:"version,omitempty"`
	Ref      string `json:"reference,omitempty"`
}

type ecsThreat struct {
	Framework string         `json:"framework"`
	Technique []ecsTechnique `json:"technique"`
}

type ecsTechnique struct {
	ID           string         `json:"id"`
	Reference    string         `json:"reference"`
	Subtechnique []ecsTechnique `json:"subtechnique,omitempty"`
}

type ecsFindingBody struct {
	Finding Finding `json:"finding"` // the findings.jsonl object, whole
}

// techniques returns the ATT&CK techniques of a rule's tags.
func techniques(tags []string) []string {
	var out []string
	for _, t := range tags {
		if s, ok := strings.CutPrefix(strings.ToLower(t), "attack.t"); ok && s != "" && s[0] >= '0' && s[0] <= '9' {
			out = append(out, "T"+strings.ToUpper(s))
		}
	}
	return out
}

// threat groups techniques and sub-techniques as ECS nests them.
func threat(ids []string) *ecsThreat {
	if len(ids) == 0 {
		return nil
	}
	byTech := map[string]*ecsTechnique{}
	var order []string
	for _, id := range ids {
		base, sub, _ := strings.Cut(id, ".")
		tch := byTech[base]
		if tch == nil {
			tch = &ecsTechnique{ID: base, Reference: "https://attack.mitre.org/techniques/" + base + "/"}
			byTech[base] = tch
			order = append(order, base)
		}
		if sub != "" {
			tch.Subtechnique = append(tch.Subtechnique, ecsTechnique{ID: id, Reference: "https://attack.mitre.org/techniques/" + base + "/" + sub + "/"})
		}
	}
	sort.Strings(order)
	th := &ecsThreat{Framework: "MITRE ATT&CK"}
	for _, b := range order {
		th.Technique = append(th.Technique, *byTech[b])
	}
	return th
}

// ToECS gives a finding as an ECS alert; tags are its rule's Sigma tags
// (nil for a built-in detector).
func ToECS(f Finding, tags []string) ECSFinding {
	ids := techniques(tags)
	if f.Engine == "builtin" {
		ids = detectorTechniques[f.RuleID]
	}
	d := ECSFinding{Timestamp: f.FirstUTC, ECS: ecsVer{analyze.ECSVersion}, Message: f.RuleTitle,
		Event:  ecsAlert{Kind: "alert", Module: "doubleagent", Dataset: "doubleagent.findings", Severity: severity[f.Level], Start: f.FirstUTC, End: f.LastUTC},
		Rule:   ecsRule{ID: f.RuleID, Name: f.RuleTitle, Category: f.Class, Ruleset: "doubleagent", Ref: f.RuleSource},
		Threat: threat(ids), DoubleAgent: ecsFindingBody{f}}
	if f.Host != "" {
		d.Host = &ecsName{f.Host}
	}
	if f.User != "" {
		d.User = &ecsName{f.User}
	}
	return d
}

// writeECS writes findings.ecs.jsonl beside timeline.ecs.jsonl, when the
// folder holds one; it returns the path written or "".
func writeECS(dir string, fs_ []Finding, rs []rules.Rule) (string, error) {
	if _, err := os.Lstat(filepath.Join(dir, analyze.TimelineECS)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", err
	}
	tags := map[string][]string{}
	for _, r := range rs {
		tags[r.ID] = r.Tags
	}
	p := filepath.Join(dir, ECSFileName)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644) // as findings.jsonl: Run rewrites both
	if err != nil {
		return "", err
	}
	w := timeline.NewWriter(f)
	for i := range fs_ {
		doc := ToECS(fs_[i], tags[fs_[i].RuleID])
		if err := w.Write(&doc); err != nil {
			f.Close()
			return "", err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return p, f.Close()
}
