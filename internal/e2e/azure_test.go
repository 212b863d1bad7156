package e2e

// The Azure proof of issue 5, against Azurite started by the test: the crash
// tests with an Azure destination and the state in Azure, and the case of the
// question that started the project: one sink writing the same batches to S3
// and to Azure, killed between the two commits, with no duplicate after the
// retry.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
	"github.com/streamctl/streamctl/state"
)

// azDestination is a destination block for a container of az. The key comes
// from the environment (az.Env), never from the file. extra lines go into
// the block.
func azDestination(az *testenv.AzuriteServer, name, container, prefix string, extra ...string) string {
	return fmt.Sprintf(`
  destination "azblob" %q {
    account_url = %q
    container   = %q
    prefix      = %q
    %s
  }
`, name, az.BlobURL, container, prefix, strings.Join(extra, "\n    "))
}

// azStateBlock keeps the state in a container of az, at remoteStateKey.
func azStateBlock(az *testenv.AzuriteServer, container string, extra ...string) string {
	return fmt.Sprintf(`
streamctl {
  state "azblob" {
    account_url = %q
    container   = %q
    key         = %q
    %s
  }
}
`, az.BlobURL, container, remoteStateKey, strings.Join(extra, "\n    "))
}

// azStorage opens a container of az (rooted at prefix) to inspect what
// landed, through the same provider streamctl uses.
func azStorage(t testing.TB, az *testenv.AzuriteServer, container, prefix string) providers.Storage {
	t.Helper()
	st, err := azblob.New(context.Background(), azblob.Config{
		AccountURL: az.BlobURL,
		Container:  container,
		Prefix:     prefix,
		SharedKey:  az.AccountKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// azCase is a sink writing to one Azure destination with its state in Azure,
// in a fresh container of az.
func azCase(t *testing.T, az *testenv.AzuriteServer, container string, partitions int, maxRecords, maxFileRecords int64, extra ...string) remoteCase {
	t.Helper()
	az.CreateContainer(t, container)
	dir := writeConfig(t, streamConfig(azStateBlock(az, container, extra...), partitions, maxRecords, maxFileRecords,
		azDestination(az, "archive", container, "orders", extra...)))
	return remoteCase{
		dir:   dir,
		env:   az.Env(),
		state: azStorage(t, az, container, ""),
		dests: map[string]providers.Storage{"archive": azStorage(t, az, container, "orders")},
	}
}

// TestAzureCrashAtEveryFaultPoint: a sink writing to Azure Blob Storage, its
// state in Azure, killed at each fault point of the protocol.
func TestAzureCrashAtEveryFaultPoint(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	for i, fp := range remoteFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			crashAndRecover(t, azCase(t, az, bucketName("fault-", i, "-", fp), 3, 1500, 500), fp)
		})
	}
}

// TestAzureRandomKills: 20 random kills of applies writing to Azure with the
// state in Azure.
func TestAzureRandomKills(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	randomKills(t, azCase(t, az, "kills", 2, 800, 400), 20261202, 20, nil)
}

// TestAzureConcurrentApplies: two applies on one Azure state.
func TestAzureConcurrentApplies(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	concurrentApplies(t, azCase(t, az, "concurrent", 2, 500, 0), 15000)
}

// TestAzureStaleLockForceUnlock: the lock of a SIGKILLed apply in Azure state.
func TestAzureStaleLockForceUnlock(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	staleLock(t, azCase(t, az, "stale", 2, 500, 0), 15000)
}

// TestAzureServerStoppedDuringApply: Azurite, which holds the destination and the
// state, stops in the middle of an apply. Stop is SIGTERM, on which Azurite
// keeps what it acknowledged, as Azure does through an outage.
func TestAzureServerStoppedDuringApply(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	// Three attempts (0.5 s and 1.5 s apart) keep the failure quick; the
	// error must say how many were made.
	c := azCase(t, az, "outage", 2, 500, 0, "max_attempts = 3")
	outage(t, c, 30000, az.Stop, func() { az.Restart(t) }, 45*time.Second,
		"azblob://devstoreaccount1/outage/", "after 3 attempts")
}

