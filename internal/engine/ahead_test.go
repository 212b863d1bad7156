package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// TestStageAheadWaitsForIntent: on destinations that stage on their final
// keys, the next batch is encoded while the one before it publishes (the
// first publish waits until batch 1 is being staged), and still nothing of a
// batch reaches a store before its intent is logged: an upload staged before
// then is held, and its hold opens only after the intent.
func TestStageAheadWaitsForIntent(t *testing.T) {
	w := newWorldPromoting(byPublish, 1500) // 10 batches of 300
	guards := map[string]*intentGuard{}
	w.guard = map[string]providers.Storage{}
	for name, st := range w.stagers {
		g := &intentGuard{Staging: st, state: w.stateStore, batch1Staged: make(chan struct{})}
		guards[name], w.guard[name] = g, g
	}
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	w.check(t)
	for name, g := range guards {
		g.mu.Lock()
		if len(g.violations) > 0 {
			t.Errorf("%s: %d uploads went before their batch's intent, first: %s", name, len(g.violations), g.violations[0])
		}
		if !g.overlapped {
			t.Errorf("%s: batch 0 was published before batch 1 was staged: no batch was staged ahead", name)
		}
		if g.held == 0 {
			t.Errorf("%s: no upload was held", name)
		}
		g.mu.Unlock()
	}
}

// intentGuard is a staging destination that checks, for every upload, that
// the batch of its file has its intent logged (the state's next batch is
// past it) when the upload may first reach the store: at Stage when not
// held, when its hold opens otherwise.
type intentGuard struct {
	*mem.Staging
	state *mem.Storage

	mu           sync.Mutex
	violations   []string
	held         int
	batch1Staged chan struct{} // closed at the first Stage of batch 1
	staged1      bool
	overlapped   bool // batch 1 was staged before batch 0 was published
}

var (
	_ providers.Stager       = (*intentGuard)(nil)
	_ providers.StagedLister = (*intentGuard)(nil)
)

// Features declares the guard's Stage in place of its store's.
func (g *intentGuard) Features() providers.Features {
	f := g.Staging.Features()
	f.Stager = g
	return f
}

func (g *intentGuard) intentLogged(batch int64) bool {
	mgr, err := state.Load(context.Background(), state.NewRemote(g.state, "state.json"), "test")
	if err != nil {
		panic(err)
	}
	ss := mgr.State().Sinks["orders"]
	return ss != nil && ss.NextBatch > batch
}

func (g *intentGuard) violation(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.violations = append(g.violations, fmt.Sprintf(format, args...))
}

func (g *intentGuard) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	_, batch, ok := pipeline.FileBatch(key)
	if !ok {
		return nil, fmt.Errorf("stage %s: not a data file", key)
	}
	g.mu.Lock()
	if batch == 1 && !g.staged1 {
		g.staged1 = true
		close(g.batch1Staged)
	}
	g.mu.Unlock()
	if opt.Hold == nil {
		if !g.intentLogged(batch) {
			g.violation("%s staged unheld before the intent of batch %d", key, batch)
		}
	} else {
		g.mu.Lock()
		g.held++
		g.mu.Unlock()
		go func() {
			select {
			case <-opt.Hold:
				if !g.intentLogged(batch) {
					g.violation("the hold of %s opened before the intent of batch %d", key, batch)
				}
			case <-ctx.Done():
			}
		}()
	}
	sw, err := g.Staging.Stage(ctx, key, opt)
	if err != nil {
		return nil, err
	}
	return &guardedWriter{StagedWriter: sw, g: g, batch: batch}, nil
}

type guardedWriter struct {
	providers.StagedWriter
	g     *intentGuard
	batch int64
}

func (w *guardedWriter) Finish() (providers.Staged, error) {
	u, err := w.StagedWriter.Finish()
	if err != nil {
		return nil, err
	}
	return &guardedUpload{Staged: u, g: w.g, batch: w.batch}, nil
}

type guardedUpload struct {
	providers.Staged
	g     *intentGuard
	batch int64
}

// Publish of batch 0 waits, for a while, for batch 1 to be staged: a run that
// stages ahead overlaps them.
func (u *guardedUpload) Publish(ctx context.Context) error {
	if u.batch == 0 {
		select {
		case <-u.g.batch1Staged:
			u.g.mu.Lock()
			u.g.overlapped = true
			u.g.mu.Unlock()
		case <-time.After(5 * time.Second):
		}
	}
	return u.Staged.Publish(ctx)
}

// TestOwnerRemovedBeforePromotionReleasesTheUploads: a batch stopped before
// promotion because its destination's owner record is gone releases every
// upload it staged there (their place in the store's budget of waiting
// uploads), and publishes none.
func TestOwnerRemovedBeforePromotionReleasesTheUploads(t *testing.T) {
	w := newWorldPromoting(byPublish, 300)
	counter := &releaseCounter{Staging: w.stagers["a"]}
	counter.onFinish = func() { w.stagers["a"].Storage.Delete(context.Background(), OwnerKey) }
	w.guard = map[string]providers.Storage{"a": counter}
	err := w.apply(t, nil)
	if err == nil || !strings.Contains(err.Error(), "owner record") {
		t.Fatalf("apply with the owner record removed: %v, want the owner record's error", err)
	}
	counter.mu.Lock()
	defer counter.mu.Unlock()
	if counter.finished == 0 {
		t.Fatal("no upload was staged: the test proves nothing")
	}
	if counter.published != 0 || counter.released != counter.finished {
		t.Errorf("%d uploads staged, %d published, %d released: want all released, none published", counter.finished, counter.published, counter.released)
	}
}

// releaseCounter is a staging destination that counts its staged uploads,
// and those published or released; onFinish runs at the first.
type releaseCounter struct {
	*mem.Staging
	onFinish func()

	mu                            sync.Mutex
	finished, published, released int
}

// Features declares the counter's Stage in place of its store's.
func (r *releaseCounter) Features() providers.Features {
	f := r.Staging.Features()
	f.Stager = r
	return f
}

func (r *releaseCounter) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	sw, err := r.Staging.Stage(ctx, key, opt)
	if err != nil {
		return nil, err
	}
	return &countedWriter{StagedWriter: sw, r: r}, nil
}

type countedWriter struct {
	providers.StagedWriter
	r *releaseCounter
}

func (w *countedWriter) Finish() (providers.Staged, error) {
	u, err := w.StagedWriter.Finish()
	if err != nil {
		return nil, err
	}
	w.r.mu.Lock()
	w.r.finished++
	first := w.r.finished == 1
	w.r.mu.Unlock()
	if first && w.r.onFinish != nil {
		w.r.onFinish()
	}
	return &countedStaged{Staged: u, r: w.r}, nil
}

type countedStaged struct {
	providers.Staged
	r    *releaseCounter
	done bool
}

func (u *countedStaged) Publish(ctx context.Context) error {
	if err := u.Staged.Publish(ctx); err != nil {
		return err
	}
	u.r.mu.Lock()
	defer u.r.mu.Unlock()
	if !u.done {
		u.done = true
		u.r.published++
	}
	return nil
}

func (u *countedStaged) Release() {
	u.Staged.Release()
	u.r.mu.Lock()
	defer u.r.mu.Unlock()
	if !u.done {
		u.done = true
		u.r.released++
	}
}
