package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/s3"
)

// The remote backend over a real S3 server (versitygw) behind a fault proxy:
// lost answers, slow answers and dead holders must not need a human.

type remoteFixture struct {
	proxy *testenv.FaultProxy
	store providers.Storage // through the proxy
	b     *RemoteBackend
	// isLockWrite and isStateWrite tell the store's writes of the lock and
	// of the state (orders.json) among the requests.
	isLockWrite, isStateWrite func(*http.Request) bool
}

// newRemote is the fixture on the server under test: S3 (versitygw), or
// GCS while TestRemoteOnGCS runs the tests again.
var newRemote = newRemoteS3

func newRemoteS3(t *testing.T) remoteFixture {
	t.Helper()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "ops")
	proxy := testenv.StartFaultProxy(t, srv.Endpoint)
	store, err := s3.New(context.Background(), s3.Config{
		Bucket: "ops", Region: srv.Region, Endpoint: proxy.Endpoint, ForcePathStyle: true,
		AccessKey: srv.AccessKey, SecretKey: srv.SecretKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	return remoteFixture{proxy: proxy, store: store, b: NewRemote(store, "orders.json"),
		isLockWrite: isLockPut,
		isStateWrite: func(r *http.Request) bool {
			return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/orders.json") && r.Header.Get("X-Amz-Copy-Source") == ""
		},
	}
}

// shortLease makes leases expire in a second, for the test.
func shortLease(t *testing.T) {
	hb, lease := HeartbeatInterval, Lease
	HeartbeatInterval, Lease = 200*time.Millisecond, 1500*time.Millisecond
	t.Cleanup(func() { HeartbeatInterval, Lease = hb, lease })
}

func isLockPut(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, ".lock")
}

func mustLock(t *testing.T, b *RemoteBackend, op string) (Unlocker, *LockInfo) {
	t.Helper()
	info := NewLockInfo(op, "test")
	u, err := b.Lock(context.Background(), info)
	if err != nil {
		t.Fatalf("lock: %v", err)
	}
	return u, info
}

func holderID(t *testing.T, b *RemoteBackend) string {
	t.Helper()
	h, err := b.LockInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		return ""
	}
	return h.ID
}