// readLocalState reads the state a configuration keeps on disk.
func readLocalState(t *testing.T, dir string) *state.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestS3AndAzureSameBatches is the question that started the project: a
// stream written in micro-batches to two storage services, here S3 (eu) and
// Azure Blob Storage (us), the same batches in both. A crash after one has
// committed a batch and before the other has, then a retry, must leave each
// record exactly once in each: the committed destination is not rewritten
// (its manifest stays the same object), the other is finished with the
// logged ranges.
func TestS3AndAzureSameBatches(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	az := testenv.Azurite(t)
	// 3 partitions × 2,000 records, batches of 1,500, files of 500: each batch
	// is 3 files per destination, promoted in parallel in both.
	for _, fault := range []string{
		"after-manifest:1",     // the first destination to commit batch 0
		"after-promote-file:6", // batch 0: the last of its 6 files promoted
		"after-manifest:3",     // the first destination to commit batch 1
	} {
		t.Run(strings.ReplaceAll(fault, ":", "_"), func(t *testing.T) {
			t.Parallel()
			// The two destinations race: a kill at these points leaves
			// exactly one of them committed in most runs (three in four
			// here), but the other may have committed in the same instant,
			// or neither yet. Such a run proves nothing about the split, so
			// it is redone, a few times at most.
			for attempt := 1; ; attempt++ {
				if splitCommit(t, srv, az, fault, attempt) {
					return
				}
				if attempt == 8 {
					t.Fatalf("in %d runs, the kill at %s never fell between the two commits", attempt, fault)
				}
			}
		})
	}
}

// splitCommit runs one attempt of TestS3AndAzureSameBatches. It returns false,
// having checked nothing, when the kill did not leave exactly one destination
// committed.
func splitCommit(t *testing.T, srv *testenv.S3Server, az *testenv.AzuriteServer, fault string, attempt int) bool {
	t.Helper()
	name := bucketName("split-", fault, "-", attempt)
	srv.CreateBucket(t, name)
	az.CreateContainer(t, name)
	dir := writeConfig(t, streamConfig("", 3, 1500, 500,
		s3Destination(srv, "eu", name, "orders"),
		azDestination(az, "us", name, "orders")))
	env := append(append(srv.Env(), az.Env()...), raceEnv)
	dests := map[string]providers.Storage{
		"eu": s3Storage(t, srv, name, "orders"),
		"us": azStorage(t, az, name, "orders"),
	}

	r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fault}, env...), "apply", "-auto-approve", "-no-color")
	if !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fault, r)
	}
	inFlight := readLocalState(t, dir).Sinks["orders"].InFlight
	if inFlight == nil {
		t.Fatalf("after the kill at %s no batch is in flight", fault)
	}
	ctx := context.Background()
	// manifests reads the in-flight batch's manifest in each destination.
	manifests := func() map[string][]byte {
		found := map[string][]byte{}
		for dn, d := range dests {
			data, _, err := providers.ReadAll(ctx, d, engine.ManifestKey("orders", inFlight.ID))
			if err == nil {
				found[dn] = data
			} else if !errors.Is(err, providers.ErrNotExist) {
				t.Fatal(err)
			}
		}
		return found
	}
	// A request the killed process had sent before it died still lands: a
	// manifest may appear a moment after the kill. Let the servers settle,
	// then look; a change while plan runs means it was not long enough.
	time.Sleep(time.Second)
	manifest := manifests()
	var committed, pending string
	for dn := range dests {
		if manifest[dn] != nil {
			committed = dn
		} else {
			pending = dn
		}
	}
	if len(manifest) != 1 {
		t.Logf("attempt %d: after the kill at %s, %d destinations hold the manifest of batch %d; redoing", attempt, fault, len(manifest), inFlight.ID)
		return false
	}

	// plan shows what a user would check first: the batch resumes in the
	// destination that misses it only.
	p := mustRun(t, dir, 2, env, "plan", "-detailed-exitcode", "-no-color")
	if len(manifests()) != 1 {
		t.Logf("attempt %d: a manifest of batch %d landed late, after the kill at %s; redoing", attempt, inFlight.ID, fault)
		return false
	}
	t.Logf("killed at %s: batch %d committed in %s, not in %s", fault, inFlight.ID, committed, pending)
	wantLine := fmt.Sprintf("resume batch %d (in flight): 1,500 records → %s\n", inFlight.ID, pending)
	if !strings.Contains(p.stdout, wantLine) {
		t.Errorf("plan does not say %q:\n%s", wantLine, p.stdout)
	}

	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
	want := expectedIDs(3, 2000)
	for _, d := range dests {
		assertExactlyOnce(t, d, want)
	}
	data, _, err := providers.ReadAll(ctx, dests[committed], engine.ManifestKey("orders", inFlight.ID))
	if err != nil || !bytes.Equal(data, manifest[committed]) {
		t.Errorf("the manifest of batch %d in %s, committed before the crash, was rewritten by the retry (%v)", inFlight.ID, committed, err)
	}
	return true
}
