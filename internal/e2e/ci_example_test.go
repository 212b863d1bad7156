package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/local"
)

// workflowSteps returns the run: scripts of examples/ci/streamctl.yml's
// jobs, by job and step name.
func workflowSteps(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "examples", "ci", "streamctl.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string `yaml:"name"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for job, j := range wf.Jobs {
		out[job] = map[string]string{}
		for _, s := range j.Steps {
			if s.Run != "" {
				out[job][s.Name] = s.Run
			}
		}
	}
	return out
}

const ciConfig = `
variable "lake_secret_key" {
  type      = string
  sensitive = true
}

source "generate" "orders" {
  partitions            = 2
  records_per_partition = 3000
}

sink "orders" {
  source = source.generate.orders
  batch {
    max_records = 1000
  }

  destination "local" "lake" {
    path = "../out/lake"
  }
%s}
`

const ciArchive = `
  destination "local" "archive" {
    path = "../out/archive"
  }
`

// TestCIExampleFlow runs the steps of examples/ci/streamctl.yml as GitHub
// would, in a repository whose streamctl/ folder holds a configuration with
// a local state: the scheduled apply, with another process committing
// between its plan and its apply (the plan goes stale, and the job plans
// and applies again); then a pull request that adds a destination (validate
// without the secret, fmt, plan commented); then its merge, which applies
// the merged configuration. Every record lands exactly once in each
// destination, and each job's summary shows the plan it applied.
func TestCIExampleFlow(t *testing.T) {
	t.Parallel()
	steps := workflowSteps(t)
	for job, names := range map[string][]string{"plan": {"Validate", "Check formatting", "Plan"}, "apply": {"Plan and apply"}} {
		for _, n := range names {
			if steps[job][n] == "" {
				t.Fatalf("the workflow's %s job has no step %q", job, n)
			}
		}
	}
	repo := t.TempDir()
	cfgDir := filepath.Join(repo, "streamctl")
	if err := os.Mkdir(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeCfg := func(extra string) {
		if err := os.WriteFile(filepath.Join(cfgDir, "main.hcl"), []byte(fmt.Sprintf(ciConfig, extra)), 0o644); err != nil {
			t.Fatal(err)
		}
		mustRun(t, cfgDir, 0, nil, "fmt")
	}

	// Another process applying the same state: the first time the job
	// applies its plan file, one batch is committed just before.
	shim := t.TempDir()
	script := fmt.Sprintf(`#!/bin/sh
case " $* " in
*" apply "*streamctl.plan*)
  if [ ! -e %[1]q/once ]; then
    touch %[1]q/once
    %[2]q -chdir=%[3]q apply -auto-approve -max-batches=1 >/dev/null 2>&1 || exit 99
  fi ;;
esac
exec %[2]q "$@"
`, shim, binary, cfgDir)
	if err := os.WriteFile(filepath.Join(shim, "streamctl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	secret := "STREAMCTL_VAR_lake_secret_key=s3cr3t"
	step := func(job, name string, withSecret bool) (string, map[string]string, string) {
		t.Helper()
		output, summary := filepath.Join(t.TempDir(), "output"), filepath.Join(t.TempDir(), "summary")
		cmd := exec.Command("bash", "-e", "-c", steps[job][name])
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "STREAMCTL_DIR=streamctl", "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary,
			"PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"))
		if withSecret {
			cmd.Env = append(cmd.Env, secret)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s job, step %q: %v\n%s", job, name, err, out)
		}
		outputs := map[string]string{}
		data, _ := os.ReadFile(output)
		for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				outputs[k] = v
			}
		}
		sum, _ := os.ReadFile(summary)
		return string(out), outputs, string(sum)
	}
	lake := local.New(filepath.Join(repo, "out", "lake"))
	archive := local.New(filepath.Join(repo, "out", "archive"))
	want := expectedIDs(2, 3000)

	// The schedule, on main.
	writeCfg("")
	out, _, summary := step("apply", "Plan and apply", true)
	if !strings.Contains(out, "went stale") || !strings.Contains(summary, "batch") {
		t.Errorf("the scheduled job: want a stale plan made and applied again, and the plan applied in the summary:\n%s\nsummary:\n%s", out, summary)
	}
	assertExactlyOnce(t, lake, want)

	// A pull request adds a destination: validated without the secret
	// (as a fork's would be), planned with it.
	writeCfg(ciArchive)
	step("plan", "Validate", false)
	step("plan", "Check formatting", false)
	_, outputs, _ := step("plan", "Plan", true)
	md, err := os.ReadFile(filepath.Join(cfgDir, "plan.md"))
	if err != nil {
		t.Fatal(err)
	}
	if outputs["exitcode"] != "2" || !strings.Contains(string(md), "archive") || !strings.Contains(string(md), "On merge, the workflow plans the merged configuration again") {
		t.Errorf("the pull request's plan: exitcode %q, want 2, and a comment showing the new destination and what merging applies:\n%s", outputs["exitcode"], md)
	}

	// The merge applies the merged configuration.
	_, _, summary = step("apply", "Plan and apply", true)
	if !strings.Contains(summary, "archive") {
		t.Errorf("the merge's summary does not show the plan applied:\n%s", summary)
	}
	assertExactlyOnce(t, lake, want)
	assertExactlyOnce(t, archive, want)
	if _, _, summary = step("apply", "Plan and apply", true); !strings.Contains(summary, "Nothing to apply") {
		t.Errorf("a run with nothing pending: %s", summary)
	}
}
