package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"go.yaml.in/yaml/v3"
)

// k8sJob is the part of a batch/v1 Job the recipes rely on.
type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          int    `yaml:"completions"`
		Parallelism          int    `yaml:"parallelism"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Image   string   `yaml:"image"`
					Command []string `yaml:"command"`
					Env     []struct {
						Name, Value string
					} `yaml:"env"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name      string         `yaml:"name"`
					ConfigMap map[string]any `yaml:"configMap"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func loadJob(t *testing.T, p string) k8sJob {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var j k8sJob
	var raw yaml.Node
	if err := yaml.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: not YAML: %v", p, err)
	}
	if err := raw.Decode(&j); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 || j.Spec.Template.Spec.RestartPolicy != "Never" {
		t.Fatalf("%s: %s %s with %d containers, restart %q: want one batch/v1 Job container, restartPolicy Never", p, j.APIVersion, j.Kind, len(j.Spec.Template.Spec.Containers), j.Spec.Template.Spec.RestartPolicy)
	}
	c := j.Spec.Template.Spec.Containers[0]
	vols := map[string]bool{}
	for _, v := range j.Spec.Template.Spec.Volumes {
		vols[v.Name] = true
	}
	for _, m := range c.VolumeMounts {
		if !vols[m.Name] {
			t.Errorf("%s: mount %s names no volume", p, m.Name)
		}
	}
	return j
}

func env(j k8sJob, name string) string {
	for _, e := range j.Spec.Template.Spec.Containers[0].Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

// parseArgs parses a doubleagent command line as the binary would, without
// running it: an unknown flag, command or enum value fails.
func parseArgs(t *testing.T, args []string) *kong.Context {
	t.Helper()
	var cli CLI
	p, err := kong.New(&cli, kong.Name("doubleagent"), kong.Vars{"version": Version, "identity_help": identityHelp}, kong.Exit(func(int) { t.Fatalf("kong exited on %q", args) }))
	if err != nil {
		t.Fatal(err)
	}
	kctx, err := p.Parse(args)
	if err != nil {
		t.Fatalf("doubleagent %s: %v", strings.Join(args, " "), err)
	}
	return kctx
}

// TestKubernetesRecipe: scripts/k8s/doubleagent-shards.yaml is an Indexed
// Job whose SHARD_COUNT is its completions, mounting the shard script's
// ConfigMap; its pods' command, run through shard.sh with the binary
// replaced by echo, gives each index the bundles of its hosts (every host's
// bundles in one shard, every bundle in exactly one) and a timeline command
// line this binary parses; doubleagent-merge.yaml's merge command parses too
// and checks the same SHARD_COUNT.
func TestKubernetesRecipe(t *testing.T) {
	dir := filepath.Join("..", "scripts", "k8s")
	sj := loadJob(t, filepath.Join(dir, "doubleagent-shards.yaml"))
	n, _ := strconv.Atoi(env(sj, "SHARD_COUNT"))
	if sj.Spec.CompletionMode != "Indexed" || sj.Spec.Completions != n || n < 2 || sj.Spec.Parallelism < 1 || sj.Spec.BackoffLimitPerIndex == nil {
		t.Fatalf("shards Job: mode %q, completions %d, SHARD_COUNT %q, parallelism %d, backoffLimitPerIndex %v", sj.Spec.CompletionMode, sj.Spec.Completions, env(sj, "SHARD_COUNT"), sj.Spec.Parallelism, sj.Spec.BackoffLimitPerIndex)
	}
	cmd := sj.Spec.Template.Spec.Containers[0].Command
	if len(cmd) != 3 || cmd[0] != "bash" || cmd[1] != "-c" || !strings.Contains(cmd[2], `/scripts/shard.sh /case/bundles.txt "$JOB_COMPLETION_INDEX" "$SHARD_COUNT" /case/shards `) {
		t.Fatalf("shards command %q", cmd)
	}
	hasScript := false
	for _, v := range sj.Spec.Template.Spec.Volumes {
		hasScript = hasScript || v.ConfigMap["name"] == "doubleagent-shard"
	}
	if !hasScript {
		t.Fatal("no volume from the doubleagent-shard ConfigMap")
	}
	// Run the pods' command for every index against a list of 40 bundles
	// of 20 hosts, with /scripts and /case rewritten to the repo and a temp folder.
	tmp := t.TempDir()
	var list []string
	for h := 0; h < 20; h++ {
		for _, day := range []string{"20261201", "20261202"} {
			list = append(list, filepath.Join(tmp, "bundles", "ws-"+strconv.Itoa(h)+"_"+day+"T101500Z_doubleagent.tar.zst"))
		}
	}
	os.WriteFile(filepath.Join(tmp, "bundles.txt"), []byte(strings.Join(list, "\n")+"\n"), 0o644)
	script, _ := filepath.Abs(filepath.Join(dir, "shard.sh"))
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		line := strings.NewReplacer("exec bash /scripts/shard.sh", "exec bash "+script, "/case/", tmp+"/").Replace(cmd[2])
		c := exec.Command("bash", "-c", line)
		c.Env = append(os.Environ(), "JOB_COMPLETION_INDEX="+strconv.Itoa(i), "SHARD_COUNT="+strconv.Itoa(n), "DOUBLEAGENT=echo")
		out, err := c.Output()
		if err != nil {
			t.Fatalf("index %d: %v", i, err)
		}
		args := strings.Fields(string(out))
		kctx := parseArgs(t, args)
		if kctx.Command() != "timeline <INPUT>" {
			t.Fatalf("index %d runs %q", i, kctx.Command())
		}
		o := slices.Index(args, "-o")
		if o < 2 || args[o+1] != filepath.Join(tmp, "shards", "shard-"+strings.Repeat("0", 5-len(strconv.Itoa(i)))+strconv.Itoa(i)) {
			t.Fatalf("index %d: %q", i, args)
		}
		hosts := map[string]bool{}
		for _, b := range args[1:o] {
			seen[b]++
			hosts[strings.SplitN(filepath.Base(b), "_", 2)[0]] = true
		}
		if o-1 != 2*len(hosts) {
			t.Errorf("index %d: %d bundles of %d hosts (each host has 2)", i, o-1, len(hosts))
		}
	}
	for _, b := range list {
		if seen[b] != 1 {
			t.Errorf("%s in %d shards", b, seen[b])
		}
	}

	mj := loadJob(t, filepath.Join(dir, "doubleagent-merge.yaml"))
	if env(mj, "SHARD_COUNT") != env(sj, "SHARD_COUNT") {
		t.Fatalf("merge SHARD_COUNT %q, shards %q", env(mj, "SHARD_COUNT"), env(sj, "SHARD_COUNT"))
	}
	mcmd := mj.Spec.Template.Spec.Containers[0].Command
	script2 := mcmd[len(mcmd)-1]
	i := strings.Index(script2, "exec doubleagent merge ")
	if i < 0 || !strings.Contains(script2, `"$SHARD_COUNT"`) {
		t.Fatalf("merge command %q", mcmd)
	}
	margs := strings.Fields(strings.SplitN(script2[i+len("exec doubleagent "):], "\n", 2)[0])
	for k, a := range margs {
		if a == "/case/shards/shard-*" {
			margs[k] = "/case/shards/shard-00000"
		}
	}
	if kctx := parseArgs(t, margs); kctx.Command() != "merge <SHARD_OUT>" {
		t.Fatalf("merge runs %q", kctx.Command())
	}
}