func TestRemoteLockCreateAnswerLost(t *testing.T) {
	f := newRemote(t)
	fired := f.proxy.Arm(testenv.DropAnswer, f.isLockWrite, 0)
	u, info := mustLock(t, f.b, "apply")
	<-fired
	if id := holderID(t, f.b); id != info.ID {
		t.Fatalf("the lock is held by %q, want our %q", id, info.ID)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	if id := holderID(t, f.b); id != "" {
		t.Fatalf("a phantom lock %q stays after unlock", id)
	}
}

func TestRemoteStateCASAnswerLost(t *testing.T) {
	f := newRemote(t)
	ctx := context.Background()
	v1, err := f.b.Write(ctx, []byte(`{"serial":1}`), "")
	if err != nil {
		t.Fatal(err)
	}
	fired := f.proxy.Arm(testenv.DropAnswer, f.isStateWrite, 0)
	v2, err := f.b.Write(ctx, []byte(`{"serial":2}`), v1)
	<-fired
	if err != nil {
		t.Fatalf("a state write whose answer was lost after it was applied: %v (a false conflict)", err)
	}
	if _, err := f.b.Write(ctx, []byte(`{"serial":3}`), v2); err != nil {
		t.Fatalf("the next write from the settled version: %v", err)
	}
}

// TestRemoteUnlockWithCutBody: unlock reads the lock before it deletes it,
// and that read is cut off; a refresh of the lock whose answer was lost
// moved its version meanwhile. The lock is still released.
func TestRemoteUnlockWithCutBody(t *testing.T) {
	f := newRemote(t)
	u, info := mustLock(t, f.b, "apply")
	// The refresh that landed unseen: the same holder, a later heartbeat.
	_, cur, err := providers.ReadAll(context.Background(), f.store, f.b.lockKey())
	if err != nil {
		t.Fatal(err)
	}
	refreshed := *info
	refreshed.Heartbeat = time.Now().UTC().Add(time.Second)
	data, _ := json.Marshal(&refreshed)
	if _, err := f.store.PutIfMatch(context.Background(), f.b.lockKey(), data, cur.Version); err != nil {
		t.Fatal(err)
	}
	fired := f.proxy.CutNextBody()
	if err := u.Unlock(); err != nil {
		t.Fatalf("unlock whose read of the lock was cut off: %v", err)
	}
	select {
	case <-fired:
	case <-time.After(5 * time.Second):
		t.Fatal("unlock did not read the lock: the test proves nothing")
	}
	if id := holderID(t, f.b); id != "" {
		t.Fatalf("the lock %q stays after unlock", id)
	}
}

// TestRemoteLockHeartbeatSurvivesLostAndSlowAnswers: one lost answer, one
// answer slower than the heartbeat interval: the lock is not lost.
func TestRemoteLockHeartbeatSurvivesLostAndSlowAnswers(t *testing.T) {
	shortLease(t)
	f := newRemote(t)
	u, info := mustLock(t, f.b, "apply")
	defer u.Unlock()
	lost := f.proxy.Arm(testenv.DropAnswer, f.isLockWrite, 0)
	slow := f.proxy.Arm(testenv.Slow, f.isLockWrite, 2*HeartbeatInterval)
	<-lost
	<-slow
	select {
	case <-u.Lost():
		t.Fatalf("the lock was declared lost after one lost and one slow heartbeat answer (fired: %v)", f.proxy.Fired())
	case <-time.After(3 * HeartbeatInterval):
	}
	if id := holderID(t, f.b); id != info.ID {
		t.Fatalf("the lock is held by %q, want %q", id, info.ID)
	}
}

// TestRemoteLockHeartbeatGivesUpBeforeTheLease: a holder cut off from the
// store stops before its lease can expire and be taken over.
func TestRemoteLockHeartbeatGivesUpBeforeTheLease(t *testing.T) {
	shortLease(t)
	f := newRemote(t)
	u, _ := mustLock(t, f.b, "apply")
	defer u.Unlock()
	f.proxy.Randomly(1, []testenv.Fault{testenv.Refuse}, 0, f.isLockWrite)
	start := time.Now()
	select {
	case <-u.Lost():
		if took := time.Since(start); took > Lease {
			t.Errorf("the lock was given up after %s, later than the lease %s", took, Lease)
		}
	case <-time.After(3 * Lease):
		t.Fatal("a holder that cannot refresh its lock never gives it up")
	}
}

// TestRemoteLockHeldEndsBeforeTheLease: Held, which writers ask before each
// write, stays nil while heartbeats land, and once they stop it fails on its
// own clock before the lease can run out: a holder whose heartbeat goroutine
// is starved still stops writing in time.
func TestRemoteLockHeldEndsBeforeTheLease(t *testing.T) {
	shortLease(t)
	f := newRemote(t)
	start := time.Now()
	u, _ := mustLock(t, f.b, "apply")
	defer u.Unlock()
	if err := u.Held(); err != nil {
		t.Fatalf("a lock just taken is not held: %v", err)
	}
	// Heartbeats that land keep it, past several leases.
	for time.Since(start) < 2*Lease {
		if err := u.Held(); err != nil {
			t.Fatalf("a lock whose heartbeats land was given up after %s: %v", time.Since(start), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.proxy.Randomly(1, []testenv.Fault{testenv.Refuse}, 0, f.isLockWrite)
	cut := time.Now()
	for u.Held() == nil {
		if time.Since(cut) > 3*Lease {
			t.Fatal("a holder that cannot refresh its lock holds it forever")
		}
		time.Sleep(10 * time.Millisecond)
	}
	err := u.Held()
	if took := time.Since(cut); took > Lease {
		t.Errorf("Held failed %s after the heartbeats stopped, later than the lease %s", took, Lease)
	}
	if !errors.Is(err, ErrLockLost) || !strings.Contains(err.Error(), "no heartbeat") {
		t.Errorf("Held once the heartbeats stopped: %v, want ErrLockLost saying why", err)
	}
}

// putLock writes a lock as a holder that then died would have left it.
func putLock(t *testing.T, f remoteFixture, info *LockInfo) {
	t.Helper()
	data, _ := json.Marshal(info)
	if _, err := f.store.PutIfAbsent(context.Background(), f.b.lockKey(), data); err != nil {
		t.Fatal(err)
	}
}

// TestRemoteLockOfADeadHolderIsTakenOver: refused while the lease runs,
// taken over with the dead holder named once it expired — whatever that
// holder's clock said in its heartbeat.
func TestRemoteLockOfADeadHolderIsTakenOver(t *testing.T) {
	shortLease(t)
	for _, skew := range []time.Duration{0, time.Hour, -time.Hour} {
		t.Run(skew.String(), func(t *testing.T) {
			f := newRemote(t)
			dead := NewLockInfo("apply", "test")
			dead.Heartbeat = dead.Heartbeat.Add(skew) // its clock was off
			dead.Created = dead.Heartbeat
			putLock(t, f, dead)

			_, err := f.b.Lock(context.Background(), NewLockInfo("apply", "test"))
			var locked *LockedError
			if !errors.As(err, &locked) || locked.Holder.ID != dead.ID {
				t.Fatalf("a lock written just now was not refused: %v", err)
			}
			// S3 stamps whole seconds, and a silence is counted as the least
			// it can have been: a second less.
			time.Sleep(Lease + 2*time.Second)
			u, _ := mustLock(t, f.b, "apply")
			defer u.Unlock()
			from, silent := u.(TakenOver).TookOver()
			if from == nil || from.ID != dead.ID || silent <= Lease {
				t.Fatalf("took over from %+v after %s; want %s after more than %s", from, silent, dead.ID, Lease)
			}
		})
	}
}

// TestRemoteLockOfALiveHolderWithASkewedClock: a holder whose clock is an
// hour behind (or ahead) keeps its lock while it refreshes it: the lock's
// timestamps are its clock's, and only the store's clock decides.
func TestRemoteLockOfALiveHolderWithASkewedClock(t *testing.T) {
	shortLease(t)
	for _, skew := range []time.Duration{-time.Hour, time.Hour} {
		t.Run(skew.String(), func(t *testing.T) {
			clock := now
			now = func() time.Time { return time.Now().Add(skew) }
			defer func() { now = clock }()
			f := newRemote(t)
			u, info := mustLock(t, f.b, "apply")
			defer u.Unlock()
			time.Sleep(Lease + time.Second)
			h, err := f.b.LockInfo(context.Background())
			if err != nil || h == nil || h.ID != info.ID {
				t.Fatalf("the lock: %+v, %v", h, err)
			}
			if d := time.Since(h.Heartbeat) + skew; d < -time.Minute || d > time.Minute {
				t.Fatalf("the holder's heartbeat does not carry its skewed clock: %+v, %v", h, err)
			}
			if _, err := f.b.Lock(context.Background(), NewLockInfo("apply", "test")); !errors.As(err, new(*LockedError)) {
				t.Fatalf("a live holder's lock was taken: %v", err)
			}
		})
	}
}

// heartbeatFirst is a store on which a heartbeat of the lock's holder lands
// just before the first conditional write of a released marker, as a live
// holder's does when it refreshes between force-unlock's read and write.
type heartbeatFirst struct {
	providers.Storage
	lockKey string
	landed  bool
}

func (h *heartbeatFirst) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if key == h.lockKey && !h.landed && isReleased(data) {
		h.landed = true
		cur, info, err := providers.ReadAll(ctx, h.Storage, key)
		if err != nil {
			return "", err
		}
		lock := parseLock(cur)
		lock.Heartbeat = lock.Heartbeat.Add(time.Second)
		refreshed, _ := json.Marshal(lock)
		if _, err := h.Storage.PutIfMatch(ctx, key, refreshed, info.Version); err != nil {
			return "", err
		}
	}
	return h.Storage.PutIfMatch(ctx, key, data, version)
}

// TestForceUnlockWhileTheHolderRefreshes: a heartbeat between force-unlock's
// read and its write does not make it fail: the lock still has the ID given,
// so it is freed.
func TestForceUnlockWhileTheHolderRefreshes(t *testing.T) {
	f := newRemote(t)
	info := NewLockInfo("apply", "test")
	putLock(t, f, info)
	hb := &heartbeatFirst{Storage: f.store, lockKey: f.b.lockKey()}
	b := NewRemote(hb, "orders.json")
	if err := b.ForceUnlock(context.Background(), info.ID); err != nil {
		t.Fatalf("force-unlock of a lock refreshed meanwhile: %v", err)
	}
	if !hb.landed {
		t.Fatal("no heartbeat landed: the test proves nothing")
	}
	if id := holderID(t, f.b); id != "" {
		t.Fatalf("the force-unlocked lock is still held by %q", id)
	}
}

// TestForceUnlockIsOneStep: force-unlock frees the lock in one conditional
// write; the old holder notices, and the next Lock takes the freed lock.
// Locks freed by older streamctl versions' tombstones are free too.
func TestForceUnlockIsOneStep(t *testing.T) {
	shortLease(t)
	f := newRemote(t)
	u, info := mustLock(t, f.b, "apply")
	if err := f.b.ForceUnlock(context.Background(), "other-"+info.ID); err == nil {
		t.Fatal("force-unlock with another ID succeeded")
	}
	if err := f.b.ForceUnlock(context.Background(), info.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-u.Lost():
	case <-time.After(5 * HeartbeatInterval):
		t.Fatal("the holder did not notice its lock was force-unlocked")
	}
	u.Unlock()
	if id := holderID(t, f.b); id != "" {
		t.Fatalf("the force-unlocked lock is still held by %q", id)
	}
	u2, info2 := mustLock(t, f.b, "apply")
	if id := holderID(t, f.b); id != info2.ID {
		t.Fatalf("the freed lock was not taken: held by %q", id)
	}
	if err := u2.Unlock(); err != nil {
		t.Fatal(err)
	}

	old := newRemote(t)
	if _, err := old.store.PutIfAbsent(context.Background(), old.b.lockKey(), []byte(`{"id":"force-unlocked"}`)); err != nil {
		t.Fatal(err)
	}
	if id := holderID(t, old.b); id != "" {
		t.Fatalf("an old tombstone reads as a lock held by %q", id)
	}
	u3, _ := mustLock(t, old.b, "apply")
	u3.Unlock()
}

// takeOverFirst is a store on which another holder takes the lock over just
// before its old holder's delete of it lands, as when the old holder's lease
// ran out while it was paused between reading its lock and deleting it.
type takeOverFirst struct {
	providers.Storage
	lockKey string
	by      *LockInfo
	landed  bool
}

func (s *takeOverFirst) takeOver(ctx context.Context, key string) error {
	if key != s.lockKey || s.landed {
		return nil
	}
	s.landed = true
	_, info, err := providers.ReadAll(ctx, s.Storage, key)
	if err != nil {
		return err
	}
	data, _ := json.Marshal(s.by)
	_, err = s.Storage.PutIfMatch(ctx, key, data, info.Version)
	return err
}

func (s *takeOverFirst) Delete(ctx context.Context, key string) error {
	if err := s.takeOver(ctx, key); err != nil {
		return err
	}
	return s.Storage.Delete(ctx, key)
}

func (s *takeOverFirst) DeleteIfMatch(ctx context.Context, key, version string) error {
	if err := s.takeOver(ctx, key); err != nil {
		return err
	}
	return s.Storage.DeleteIfMatch(ctx, key, version)
}

// TestRemoteUnlockAfterATakeOver: a holder releasing its lock just after
// another took it over leaves the new holder's lock in place.
func TestRemoteUnlockAfterATakeOver(t *testing.T) {
	f := newRemote(t)
	next := NewLockInfo("apply", "the next run")
	store := &takeOverFirst{Storage: f.store, lockKey: f.b.lockKey(), by: next}
	u, _ := mustLock(t, NewRemote(store, "orders.json"), "apply")
	if err := u.Unlock(); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if !store.landed {
		t.Fatal("no take-over landed: the test proves nothing")
	}
	if id := holderID(t, f.b); id != next.ID {
		t.Fatalf("after the old holder's unlock the lock is held by %q, want the new holder %q", id, next.ID)
	}
}

// noConditionalDelete is a store that cannot delete conditionally.
type noConditionalDelete struct{ providers.Storage }

func (noConditionalDelete) DeleteIfMatch(context.Context, string, string) error {
	return fmt.Errorf("delete: no If-Match on DELETE here: %w", errors.ErrUnsupported)
}

// TestRemoteUnlockWithoutConditionalDeletes: on a store that cannot delete
// conditionally, unlock still frees the lock, and the fallback still reads
// it first: it leaves the lock another holder took over.
func TestRemoteUnlockWithoutConditionalDeletes(t *testing.T) {
	f := newRemote(t)
	b := NewRemote(noConditionalDelete{f.store}, "orders.json")
	u, _ := mustLock(t, b, "apply")
	if err := u.Unlock(); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if id := holderID(t, f.b); id != "" {
		t.Fatalf("after unlock the lock is held by %q", id)
	}
	other := NewLockInfo("apply", "another run")
	u, _ = mustLock(t, b, "apply")
	data, _ := json.Marshal(other)
	_, info, err := providers.ReadAll(context.Background(), f.store, f.b.lockKey())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.PutIfMatch(context.Background(), f.b.lockKey(), data, info.Version); err != nil {
		t.Fatal(err)
	}
	u.Unlock()
	if id := holderID(t, f.b); id != other.ID {
		t.Fatalf("the unlock removed the lock another holder took over: held by %q", id)
	}
}
