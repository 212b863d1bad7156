package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"go.yaml.in/yaml/v3"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/providers/s3"
	"github.com/streamctl/streamctl/state"
)

// podScript returns the shell script of the container in
// examples/kubernetes/workers.yaml, with the mounted paths (the
// configuration, the node's textfile folder) replaced by local ones.
func podScript(t *testing.T, configDir, metricsDir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "examples", "kubernetes", "workers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Spec struct {
			JobTemplate struct {
				Spec struct {
					CompletionMode string `yaml:"completionMode"`
					Template       struct {
						Spec struct {
							Containers []struct {
								Command []string `yaml:"command"`
								Args    []string `yaml:"args"`
							} `yaml:"containers"`
						} `yaml:"spec"`
					} `yaml:"template"`
				} `yaml:"spec"`
			} `yaml:"jobTemplate"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	job := doc.Spec.JobTemplate.Spec
	if job.CompletionMode != "Indexed" {
		t.Fatalf("the Job is not Indexed: JOB_COMPLETION_INDEX is not set")
	}
	c := job.Template.Spec.Containers
	if len(c) != 1 || strings.Join(c[0].Command, " ") != "/bin/sh -c" || len(c[0].Args) != 1 {
		t.Fatalf("the container does not run a shell script: %+v", c)
	}
	script := c[0].Args[0]
	for _, p := range []string{"/etc/streamctl", "/var/lib/node_exporter/textfile"} {
		if !strings.Contains(script, p) {
			t.Fatalf("the script does not use %s:\n%s", p, script)
		}
	}
	script = strings.ReplaceAll(script, "/etc/streamctl", configDir)
	return strings.ReplaceAll(script, "/var/lib/node_exporter/textfile", metricsDir)
}

// TestKubernetesExampleWorkers runs examples/kubernetes as its Job does: the
// container's script, four pods at once with JOB_COMPLETION_INDEX 0 to 3,
// over the example's configuration pointed at local Kafka and S3 servers.
// Every pod exits 0, the pods share the sinks, each record lands exactly
// once, and each pod writes its own metrics file with only its sinks. A
// pod that finds every sink held (exit 4) exits 0 and says so in its file.
func TestKubernetesExampleWorkers(t *testing.T) {
	t.Parallel()
	topics := []string{"orders", "payments", "shipments"}
	broker := testenv.StartKafka(t, testenv.KafkaOptions{Topics: topics, Partitions: 4})
	srv := testenv.S3(t)
	srv.CreateBucket(t, "ops")
	srv.CreateBucket(t, "lake")

	dir := copyExample(t, "kubernetes")
	metricsDir := t.TempDir()
	script := podScript(t, dir, metricsDir)
	env := append(append(append(os.Environ(), leaseEnv...), srv.Env()...),
		fmt.Sprintf(`STREAMCTL_VAR_brokers=["%s"]`, broker.Addr),
		"STREAMCTL_VAR_s3_endpoint="+srv.Endpoint,
		"PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"),
	)

	want := map[string]map[int64]bool{}
	produce := func(first, n int64) {
		for _, topic := range topics {
			if want[topic] == nil {
				want[topic] = map[int64]bool{}
			}
			recs := make([]*kgo.Record, 0, n)
			for id := first; id < first+n; id++ {
				recs = append(recs, &kgo.Record{Value: fmt.Appendf(nil, `{"id":%d,"topic":%q}`, id, topic), Partition: int32(id % 4)})
				want[topic][id] = true
			}
			broker.Produce(t, topic, recs...)
		}
	}
	pods := func() []string {
		outs := make([]string, 4)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				cmd := exec.Command("/bin/sh", "-c", script)
				// A copy per pod: appending to the shared env from four
				// goroutines would write one slot of its backing array.
				cmd.Env = append(slices.Clip(env), fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("pod %d: %v\n%s", i, err, out)
				}
				outs[i] = string(out)
			})
		}
		wg.Wait()
		return outs
	}

	for round, first := range []int64{0, 3000} {
		produce(first, 3000)
		pods()
		if t.Failed() {
			t.FailNow()
		}
		for _, topic := range topics {
			assertExactlyOnce(t, s3Storage(t, srv, "lake", topic), want[topic])
		}
		// Each sink's batches are in the file of the one pod that applied them.
		appliedBy := map[string][]string{}
		for i := range 4 {
			data, err := os.ReadFile(filepath.Join(metricsDir, fmt.Sprintf("streamctl-lake-%d.prom", i)))
			if err != nil {
				t.Fatalf("round %d: pod %d wrote no metrics file of its own: %v", round, i, err)
			}
			text := string(data)
			if !strings.Contains(text, fmt.Sprintf(`streamctl_apply_success{worker="%d"} 1`, i)) {
				t.Errorf("round %d: pod %d's metrics do not say it succeeded:\n%s", round, i, text)
			}
			for _, m := range regexp.MustCompile(`streamctl_apply_batches\{worker="\d",sink="([^"]+)"\} ([1-9]\d*)`).FindAllStringSubmatch(text, -1) {
				appliedBy[m[1]] = append(appliedBy[m[1]], fmt.Sprint(i))
			}
		}
		for _, sink := range []string{"orders/shard-0", "orders/shard-1", "orders/shard-2", "orders/shard-3", "payments", "shipments"} {
			if len(appliedBy[sink]) != 1 {
				t.Errorf("round %d: sink %s reported applied by pods %v, want exactly one", round, sink, appliedBy[sink])
			}
		}
	}

	// A run that changes the whole state holds the state's lock: a pod
	// finds every sink held, exits 0, and its file says so without sinks.
	produce(6000, 100)
	ctx := context.Background()
	cfg, diags := config.Load(dir, all.Kinds(), config.Inputs{Environ: env})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// This process has no AWS environment: the test's keys, as streamctl's.
	sc := cfg.State.Config.(*s3.Config)
	sc.AccessKey, sc.SecretKey, sc.Region = srv.AccessKey, srv.SecretKey, srv.Region
	backend, err := workspace.StateBackend(ctx, cfg, all.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	u, err := state.Lock(ctx, backend, state.NewLockInfo("state rm", "test"), 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = append(env, "JOB_COMPLETION_INDEX=2")
	out, err := cmd.CombinedOutput()
	u.Unlock()
	if err != nil || !strings.Contains(string(out), "locked") {
		t.Fatalf("a pod over a locked state: %v (want exit 0 and the lock reported)\n%s", err, out)
	}
	data, _ := os.ReadFile(filepath.Join(metricsDir, "streamctl-lake-2.prom"))
	if !strings.Contains(string(data), `streamctl_apply_success{worker="2"} 1`) || strings.Contains(string(data), `sink="`) {
		t.Errorf("the metrics of a pod that found every sink held:\n%s", data)
	}
}
