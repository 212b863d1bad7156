package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetricsWorkerLabelsEverySeries: -metrics-worker labels every series of
// the file with worker="ID", so that several workers' files on one node are
// distinct series, and the last success is read back under its label.
func TestMetricsWorkerLabelsEverySeries(t *testing.T) {
	c := newCLI(t, testConfig)
	c.must(ExitOK, "apply", "-auto-approve", "-no-color", "-metrics-file=w3.prom", "-metrics-worker=3")
	data, err := os.ReadFile(filepath.Join(c.dir, "w3.prom"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		if _, labels, _ := strings.Cut(line, "{"); !strings.HasPrefix(labels, `worker="3"`) {
			t.Errorf("a series without worker=\"3\": %s", line)
		}
	}
	for _, want := range []string{`streamctl_apply_success{worker="3"} 1`, `streamctl_apply_batches{worker="3",sink="orders"} `, `streamctl_apply_last_success_timestamp_seconds{worker="3"} `} {
		if !strings.Contains(string(data), want) {
			t.Errorf("no %q in:\n%s", want, data)
		}
	}
}
