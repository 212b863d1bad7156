package state

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/gcs"
)

// TestRemoteOnGCS runs the remote backend's lock and compare-and-swap tests
// again on Google Cloud Storage (fake-gcs-server behind the fault proxy).
func TestRemoteOnGCS(t *testing.T) {
	newRemote = newRemoteGCS
	t.Cleanup(func() { newRemote = newRemoteS3 })
	for _, tc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"LockCreateAnswerLost", TestRemoteLockCreateAnswerLost},
		{"StateCASAnswerLost", TestRemoteStateCASAnswerLost},
		{"UnlockWithCutBody", TestRemoteUnlockWithCutBody},
		{"LockHeartbeatSurvivesLostAndSlowAnswers", TestRemoteLockHeartbeatSurvivesLostAndSlowAnswers},
		{"LockHeartbeatGivesUpBeforeTheLease", TestRemoteLockHeartbeatGivesUpBeforeTheLease},
		{"LockHeldEndsBeforeTheLease", TestRemoteLockHeldEndsBeforeTheLease},
		{"LockOfADeadHolderIsTakenOver", TestRemoteLockOfADeadHolderIsTakenOver},
		{"LockOfALiveHolderWithASkewedClock", TestRemoteLockOfALiveHolderWithASkewedClock},
		{"ForceUnlockWhileTheHolderRefreshes", TestForceUnlockWhileTheHolderRefreshes},
		{"ForceUnlockIsOneStep", TestForceUnlockIsOneStep},
		{"UnlockAfterATakeOver", TestRemoteUnlockAfterATakeOver},
		{"UnlockWithoutConditionalDeletes", TestRemoteUnlockWithoutConditionalDeletes},
	} {
		t.Run(tc.name, tc.fn)
	}
}

func newRemoteGCS(t *testing.T) remoteFixture {
	t.Helper()
	srv := testenv.GCS(t)
	srv.CreateBucket(t, "ops")
	proxy := testenv.StartFaultProxy(t, srv.Endpoint)
	store, err := gcs.New(context.Background(), gcs.Config{Bucket: "ops", Endpoint: proxy.Endpoint})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return remoteFixture{proxy: proxy, store: store, b: NewRemote(store, "orders.json"),
		isLockWrite:  gcsUploadOf("orders.json.lock"),
		isStateWrite: gcsUploadOf("orders.json"),
	}
}

// gcsUploadOf matches the upload of the object name: a POST whose
// metadata, in the body, names it.
func gcsUploadOf(name string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/upload/storage/v1/") || r.GetBody == nil {
			return false
		}
		body, err := r.GetBody()
		if err != nil {
			return false
		}
		data, _ := io.ReadAll(body)
		return bytes.Contains(data, []byte(`"name":"`+name+`"`))
	}
}
