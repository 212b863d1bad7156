// Package e2e runs the real streamctl binary, built with fault points compiled
// in, and checks what users check: every source record in every destination
// exactly once, whatever moment the process was killed at.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// The streamctl binaries under test. binary is built without the race
// detector: the tests start it thousands of times, and under -race each
// process spent a third of a second of CPU in iceberg-go's package
// initialisation alone, which made the suite bound by the CPU. raceBinary is
// built with it when the tests run with it, for the tests whose env holds
// raceEnv: those that drive streamctl's own goroutines hardest (batches
// staged ahead on two object stores, network fault storms).
var binary, raceBinary string

// raceEnv, in a test's env, runs raceBinary.
const raceEnv = "STREAMCTL_E2E_RACE=1"

// raceBinaryEnv=1 builds raceBinary even when the tests themselves run
// without the race detector. make test runs this package so: what it checks
// for races is streamctl, in raceBinary, while the test process's own work
// (reading tables back, parsing output, driving the servers) under -race
// cost minutes of CPU on two cores and found nothing the other packages'
// race tests do not.
const raceBinaryEnv = "STREAMCTL_E2E_RACE_BINARY"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "streamctl-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary, raceBinary = filepath.Join(dir, "streamctl"), filepath.Join(dir, "streamctl-race")
	builds := [][]string{{"-o", binary}}
	if raceEnabled || os.Getenv(raceBinaryEnv) == "1" {
		// The tests' builds: default.pgo would only slow compiling down.
		builds = [][]string{{"-o", binary, "-pgo=off"}, {"-o", raceBinary, "-race", "-pgo=off"}}
	} else {
		raceBinary = binary
	}
	errs := make(chan error, len(builds))
	for _, b := range builds {
		go func() {
			cmd := exec.Command("go", append(append([]string{"build", "-tags", "faultinject,grpcnotrace"}, b...), ".")...)
			cmd.Dir = testenv.RepoRoot()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("build streamctl %v: %v\n%s", b, err, out)
				return
			}
			errs <- nil
		}()
	}
	for range builds {
		if err := <-errs; err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// leaseEnv shortens the remote lock's lease and heartbeat for the tests, so
// that a run after a killed one takes its lock over within seconds. Four
// seconds, not less: with several tests at once, eight processes on two
// cores under -race have stalled a heartbeat past two seconds, and a run
// that loses its lock rightly stops with an error.
var leaseEnv = []string{"STREAMCTL_TEST_LOCK_LEASE_MS=4000", "STREAMCTL_TEST_HEARTBEAT_MS=500"}

// result is one finished streamctl run.
type result struct {
	code   int
	killed bool // by SIGKILL (a fault point, or the test)
	stdout string
	stderr string
	cpu    time.Duration // user and system time of the process, where measured
}

// String leads with what went wrong: stderr and the error lines of stdout
// come before the whole stdout, which for a -json run over many sinks is
// long enough for a CI log to cut out its middle.
func (r result) String() string {
	var errs []string
	for line := range strings.Lines(r.stdout) {
		if strings.Contains(line, `"@level":"error"`) || strings.HasPrefix(line, "Error:") {
			errs = append(errs, line)
		}
	}
	return fmt.Sprintf("exit %d (killed %v)\nstderr:\n%s\nerrors in stdout:\n%s\nstdout:\n%s",
		r.code, r.killed, r.stderr, strings.Join(errs, ""), r.stdout)
}

// run runs streamctl in dir with extra environment variables.
func run(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := command(dir, env, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return finish(t, cmd, err, stdout.String(), stderr.String())
}

func command(dir string, env []string, args ...string) *exec.Cmd {
	bin := binary
	if slices.Contains(env, raceEnv) {
		bin = raceBinary
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	// Remote locks are leases of a minute; the tests' expire in four seconds, so
	// that a killed run's lock is taken over without waiting. A test's own env
	// comes after, and wins.
	cmd.Env = append(os.Environ(), leaseEnv...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Env = append(cmd.Env, "GORACE=halt_on_error=1")
	return cmd
}

func finish(t *testing.T, cmd *exec.Cmd, err error, stdout, stderr string) result {
	t.Helper()
	r := result{stdout: stdout, stderr: stderr}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run streamctl: %v", err)
		}
		r.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			r.killed = true
		}
	}
	if strings.Contains(stderr, "WARNING: DATA RACE") {
		t.Fatalf("data race in streamctl:\n%s", stderr)
	}
	return r
}

// mustRun runs streamctl and fails the test unless it exits with want.
func mustRun(t *testing.T, dir string, want int, env []string, args ...string) result {
	t.Helper()
	r := run(t, dir, env, args...)
	if r.code != want || r.killed {
		t.Fatalf("streamctl %s: want exit %d, got %s", strings.Join(args, " "), want, r)
	}
	return r
}

// writeConfig writes main.hcl into a fresh directory and returns it.
func writeConfig(t *testing.T, hcl string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// killThenRestoreState applies dir's configuration killed at fault, then
// puts the state's previous version (state.json.backup) back in place, as
// restoring a backup would: the state then knows nothing of what the killed
// apply did last. extra are more arguments of that apply.
func killThenRestoreState(t *testing.T, dir, fault string, extra ...string) {
	t.Helper()
	if r := run(t, dir, []string{"STREAMCTL_FAULT=" + fault}, append([]string{"apply", "-auto-approve", "-no-color"}, extra...)...); !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fault, r)
	}
	st := filepath.Join(dir, ".streamctl", "state.json")
	data, err := os.ReadFile(st + ".backup")
	if err != nil {
		t.Fatalf("the state's previous version: %v", err)
	}
	if err := os.WriteFile(st, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// record is the part of a generated record the checks need.
type record struct {
	ID        int64 `json:"id"`
	Partition int   `json:"partition"`
	Offset    int64 `json:"offset"`
}

// expectedIDs are the ids of a generate source's records.
func expectedIDs(partitions int, perPartition int64) map[int64]bool {
	ids := map[int64]bool{}
	for p := 0; p < partitions; p++ {
		for o := int64(0); o < perPartition; o++ {
			ids[int64(p)*1_000_000_000_000+o] = true
		}
	}
	return ids
}

// readIDs reads every data file of a destination (everything outside
// _streamctl/, including anything left in _temporary/) and counts each id.
func readIDs(t *testing.T, s providers.Storage) (counts map[int64]int, leftovers []string) {
	t.Helper()
	ctx := context.Background()
	counts = map[int64]int{}
	err := s.List(ctx, "", func(info providers.ObjectInfo) error {
		if strings.HasPrefix(info.Key, "_streamctl/") {
			return nil
		}
		if strings.HasPrefix(info.Key, "_temporary/") {
			leftovers = append(leftovers, info.Key)
			return nil
		}
		r, _, err := s.Get(ctx, info.Key)
		if err != nil {
			return err
		}
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var rec record
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				return fmt.Errorf("%s: %v", info.Key, err)
			}
			counts[rec.ID]++
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("read %s: %v", s.Describe(), err)
	}
	// Uploads staged on their final keys and never published (S3's
	// multipart uploads) are leftovers too: stored, and billed.
	if l := s.Features().StagedLister; l != nil {
		err := l.ListStaged(ctx, "", func(u providers.StagedUpload) error {
			leftovers = append(leftovers, "staged upload of "+u.Key)
			return nil
		})
		if err != nil {
			t.Fatalf("list staged uploads of %s: %v", s.Describe(), err)
		}
	}
	return counts, leftovers
}

// assertExactlyOnce checks that a destination holds each expected id exactly
// once, nothing else, and no _temporary leftovers.
func assertExactlyOnce(t *testing.T, s providers.Storage, want map[int64]bool) {
	t.Helper()
	counts, leftovers := readIDs(t, s)
	if len(leftovers) > 0 {
		t.Errorf("%s: _temporary leftovers: %v", s.Describe(), leftovers)
	}
	var missing, dup, extra int
	for id := range want {
		switch counts[id] {
		case 0:
			missing++
		case 1:
		default:
			dup++
		}
	}
	for id := range counts {
		if !want[id] {
			extra++
		}
	}
	if missing+dup+extra > 0 {
		t.Errorf("%s: %d records missing, %d duplicated, %d unexpected (of %d expected)", s.Describe(), missing, dup, extra, len(want))
	}
}

// waitFor polls cond until it is true or the timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBinaryLinksNoComputeKernels: arrow-go's compute package is linked
// (parquet/pqarrow and iceberg-go import it) but its function registry is
// not, because streamctl calls no compute function; upstream built the
// registry in init, which kept every kernel, 15 MB of the stripped binary
// (third_party/arrow-go/PATCHES.md). When this fails, find the caller with
// `go build -tags grpcnotrace -ldflags=-dumpdep . 2>&1 | grep -- '-> .*compute.GetFunctionRegistry'`.
//
// Nor is Substrait (iceberg-go's table/substrait, arrow-go's compute/exprs,
// substrait-go and its ANTLR parser and YAML files, 3.4 MB): iceberg-go
// evaluates a row filter on records with it, which streamctl never does,
// and streamctl's copy of iceberg-go's table no longer imports it
// (third_party/iceberg-go/PATCHES.md). When that fails, find the importer
// with `go list -tags grpcnotrace -deps -f '{{.ImportPath}}: {{.Imports}}' . | grep substrait`.
func TestBinaryLinksNoComputeKernels(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "tool", "nm", binary).Output()
	if err != nil {
		t.Fatalf("go tool nm %s: %v", binary, err)
	}
	// The package's init is linked whenever the package is; the witness
	// before, (*ArrayDatum).Kind, went with Substrait, its only caller.
	if !bytes.Contains(out, []byte(" T github.com/apache/arrow-go/v18/arrow/compute.init\n")) {
		t.Fatalf("go tool nm %s lists no arrow/compute code: the package is not linked, so the check would prove nothing", binary)
	}
	if !bytes.Contains(out, []byte(" T github.com/apache/iceberg-go/table.(*Transaction).AddDataFiles\n")) {
		t.Fatalf("go tool nm %s lists no Transaction.AddDataFiles, which streamctl calls: the Substrait check would prove nothing", binary)
	}
	for _, sym := range []string{"github.com/apache/arrow-go/v18/arrow/compute.GetFunctionRegistry", "github.com/apache/arrow-go/v18/arrow/compute.RegisterScalarArithmetic"} {
		if bytes.Contains(out, []byte(" T "+sym+"\n")) {
			t.Errorf("the binary links %s: arrow-go's compute registry is reachable, and with it every compute kernel", sym)
		}
	}
	// The kernels' assembly for the CPU is picked on first use, not in init,
	// which kept all of it (1.1 MB on amd64).
	for _, sym := range []string{"github.com/apache/arrow-go/v18/arrow/compute/internal/kernels.castNumericAvx2", "github.com/apache/arrow-go/v18/arrow/compute/internal/kernels.castNumericNeon"} {
		if bytes.Contains(out, []byte(" T "+sym+"\n")) {
			t.Errorf("the binary links %s: an init or a reachable function picks arrow-go's compute kernels for the CPU", sym)
		}
	}
	for _, pkg := range []string{"github.com/substrait-io/", "github.com/apache/iceberg-go/table/substrait.", "github.com/apache/arrow-go/v18/arrow/compute/exprs."} {
		if bytes.Contains(out, []byte(" "+pkg)) {
			t.Errorf("the binary links %s: a package imports Substrait, which streamctl never calls", pkg)
		}
	}
}

// TestBinaryKeepsNoUncalledMethods: the linker drops the methods streamctl
// never calls. It cannot when a method may be looked up by name at run time
// (reflect's Method or MethodByName reachable with a name it cannot see, as
// in a text/template execution or modern-go/reflect2): then it keeps every
// exported method of every type, about 20 MB of code here
// (third_party/README.md). The witness is iceberg-go's Transaction.Overwrite,
// which streamctl never calls. When this fails, find what made the lookup
// reachable with
// `go build -tags grpcnotrace -ldflags=-dumpdep . 2>&1 | grep '<ReflectMethod>'`.
func TestBinaryKeepsNoUncalledMethods(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "tool", "nm", binary).Output()
	if err != nil {
		t.Fatalf("go tool nm %s: %v", binary, err)
	}
	if !bytes.Contains(out, []byte(" T github.com/apache/iceberg-go/table.(*Transaction).AddDataFiles\n")) {
		t.Fatalf("go tool nm %s lists no Transaction.AddDataFiles, which streamctl calls: the check would prove nothing", binary)
	}
	for _, sym := range []string{"github.com/apache/iceberg-go/table.(*Transaction).Overwrite", "text/template.(*state).evalField"} {
		if bytes.Contains(out, []byte(" T "+sym+"\n")) {
			t.Errorf("the binary links %s, which streamctl never calls: a method lookup by name is reachable, so every exported method of every type is kept", sym)
		}
	}
}
