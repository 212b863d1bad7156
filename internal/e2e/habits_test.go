package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/state"
)

// ptyDriver runs a command in a pseudo-terminal (Python's pty module), waits
// for a prompt, then types Ctrl-C: the terminal turns it into SIGINT for the
// command, as for a person at the keyboard. It prints what the command
// wrote and exits with the command's exit status.
const ptyDriver = `
import os, pty, sys, select, time
argv = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(argv[0], argv)
out = b""
deadline = time.time() + 30
sent = False
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    if not sent and b"Enter a value:" in out:
        os.write(fd, b"\x03")
        sent = True
        break
# A command still running 10 seconds after Ctrl-C ignored it: kill it.
end = time.time() + 10
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        # What it wrote last is still in the terminal: read it all.
        while select.select([fd], [], [], 0.2)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
        break
    if time.time() > end:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        out += b"\n(still running 10 s after Ctrl-C: killed)"
        status = 98 << 8
        break
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            out += os.read(fd, 4096)
        except OSError:
            pass
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status) if sent else 99)
`

// TestStateRmCtrlCAtPromptInTerminal: the first Ctrl-C typed at state rm's
// prompt, in a terminal, cancels: exit 1, "cancelled", the checkpoint kept,
// the lock free for the next command.
func TestStateRmCtrlCAtPromptInTerminal(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 (for a pseudo-terminal): %v", err)
	}
	dir := writeConfig(t, `
source "generate" "orders" {
  records_per_partition = 100
}
sink "orders" {
  source = source.generate.orders
  destination "local" "lake" {
    path = "out"
  }
}
`)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	cmd := exec.Command(python, "-c", ptyDriver, binary, "-chdir="+dir, "state", "rm", "-no-color", "orders")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 1 || !strings.Contains(string(out), "cancelled") {
		t.Fatalf("Ctrl-C at state rm's prompt: exit %d, want 1 and \"cancelled\":\n%s", code, out)
	}
	if r := mustRun(t, dir, 0, nil, "state", "list"); !strings.Contains(r.stdout, "orders") {
		t.Errorf("the cancelled state rm removed the checkpoint:\n%s", r.stdout)
	}
	mustRun(t, dir, 0, nil, "state", "rm", "-force", "-lock-timeout=0", "orders")
}

// TestTerraformHabits runs the binary as a Terraform user would: validate
// without the secrets, a variable's validation rule, a required_version on
// a development build, plan's -lock, -lock-timeout and -parallelism, and
// the debug log of store requests.
func TestTerraformHabits(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `
streamctl {
  required_version = ">= 0.9"
}

variable "records" {
  type    = number
  default = 1000

  validation {
    condition     = var.records >= 100
    error_message = "records must be at least 100."
  }
}

variable "archive_sas" {
  type      = string
  sensitive = true
}

source "generate" "orders" {
  records_per_partition = var.records
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
  destination "azblob" "archive" {
    account_url = "http://127.0.0.1:1/devstoreaccount1"
    container   = "archive"
    sas_token   = var.archive_sas
  }
}
`)
	// A fork's pull request has no secrets: validate passes without them.
	r := mustRun(t, dir, 0, nil, "validate", "-no-color")
	mustContain(t, "validate without the secret", r.stdout, "Success! The configuration is valid: 1 source, 1 sink.")
	if !strings.Contains(r.stdout+r.stderr, "Version constraint not checked") {
		t.Errorf("a development build under required_version: want a warning\n%s", r)
	}
	// plan needs them, and names the variable.
	if r := run(t, dir, nil, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, `"archive_sas"`) {
		t.Errorf("plan without the secret: %s", r)
	}
	// A value that breaks the rule: the message and the rule's line.
	r = run(t, dir, nil, "validate", "-no-color", "-var=records=5")
	if r.code != 1 || !strings.Contains(r.stderr, "records must be at least 100.") || !strings.Contains(r.stderr, "main.hcl line 11") {
		t.Errorf("validate -var=records=5: want exit 1 with the rule's message and main.hcl line 11:\n%s", r)
	}

	// Without the Azure destination, plan runs: the flags Terraform users
	// type, and the debug log.
	data, err := os.ReadFile(filepath.Join(dir, "main.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(data)
	cut := strings.Index(cfg, `  destination "azblob"`)
	cfg = cfg[:cut] + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"STREAMCTL_VAR_archive_sas=sv=1&sig=x", "STREAMCTL_LOG=debug"}
	r = mustRun(t, dir, 2, env, "plan", "-no-color", "-detailed-exitcode", "-lock=false", "-lock-timeout=5s", "-parallelism=1")
	if !strings.Contains(r.stdout+r.stderr, "-lock=false") || !strings.Contains(r.stdout, "Plan: 1 batch") {
		t.Errorf("plan -lock=false: want the plan and a warning:\n%s", r)
	}
	if !strings.Contains(r.stderr, "[DEBUG] store ") || !strings.Contains(r.stderr, ": LIST _streamctl/orders/ -> ok") {
		t.Errorf("STREAMCTL_LOG=debug: want each store request on stderr:\n%s", r.stderr)
	}
	if strings.Contains(r.stdout, "[DEBUG]") {
		t.Errorf("the debug log went to stdout:\n%s", r.stdout)
	}
}

// TestPlanWaitsForARunningApplyOnS3: on a remote state, plan looks at the
// sinks' locks without taking them. A sink held by a live apply is waited
// for up to -lock-timeout, then reported beside the plan; once released,
// plan says nothing of it; -lock=false does not look.
func TestPlanWaitsForARunningApplyOnS3(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("plan-lock")
	srv.CreateBucket(t, bucket)
	dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
	dir := writeConfig(t, workersConfig(s3StateBlock(srv, bucket), dest, 2, 1, 300, 100))
	ctx := context.Background()
	backend := state.NewRemote(s3Storage(t, srv, bucket, ""), remoteStateKey)
	info := state.NewLockInfo("apply", "test")
	u, err := backend.SinkLock("s01").Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, srv.Env(), "plan", "-no-color", "-detailed-exitcode", "-lock-timeout=1s")
	if !strings.Contains(r.stdout+r.stderr, `Sink "s01" is locked by apply`) {
		t.Errorf("plan while sink s01 is applied: want a warning naming it:\n%s", r)
	}
	if r := mustRun(t, dir, 2, srv.Env(), "plan", "-no-color", "-detailed-exitcode", "-lock=false"); strings.Contains(r.stdout+r.stderr, "is locked by") {
		t.Errorf("plan -lock=false looked at the lock:\n%s", r)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	// The debug log shows the state backend's requests too: the state and
	// its locks are in a store like the destinations'.
	debug := append(srv.Env(), "STREAMCTL_LOG=debug")
	r = mustRun(t, dir, 2, debug, "plan", "-no-color", "-detailed-exitcode")
	if strings.Contains(r.stdout+r.stderr, "Warning") {
		t.Errorf("plan over free locks warned:\n%s", r)
	}
	stateRequest := regexp.MustCompile(`\[DEBUG\] store s3://` + bucket + `\S*: [A-Z-]+ ` + regexp.QuoteMeta(remoteStateKey))
	if !stateRequest.MatchString(r.stderr) {
		t.Errorf("STREAMCTL_LOG=debug: plan does not log its requests for the state %s:\n%s", remoteStateKey, r.stderr)
	}
	r = mustRun(t, dir, 0, debug, "apply", "-no-color", "-auto-approve")
	if !stateRequest.MatchString(r.stderr) {
		t.Errorf("STREAMCTL_LOG=debug: apply does not log its requests for the state %s:\n%s", remoteStateKey, r.stderr)
	}
}
