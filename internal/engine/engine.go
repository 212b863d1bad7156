// Package engine runs batches through the commit protocol of DESIGN.md. It is
// the only place that protocol is written:
//
//  1. intent: the batch's ranges are written into the state as in flight,
//     before any destination is touched; a retry replays exactly these ranges;
//  2. stage: the records are encoded once and written, in every destination
//     that still needs the batch, under <dest>/_temporary/<N>/ — or, on a
//     store that stages uploads (providers.Stager: S3 multipart uploads,
//     Azure blocks), on the files' final keys, invisible until published;
//  3. promote: each staged file is renamed (local), published (a Stager:
//     one request that moves no data) or copied then deleted (other object
//     stores) into place, then the batch manifest is written create-only:
//     the destination's commit point; _temporary/<N> is removed;
//  4. commit: once every destination has its manifest, the state marks the
//     batch committed.
//
// A crash at any instant leaves a state from which the next run finishes the
// batch with the same ranges, the same file names and the same bytes.
package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Destination is one place a sink writes to.
type Destination struct {
	Name    string
	Storage providers.Storage
	// Table, when set, is the table each batch is also committed to, as one
	// snapshot: what engines that read the table (and not the manifests) see.
	Table Table
}

// Table is a table format a destination commits its batches to, besides the
// manifests (an Iceberg table whose location is the destination). Its commit
// comes after the batch's files are in place and before the manifest, so
// that a destination with a manifest has its batch in the table too; a crash
// in between redoes the batch, and Committed keeps the retry from appending
// it twice.
type Table interface {
	// Describe names the table for messages, e.g. "iceberg table lake.orders".
	Describe() string
	// Catalog names the table's catalog for messages, without secrets, e.g.
	// "iceberg catalog postgres://db.example:5432/lake".
	Catalog() string
	// Connect reaches the catalog's server, if it has one, and changes
	// nothing: an apply checks it before it writes the state or a
	// destination. Its error says what to do.
	Connect(ctx context.Context) error
	// Open connects to the catalog, creates the table when missing and
	// refuses one whose schema or partitioning the sink cannot write: once
	// per apply, before any batch.
	Open(ctx context.Context) error
	// Committed reports whether a snapshot of the table records batch of sink.
	Committed(ctx context.Context, sink string, batch int64) (bool, error)
	// Append commits files (paths relative to the destination) as one
	// snapshot that records sink, batch and ranges. A lost answer is settled
	// by Committed on the retry.
	Append(ctx context.Context, sink string, batch int64, ranges []state.Range, files []FileEntry) error
}

// Sink is a sink ready to run: its source, destinations and output layout.
type Sink struct {
	Name         string
	SourceType   string
	SourceName   string
	Source       providers.Source
	Destinations []Destination // in config order
	Layout       pipeline.Layout
	// LayoutHash identifies the output settings; see state.Batch.Layout.
	LayoutHash string
	History    int
	// MovedFrom is the sink's former name while a moved block's rename is
	// pending: until apply moves them, its manifests are under that name.
	MovedFrom string
	// Shard is set on a shard of a sharded sink: Name is then the shard's
	// ("orders/shard-3"), which names its checkpoint and its manifests'
	// folder, and the destinations are owned by the sharded sink, whose
	// shards share them.
	Shard *planner.Shard
}

// ownerName is the sink that owns the destinations: the sharded sink for
// one of its shards.
func (s *Sink) ownerName() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.observedName()
}

// declared is the sink's name in the configuration: the sharded sink's for
// one of its shards.
func (s *Sink) declared() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.Name
}

// fileShard is what the names of the shard's files start with ("s3"); ""
// for a sink not sharded.
func (s *Sink) fileShard() string {
	if s.Shard == nil {
		return ""
	}
	return "s" + strconv.Itoa(s.Shard.Index)
}

// temporaryPrefix is where the sink stages batch: each shard under its own
// folder of _temporary/, as shards number their batches on their own.
func (s *Sink) temporaryPrefix(batch int64) string {
	if s.Shard == nil {
		return TemporaryPrefix(batch)
	}
	return TemporaryDir + "/" + s.shardDir() + "/" + strconv.FormatInt(batch, 10) + "/"
}

// temporaryRoot is the folder the sink's temporaries are listed under.
func (s *Sink) temporaryRoot() string {
	if s.Shard == nil {
		return TemporaryDir + "/"
	}
	return TemporaryDir + "/" + s.shardDir() + "/"
}

// stateShard is what the sink's checkpoint records of its shard.
func (s *Sink) stateShard() *state.Shard {
	if s.Shard == nil {
		return nil
	}
	sh := *s.Shard
	return &sh
}

func (s *Sink) shardDir() string { return "shard-" + strconv.Itoa(s.Shard.Index) }

// observedName is the name the sink's manifests are kept under now.
func (s *Sink) observedName() string {
	if s.MovedFrom != "" {
		return s.MovedFrom
	}
	return s.Name
}

func (s *Sink) destination(name string) *Destination {
	for i := range s.Destinations {
		if s.Destinations[i].Name == name {
			return &s.Destinations[i]
		}
	}
	return nil
}

// Engine runs sinks' batches against one state.
type Engine struct {
	State   *state.Manager
	Version string
	// OnEvent receives progress events; it may be called from several goroutines
	// at once, never concurrently for one sink.
	OnEvent func(Event)
	// Now is the clock; tests may fix it.
	Now func() time.Time
	// LockID, when set, gives the ID of the lock sink is applied under,
	// recorded in its manifests.
	LockID func(sink string) string
	// Fence, when set, is asked right before each write of sink's batches
	// reaches a store or the state, and stops the sink with its error: the
	// lock the sink is applied under may be gone (state.Unlocker.Held).
	Fence func(sink string) error

	stateMu sync.Mutex
	// probe checks each destination's conditional writes once per run.
	probe providers.ConditionProbe
}

// Event is a step of an apply, for progress output.
type Event struct {
	Type        string // batch_start | destination_committed | batch_committed | cleanup | table_orphan | warning
	Sink        string
	Batch       int64
	Destination string
	Records     int64
	Rejected    int64
	Bytes       int64
	Files       int
	Ranges      []state.Range
	Resume      bool
	Repair      bool // a committed batch rewritten into destinations that miss it
	Elapsed     time.Duration
	Message     string // warning; table_orphan: what was removed
	Table       string // table_orphan: the table, e.g. "iceberg table lake.orders"
	Path        string // table_orphan: the file removed
	Kind        string // table_orphan: planner.OrphanData or planner.OrphanMetadata
}

func (e *Engine) emit(ev Event) {
	if e.OnEvent != nil {
		e.OnEvent(ev)
	}
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// update changes the checkpoint of sink alone. The manager writes only that
// sink's document where the state keeps one per sink (so that sinks applied
// in parallel, here or by other processes, do not contend), and orders the
// writes of a state kept in one document.
func (e *Engine) update(ctx context.Context, sink string, change func(*state.State) error) error {
	if err := e.fence(sink); err != nil {
		return err
	}
	err := e.State.UpdateSink(context.WithoutCancel(ctx), sink, change)
	if errors.Is(err, state.ErrConflict) {
		// A write that waited past the lease (a stalled host) lost to the
		// lock's next holder: say so, rather than blame "another writer".
		if ferr := e.fence(sink); ferr != nil {
			return fmt.Errorf("%w; %v", ferr, err)
		}
	}
	return err
}

// fence returns why sink's writes must stop, or nil (see Engine.Fence).
func (e *Engine) fence(sink string) error {
	if e.Fence == nil {
		return nil
	}
	return e.Fence(sink)
}

// ensureState writes the state if it does not exist yet, so that its lineage,
// which owner records name, outlives a crash before the first batch.
func (e *Engine) ensureState(ctx context.Context) error {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	if e.State.Exists() {
		return nil
	}
	if err := e.State.Update(context.WithoutCancel(ctx), func(*state.State) error { return nil }); err != nil {
		return fmt.Errorf("create the state: %w", err)
	}
	return nil
}

// ownership is who this engine writes destinations as.
func (e *Engine) ownership() Ownership {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	return Ownership{Lineage: e.State.State().Lineage, State: e.State.Backend().Describe()}
}

func (e *Engine) owner(sink *Sink, d *Destination) planner.Owner {
	own := e.ownership()
	return planner.Owner{Lineage: own.Lineage, Sink: sink.ownerName(), Destination: d.Name, State: own.State}
}

// claimAll claims every destination of the sink before anything is staged:
// a destination owned by another sink or state is refused untouched.
func (e *Engine) claimAll(ctx context.Context, sink *Sink) error {
	if err := e.ensureState(ctx); err != nil {
		return err
	}
	for i := range sink.Destinations {
		d := &sink.Destinations[i]
		// Owner records and manifests are create-only writes: a store that
		// ignores the condition would let two writers commit.
		if err := e.probe.Check(ctx, d.Storage, MetadataDir+"/.conditional-probe"); err != nil {
			return fmt.Errorf("destination %s: %w", d.Name, err)
		}
		if err := claim(ctx, d, sink.ownerName(), e.owner(sink, d), e.Version, e.now()); err != nil {
			return fmt.Errorf("destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
	}
	return nil
}

// Observe lists what each destination of a sink holds: its manifests and its
// temporaries, with one listing of each folder per destination. st is the
// sink's checkpoint (nil for a new sink). Indexes are read only for the
// batches the planner can ask about (the state's history onwards), and
// manifests at or after the next batch are read, so that the planner can check
// whether they continue the state.
func Observe(ctx context.Context, sink *Sink, st *state.Sink) (map[string]*planner.Observation, error) {
	var from, next int64
	if st != nil {
		from, next = st.NextBatch, st.NextBatch
		if len(st.History) > 0 {
			from = min(from, st.History[0].ID)
		}
		if st.InFlight != nil {
			from = min(from, st.InFlight.ID)
		}
	}
	out := map[string]*planner.Observation{}
	for _, d := range sink.Destinations {
		obs, err := observe(ctx, sink, d.Storage, from, next)
		if err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		obs.Location = d.Storage.Describe()
		owner, _, err := readOwner(ctx, d.Storage)
		if err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if owner != nil {
			id := owner.identity()
			obs.Owner = &id
		} else if obs.ForeignSinks, err = foreignSinks(ctx, d.Storage, sink.ownerName()); err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if err := observeTable(ctx, sink, d, st, obs); err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		out[d.Name] = obs
	}
	return out, nil
}

func observe(ctx context.Context, es *Sink, s providers.Storage, from, next int64) (*planner.Observation, error) {
	sink := es.observedName()
	obs := &planner.Observation{}
	ahead := func(m *Manifest) {
		if m.Batch < next {
			return
		}
		if obs.Ahead == nil {
			obs.Ahead = map[int64][]state.Range{}
			obs.AheadSource = map[int64]string{}
		}
		obs.Ahead[m.Batch] = m.Ranges
		obs.AheadSource[m.Batch] = m.Source
	}
	c, err := listCatalog(ctx, s, sink)
	if err != nil {
		return nil, err
	}
	obs.Manifests = c.manifests
	for _, first := range c.indexesFrom(from) {
		ix, err := readIndex(ctx, s, sink, first)
		if err != nil {
			return nil, err
		}
		for _, m := range ix.Manifests {
			obs.Manifests = append(obs.Manifests, m.Batch)
			ahead(m)
		}
	}
	slices.Sort(obs.Manifests)
	obs.Manifests = slices.Compact(obs.Manifests)
	for _, id := range c.manifests {
		if id < next {
			continue
		}
		m, err := readManifest(ctx, s, sink, id)
		if err != nil {
			continue // the planner reports it as unreadable
		}
		ahead(m)
	}

	seen := map[int64]bool{}
	tmpRoot := es.temporaryRoot()
	err = s.List(ctx, tmpRoot, func(info providers.ObjectInfo) error {
		if n, ok := parseBatchKey(info.Key[len(tmpRoot):], false); ok && !seen[n] {
			seen[n] = true
			obs.Temporaries = append(obs.Temporaries, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Uploads staged on their final keys by a run that died before
	// publishing them are a batch's leftovers as well.
	if l, ok := s.(providers.StagedLister); ok {
		err = l.ListStaged(ctx, "", func(u providers.StagedUpload) error {
			shard, n, ok := pipeline.FileBatch(u.Key)
			if !ok || shard != es.fileShard() {
				return nil
			}
			if !seen[n] {
				seen[n] = true
				obs.Temporaries = append(obs.Temporaries, n)
			}
			if obs.StagedUploads == nil {
				obs.StagedUploads = map[int64]int{}
			}
			obs.StagedUploads[n]++
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list staged uploads: %w", err)
		}
	}
	return obs, nil
}

// Summary is what an apply of one sink did.
type Summary struct {
	Sink     string
	Batches  int64
	Repaired int64 // committed batches rewritten into destinations missing them
	Records  int64 // records read from the source
	Rejected int64 // records set aside under _rejected/ (on_invalid = "reject")
	Files    int64 // files written, all destinations
	Bytes    int64 // bytes written, all destinations
}

// ApplySink runs a sink's plan: cleanups, the batch in flight, then at most
// maxBatches new batches (0: all).
func (e *Engine) ApplySink(ctx context.Context, sink *Sink, plan *planner.SinkPlan, maxBatches int64) (Summary, error) {
	sum := Summary{Sink: sink.Name}
	// An unreachable catalog would fail the apply after the state and the
	// destinations were claimed: it fails it before anything is written.
	for _, d := range sink.Destinations {
		if d.Table != nil {
			if err := d.Table.Connect(ctx); err != nil {
				return sum, fmt.Errorf("open %s for destination %s: %w", d.Table.Catalog(), d.Name, err)
			}
		}
	}
	if plan.MovedFrom != "" {
		if err := e.MoveSink(ctx, sink, plan.MovedFrom); err != nil {
			return sum, err
		}
	}
	if err := e.claimAll(ctx, sink); err != nil {
		return sum, err
	}
	if err := checkWritable(ctx, sink); err != nil {
		return sum, err
	}
	for _, d := range sink.Destinations {
		if d.Table != nil {
			if err := d.Table.Open(ctx); err != nil {
				return sum, fmt.Errorf("open %s of destination %s: %w", d.Table.Describe(), d.Name, err)
			}
		}
	}
	if err := e.checkTables(ctx, sink); err != nil {
		return sum, err
	}
	if len(plan.Start) > 0 {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			if s.Sinks[sink.Name] != nil {
				return fmt.Errorf("the sink already has a checkpoint: the plan is stale")
			}
			ss := state.NewSink(state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: plan.Snapshot.Identity})
			ss.Shard = sink.stateShard()
			for _, r := range plan.Start {
				ss.Offsets[r.Partition] = r.Start
			}
			s.Sinks[sink.Name] = ss
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("record the starting offsets of sink %s: %w", sink.Name, err)
		}
	}
	for _, c := range plan.Cleanups {
		d := sink.destination(c.Destination)
		if d == nil {
			continue
		}
		if err := e.fence(sink.Name); err != nil {
			return sum, fmt.Errorf("remove orphan %s from %s: %w", c.What(), d.Name, err)
		}
		if err := clearStaging(ctx, sink, d.Storage, c.Batch); err != nil {
			return sum, fmt.Errorf("remove orphan %s from %s: %w", c.What(), d.Name, err)
		}
		e.emit(Event{Type: "cleanup", Sink: sink.Name, Batch: c.Batch, Destination: c.Destination, Files: c.StagedUploads})
	}
	if err := e.removeOrphans(ctx, sink, plan.Tables); err != nil {
		return sum, err
	}
	if len(plan.Removed) > 0 {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			if ss := s.Sinks[sink.Name]; ss != nil {
				for _, d := range plan.Removed {
					delete(ss.Destinations, d)
				}
			}
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("drop removed destinations of sink %s: %w", sink.Name, err)
		}
	}
	if err := e.recordLayout(ctx, sink, plan); err != nil {
		return sum, err
	}
	if err := e.recordRenamed(ctx, sink, plan); err != nil {
		return sum, err
	}
	if plan.Resume != nil {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, *plan.Resume, resumed, &sum, nil); err != nil {
			return sum, err
		}
	}
	for _, b := range plan.Adopt {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, adopted, &sum, nil); err != nil {
			return sum, err
		}
	}
	for _, b := range plan.Repairs {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, repair, &sum, nil); err != nil {
			return sum, err
		}
	}
	return sum, e.runNew(ctx, sink, plan, maxBatches, &sum)
}

// runNew runs the plan's new batches. Each batch's intent is logged by the
// state write that commits the batch before it (group commit): one state
// write per batch instead of two, which is most of a small batch's cost. The
// state after that write is the state after the intent alone, so recovery is
// unchanged; the next batch is only chained while the run will go on to run
// it (not past -max-batches, not once interrupted).
func (e *Engine) runNew(ctx context.Context, sink *Sink, plan *planner.SinkPlan, maxBatches int64, sum *Summary) error {
	next, stop := iter.Pull(iter.Seq[planner.Batch](plan.New.Each))
	defer stop()
	b, ok := next()
	logged := false   // b's intent is in the state already
	var staged *ahead // b, staged already
	defer func() {
		if staged != nil {
			staged.drop() // the run stopped before it: nothing of it is on a store
		}
	}()
	for ok {
		if !logged {
			if maxBatches > 0 && sum.Batches >= maxBatches {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		following, more := next()
		c := &chain{logged: logged, staged: staged}
		staged = nil // runBatch's now
		if more && (maxBatches <= 0 || sum.Batches+1 < maxBatches) {
			c.next = &following
		}
		err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, newBatch, sum, c)
		staged = c.ahead
		if err != nil {
			return err
		}
		b, ok, logged = following, more, c.nextLogged
	}
	return nil
}

// chain links a new batch to the one after it, whose intent its commit logs
// and which it may stage ahead.
type chain struct {
	logged     bool           // this batch's intent was logged by the previous commit
	staged     *ahead         // this batch, staged while the previous one committed
	next       *planner.Batch // the batch to log the intent of at commit, if any
	nextLogged bool           // the commit logged it
	ahead      *ahead         // next, being staged
}

// checkWritable writes and removes a small object in every destination, so
// that a destination that cannot be written fails before any intent is logged
// and the state stays untouched.
func checkWritable(ctx context.Context, sink *Sink) error {
	key := MetadataDir + "/" + sink.Name + "/.write-check"
	for _, d := range sink.Destinations {
		if err := providers.Put(ctx, d.Storage, key, []byte("streamctl write check\n")); err != nil {
			return fmt.Errorf("destination %s (%s) cannot be written: %w", d.Name, d.Storage.Describe(), err)
		}
		if err := d.Storage.Delete(ctx, key); err != nil {
			return fmt.Errorf("destination %s (%s): remove the write check: %w", d.Name, d.Storage.Describe(), err)
		}
	}
	return nil
}

// mode says which of the protocol's steps a batch goes through.
type mode int

const (
	newBatch mode = iota // intent, write, commit
	resumed              // write where missing, commit
	adopted              // intent with the ranges a destination committed, write where missing, commit
	repair               // write into destinations that miss a committed batch, record them
)

// logIntent records b as the sink's batch in flight: step 1 of the protocol.
func logIntent(s *state.State, sink *Sink, identity string, b planner.Batch, started time.Time) error {
	ss := s.Sinks[sink.Name]
	if ss == nil {
		ss = state.NewSink(state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: identity})
		ss.Shard = sink.stateShard()
		s.Sinks[sink.Name] = ss
	}
	if ss.InFlight != nil {
		return fmt.Errorf("batch %d is already in flight", ss.InFlight.ID)
	}
	if b.ID != ss.NextBatch {
		return fmt.Errorf("the state expects batch %d next, not %d: it changed since the plan was made", ss.NextBatch, b.ID)
	}
	ss.Source = state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: identity}
	t := started.UTC()
	ss.InFlight = &state.Batch{ID: b.ID, Ranges: b.Ranges, Destinations: b.Destinations, Layout: sink.LayoutHash, Records: b.Records, Started: &t}
	if sink.LayoutHash != "" && (ss.Layout == nil || ss.Layout.Hash != sink.LayoutHash) {
		ss.SetLayout(layoutOf(sink))
	}
	ss.NextBatch = b.ID + 1
	return nil
}

// runBatch takes one batch through the protocol. c, for a new batch, says
// whether its intent is logged already and which batch's intent its commit
// logs.
func (e *Engine) runBatch(ctx context.Context, sink *Sink, identity string, b planner.Batch, m mode, sum *Summary, c *chain) error {
	started := e.now()
	resume := m != newBatch
	switch {
	case c != nil && c.logged:
		// Logged by the previous batch's commit.
		fault.Point("after-intent")
	case m == newBatch || m == adopted:
		// 1. Intent.
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			return logIntent(s, sink, identity, b, started)
		})
		if err != nil {
			return fmt.Errorf("log intent of batch %d of sink %s: %w", b.ID, sink.Name, err)
		}
		fault.Point("after-intent")
	}
	e.emit(Event{Type: "batch_start", Sink: sink.Name, Batch: b.ID, Records: b.Records, Ranges: b.Ranges, Resume: resume, Repair: m == repair})

	// A batch staged ahead goes on once its intent is logged.
	var staged *ahead
	if c != nil && c.staged != nil {
		defer c.staged.cancel()
		if err := c.staged.take(ctx, e, sink); err != nil {
			return err
		}
		if !c.staged.skipped {
			staged = c.staged
		}
	}

	var pending []int
	if staged != nil {
		pending = staged.pending // looked up ahead
	} else {
		var err error
		if err = e.fence(sink.Name); err != nil { // it may clear what a crash left
			return fmt.Errorf("batch %d of sink %s: %w", b.ID, sink.Name, err)
		}
		if pending, err = pendingDestinations(ctx, sink, b, m); err != nil {
			return err
		}
	}

	if len(pending) > 0 {
		var (
			st    *staging
			stats pipeline.Stats
			err   error
		)
		if staged != nil {
			st, stats, err = staged.st, staged.stats, staged.err
		} else {
			st, stats, err = e.stage(ctx, sink, b, pending)
		}
		if err != nil {
			return err
		}
		fault.Point("after-stage")
		if c != nil && c.next != nil && canStageAhead(sink) {
			// Its encoding overlaps this batch's uploads; its own uploads
			// wait for its intent (see ahead).
			c.ahead = e.stageAhead(ctx, sink, *c.next)
		}
		if err := e.promoteAll(ctx, sink, identity, b, pending, st); err != nil {
			return err
		}
		sum.Records += stats.Records
		sum.Rejected += stats.Rejected
		for _, fl := range st.files {
			for _, f := range fl {
				sum.Files++
				sum.Bytes += f.Size
			}
		}
	}

	if m == repair {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			ss := s.Sinks[sink.Name]
			if ss == nil {
				return fmt.Errorf("the sink has no checkpoint")
			}
			ss.Record(b.ID, b.Pending)
			return nil
		})
		if err != nil {
			return fmt.Errorf("record the repair of batch %d of sink %s in the state: %w", b.ID, sink.Name, err)
		}
		sum.Repaired++
		e.emit(Event{Type: "batch_repaired", Sink: sink.Name, Batch: b.ID, Records: b.Records, Elapsed: e.now().Sub(started)})
		return nil
	}

	// 4. Commit.
	fault.Point("before-state-commit")
	var records int64
	committed := map[string]int64{}
	err := e.update(ctx, sink.Name, func(s *state.State) error {
		ss := s.Sinks[sink.Name]
		if ss == nil || ss.InFlight == nil || ss.InFlight.ID != b.ID {
			return fmt.Errorf("batch %d is no longer in flight in the state", b.ID)
		}
		records = ss.InFlight.Records
		now := e.now()
		ss.Commit(now, sink.History)
		for part, off := range ss.Offsets {
			committed[part] = off
		}
		// The next batch's intent, unless the run is being interrupted or
		// the state does not admit it: its own write then logs it, or
		// refuses it with the reason.
		if c != nil {
			c.nextLogged = false
			if c.next != nil && ctx.Err() == nil && ss.InFlight == nil && ss.NextBatch == c.next.ID {
				if err := logIntent(s, sink, identity, *c.next, now); err != nil {
					return err
				}
				c.nextLogged = true
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit batch %d of sink %s to the state: %w", b.ID, sink.Name, err)
	}
	fault.Point("after-state-commit")
	sum.Batches++
	if oc, ok := sink.Source.(providers.OffsetCommitter); ok {
		// For lag dashboards only: the state stays the truth, so a failure here
		// is reported and does not fail the batch.
		if err := oc.CommitGroup(ctx, committed); err != nil {
			e.emit(Event{Type: "warning", Sink: sink.Name, Batch: b.ID, Message: fmt.Sprintf("commit offsets to the consumer group: %v", err)})
		}
	}
	if (b.ID+1)%IndexInterval == 0 {
		e.compact(ctx, sink, b.ID+1)
	}
	e.emit(Event{Type: "batch_committed", Sink: sink.Name, Batch: b.ID, Records: records, Elapsed: e.now().Sub(started), Resume: resume})
	return nil
}

// pendingDestinations returns the destinations (indexed like b.Destinations)
// that do not hold the batch's manifest yet. Those that do are done with it:
// what a crash left staged there is cleaned up.
func pendingDestinations(ctx context.Context, sink *Sink, b planner.Batch, m mode) ([]int, error) {
	var pending []int
	for i, name := range b.Destinations {
		if m == repair && !slices.Contains(b.Pending, name) {
			continue
		}
		d := sink.destination(name)
		if d == nil {
			return nil, fmt.Errorf("batch %d of sink %s: destination %s is not configured", b.ID, sink.Name, name)
		}
		// A new batch is past every block compacted so far; a batch replayed
		// (resumed, adopted, repaired) may sit in an indexed block.
		have, err := lookupManifest(ctx, d.Storage, sink.Name, b.ID, m != newBatch)
		if err != nil && !errors.Is(err, providers.ErrNotExist) {
			return nil, fmt.Errorf("check batch %d in %s: %w", b.ID, name, err)
		}
		if have != nil && !b.Replace {
			if !sameRanges(have, b.Ranges) {
				return nil, fmt.Errorf("batch %d in %s: its manifest covers other ranges than the state's in-flight batch; the destination was written under another state", b.ID, name)
			}
			// Committed there; a crash may have come before its cleanup.
			if err := clearStaging(ctx, sink, d.Storage, b.ID); err != nil {
				return nil, fmt.Errorf("clean up batch %d in %s: %w", b.ID, name, err)
			}
			continue
		}
		pending = append(pending, i)
	}
	return pending, nil
}

// compact gathers the manifests of the blocks committed below next into
// indexes, in every destination. The batches are committed already, so a
// failure is a warning: readers read single manifests as well, and the next
// block's compaction retries.
func (e *Engine) compact(ctx context.Context, sink *Sink, next int64) {
	for _, d := range sink.Destinations {
		if err := compactManifests(ctx, d.Storage, sink.Name, d.Name, next); err != nil {
			e.emit(Event{Type: "warning", Sink: sink.Name, Destination: d.Name, Message: fmt.Sprintf("%s: %v", d.Name, err)})
		}
	}
}

func readManifest(ctx context.Context, s providers.Storage, sink string, batch int64) (*Manifest, error) {
	data, _, err := providers.ReadAll(ctx, s, ManifestKey(sink, batch))
	if err != nil {
		return nil, err
	}
	m, err := DecodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("read manifest %s: %w", ManifestKey(sink, batch), err)
	}
	if m.Batch != batch || m.Sink != sink {
		return nil, fmt.Errorf("read manifest %s: it says it commits batch %d of sink %q", ManifestKey(sink, batch), m.Batch, m.Sink)
	}
	return m, nil
}

// stage encodes the batch once and writes it under _temporary/<N>/ of every
// pending destination. It returns each destination's files (indexed like
// b.Destinations).
func (e *Engine) stage(ctx context.Context, sink *Sink, b planner.Batch, pending []int) (*staging, pipeline.Stats, error) {
	tmp := sink.temporaryPrefix(b.ID)
	if err := e.fence(sink.Name); err != nil {
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d: %w", b.ID, err)
	}
	for _, i := range pending {
		d := sink.destination(b.Destinations[i])
		// Leftovers of a crashed attempt are not trusted: staging starts clean.
		if err := clearStaging(ctx, sink, d.Storage, b.ID); err != nil {
			return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d to %s: clear %s: %w", b.ID, d.Name, tmp, err)
		}
	}
	return e.encode(ctx, sink, b, pending, nil)
}

// encode reads the batch's ranges once and writes its files to the staging
// area of every pending destination. hold, when not nil, keeps uploads off
// the stores until it is closed (see ahead).
func (e *Engine) encode(ctx context.Context, sink *Sink, b planner.Batch, pending []int, hold <-chan struct{}) (*staging, pipeline.Stats, error) {
	out := &stagingOutput{ctx: ctx, sink: sink, batch: b, prefix: sink.temporaryPrefix(b.ID), hold: hold, staging: staging{
		files:  make([][]FileEntry, len(b.Destinations)),
		staged: make([][]providers.Staged, len(b.Destinations)),
	}}
	layout := sink.Layout
	layout.Destinations = b.Destinations
	layout.Shard = sink.fileShard()
	w, err := pipeline.New(layout, b.ID, pending, out)
	if err != nil {
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	ranges := make([]providers.Range, len(b.Ranges))
	for i, r := range b.Ranges {
		ranges[i] = providers.Range(r)
	}
	// The error names its range: "read partition %s [%d, %d): ...".
	if err := providers.ReadRanges(ctx, sink.Source, ranges, w.Write); err != nil {
		w.Abort()
		out.discard(sink)
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	stats, err := w.Close()
	if err != nil {
		w.Abort()
		out.discard(sink)
		return nil, stats, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	return &out.staging, stats, nil
}

// staging is what a batch staged, per destination (indexed like
// b.Destinations): the manifest's files, and the uploads that publishing
// makes them, on a providers.Stager.
type staging struct {
	files  [][]FileEntry
	staged [][]providers.Staged
}

// stagingOutput is the pipeline's Output: each file is written once and teed
// to the staging area of every destination that gets it, with one checksum.
type stagingOutput struct {
	ctx    context.Context
	sink   *Sink
	batch  planner.Batch
	prefix string
	hold   <-chan struct{} // see providers.StageOptions

	mu sync.Mutex
	staging
}

func (o *stagingOutput) Create(dests []int, relPath string) (pipeline.File, error) {
	f := &stagedFile{out: o, rel: relPath, dests: dests, hash: sha256.New()}
	for _, i := range dests {
		d := o.sink.destination(o.batch.Destinations[i])
		var (
			w   fileWriter
			err error
		)
		if st, ok := d.Storage.(providers.Stager); ok {
			var sw providers.StagedWriter
			sw, err = st.Stage(o.ctx, relPath, providers.StageOptions{Hold: o.hold})
			w = stagedWriter{sw}
		} else {
			var ow providers.ObjectWriter
			if sc, ok := d.Storage.(providers.ScratchCreator); ok {
				// Promoted by rename, which makes the name durable; a
				// staged file a crash loses is staged again.
				ow, err = sc.CreateScratch(o.ctx, o.prefix+relPath)
			} else {
				ow, err = d.Storage.Create(o.ctx, o.prefix+relPath)
			}
			w = temporaryWriter{ow}
		}
		if err != nil {
			f.Abort()
			return nil, fmt.Errorf("stage batch %d to %s: %w", o.batch.ID, d.Name, err)
		}
		f.writers = append(f.writers, w)
	}
	return f, nil
}

// discard drops the uploads staged before a failure, so that a failed run
// leaves no billed parts behind; what it misses, the next attempt's
// clearStaging removes.
func (o *stagingOutput) discard(sink *Sink) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ctx := context.WithoutCancel(o.ctx)
	for i, uploads := range o.staged {
		d := sink.destination(o.batch.Destinations[i])
		l, _ := d.Storage.(providers.StagedLister)
		for _, u := range uploads {
			u.Release()
			if l != nil && u.Upload().ID != "" {
				_ = l.Discard(ctx, u.Upload())
			}
		}
	}
}

// fileWriter writes one staged file to one destination: under _temporary/<N>/
// (promoted by rename or copy), or staged on its final key (published).
type fileWriter interface {
	io.Writer
	finish() (providers.Staged, error)
	abort()
}

type temporaryWriter struct{ providers.ObjectWriter }

func (w temporaryWriter) finish() (providers.Staged, error) { return nil, w.Commit() }
func (w temporaryWriter) abort()                            { _ = w.Abort() }

type stagedWriter struct{ providers.StagedWriter }

func (w stagedWriter) finish() (providers.Staged, error) { return w.Finish() }
func (w stagedWriter) abort()                            { _ = w.Abort() }

type stagedFile struct {
	out     *stagingOutput
	rel     string
	dests   []int
	writers []fileWriter
	hash    hash.Hash
	size    int64
}

func (f *stagedFile) Write(p []byte) (int, error) {
	f.hash.Write(p)
	for k, w := range f.writers {
		if _, err := w.Write(p); err != nil {
			name := f.out.batch.Destinations[f.dests[k]]
			return 0, fmt.Errorf("stage batch %d to %s: write %s: %w", f.out.batch.ID, name, f.rel, err)
		}
	}
	f.size += int64(len(p))
	return len(p), nil
}

func (f *stagedFile) Finish(records int64) error {
	sum := hex.EncodeToString(f.hash.Sum(nil))
	for k, w := range f.writers {
		i := f.dests[k]
		staged, err := w.finish()
		if err != nil {
			return fmt.Errorf("stage batch %d to %s: write %s: %w", f.out.batch.ID, f.out.batch.Destinations[i], f.rel, err)
		}
		f.out.mu.Lock()
		f.out.files[i] = append(f.out.files[i], FileEntry{Path: f.rel, Size: f.size, Records: records, SHA256: sum})
		if staged != nil {
			f.out.staged[i] = append(f.out.staged[i], staged)
		}
		f.out.mu.Unlock()
		fault.Point("after-stage-file")
	}
	return nil
}

func (f *stagedFile) Abort() {
	for _, w := range f.writers {
		w.abort()
	}
}

// promoteAll promotes and commits every pending destination, in parallel.
func (e *Engine) promoteAll(ctx context.Context, sink *Sink, identity string, b planner.Batch, pending []int, st *staging) error {
	var (
		wg   sync.WaitGroup
		errs = make([]error, len(pending))
	)
	for k, i := range pending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.Report()
			d := sink.destination(b.Destinations[i])
			errs[k] = e.promote(ctx, sink, identity, b, d, st.files[i], st.staged[i])
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// promote moves one destination's staged files into place and writes its
// manifest: the destination's commit point.
func (e *Engine) promote(ctx context.Context, sink *Sink, identity string, b planner.Batch, d *Destination, files []FileEntry, staged []providers.Staged) error {
	tmp := sink.temporaryPrefix(b.ID)
	m := &Manifest{
		FormatVersion: ManifestVersion,
		Sink:          sink.Name,
		Destination:   d.Name,
		Batch:         b.ID,
		Source:        identity,
		Ranges:        b.Ranges,
		Files:         files,
		Version:       e.Version,
	}
	if e.LockID != nil {
		m.LockID = e.LockID(sink.Name)
	}
	if m.Files == nil {
		m.Files = []FileEntry{}
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, pipeline.RejectedDir+"/") {
			m.Rejected += f.Records
		} else {
			m.Records += f.Records
		}
		m.Bytes += f.Size
	}
	intact, err := checkReplacement(ctx, sink, b, d, m.Files)
	if err != nil {
		for _, u := range staged {
			u.Release()
		}
		return err
	}
	// The owner was checked when the apply started; a record replaced since
	// (by hand, or a copied configuration) stops the batch before promotion.
	err = checkOwner(ctx, d, e.owner(sink, d))
	if err == nil {
		err = e.fence(sink.Name)
	}
	if err == nil {
		err = promoteFiles(ctx, d.Storage, tmp, m.Files, staged)
	}
	if err != nil {
		for _, u := range staged {
			u.Release() // the batch is redone: what is not published is dropped
		}
		return fmt.Errorf("promote batch %d in %s: %w", b.ID, d.Name, err)
	}
	if d.Table != nil {
		if err := e.fence(sink.Name); err != nil {
			return fmt.Errorf("commit batch %d to %s in %s: %w", b.ID, d.Table.Describe(), d.Name, err)
		}
		if err := commitTable(ctx, d.Table, sink.Name, b, m.Files); err != nil {
			return fmt.Errorf("commit batch %d to %s in %s: %w", b.ID, d.Table.Describe(), d.Name, err)
		}
	}
	m.Committed = e.now().UTC()
	key := ManifestKey(sink.Name, b.ID)
	if err := e.fence(sink.Name); err != nil {
		return fmt.Errorf("commit batch %d in %s: %w", b.ID, d.Name, err)
	}
	var putErr error
	if !intact { // a replacement's files are those its manifest lists: it stays
		_, putErr = d.Storage.PutIfAbsent(ctx, key, encodeManifest(m))
	}
	if err := putErr; err != nil {
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("commit batch %d in %s: write manifest: %w", b.ID, d.Name, err)
		}
		// Another writer committed this batch first: fine if it is the same data.
		theirs, rerr := readManifest(ctx, d.Storage, sink.Name, b.ID)
		if rerr != nil {
			return fmt.Errorf("commit batch %d in %s: a manifest appeared and cannot be read: %w", b.ID, d.Name, rerr)
		}
		if !sameBatch(m, theirs) {
			return fmt.Errorf("commit batch %d in %s: another writer committed different data for this batch (%s); stop every other streamctl on this sink and run `streamctl plan` to inspect", b.ID, d.Name, key)
		}
	}
	fault.Point("after-manifest")
	// Staged uploads are all published, and staging cleared _temporary/<N>
	// before it began: only a copy-promoted batch has copies to remove.
	if _, ok := d.Storage.(providers.Stager); !ok {
		if err := deletePrefix(ctx, d.Storage, tmp); err != nil {
			return fmt.Errorf("clean up batch %d in %s: %w", b.ID, d.Name, err)
		}
	}
	e.emit(Event{Type: "destination_committed", Sink: sink.Name, Batch: b.ID, Destination: d.Name, Records: m.Records, Rejected: m.Rejected, Bytes: m.Bytes, Files: len(m.Files)})
	return nil
}

// commitTable appends the batch's data files to the table unless a snapshot
// already records the batch (a retry after a crash or a lost answer).
func commitTable(ctx context.Context, t Table, sink string, b planner.Batch, files []FileEntry) error {
	done, err := t.Committed(ctx, sink, b.ID)
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	var data []FileEntry
	for _, f := range files {
		// Rejected records are JSONL beside the data: not the table's.
		if !strings.HasPrefix(f.Path, pipeline.RejectedDir+"/") {
			data = append(data, f)
		}
	}
	fault.Point("before-table-commit")
	if err := t.Append(ctx, sink, b.ID, b.Ranges, data); err != nil {
		return err
	}
	fault.Point("after-table-commit")
	return nil
}

// copyConcurrency bounds the server-side copies of one destination in flight:
// on an object store a copy costs a round trip or more whatever its size, and
// a partitioned batch has a file per partition.
const copyConcurrency = 8

// promoteFiles moves the staged files under tmp into place. A storage with
// rename renames them one by one (cheap, local); an object store copies them,
// several at once, and leaves the staged copies for the cleanup of tmp after
// the manifest (one listing and a batch delete where the store has one). A
// crash in between leaves both copies; recovery removes _temporary/<N> like
// any other, before redoing the batch or after finding its manifest.
func promoteFiles(ctx context.Context, s providers.Storage, tmp string, files []FileEntry, staged []providers.Staged) error {
	if _, ok := s.(providers.Stager); ok {
		return publishAll(ctx, staged)
	}
	if r, ok := s.(providers.Renamer); ok {
		for _, f := range files {
			if err := r.Rename(ctx, tmp+f.Path, f.Path); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
			fault.Point("after-promote-file")
		}
		return nil
	}
	return promoteConcurrently(ctx, files, func(ctx context.Context, f FileEntry) (string, error) {
		return f.Path, s.Copy(ctx, tmp+f.Path, f.Path)
	})
}

// publishAll publishes a destination's staged uploads, several at once: each
// is one request that sends no byte twice.
func publishAll(ctx context.Context, staged []providers.Staged) error {
	return promoteConcurrently(ctx, staged, func(ctx context.Context, u providers.Staged) (string, error) {
		return u.Upload().Key, u.Publish(ctx)
	})
}

// promoteConcurrently runs promote on each item, copyConcurrency at once. The
// first failure stops the others: the batch is redone anyway.
func promoteConcurrently[T any](ctx context.Context, items []T, promote func(context.Context, T) (key string, err error)) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	sem := make(chan struct{}, copyConcurrency)
	for _, item := range items {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			defer crash.Report()
			if key, err := promote(ctx, item); err != nil {
				cancel(fmt.Errorf("%s: %w", key, err))
				return
			}
			fault.Point("after-promote-file")
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// clearStaging removes what an attempt at batch left staged: its
// _temporary/<N>/ folder, and on a store whose staged uploads outlive a
// crash, the uploads of the batch's files.
func clearStaging(ctx context.Context, sink *Sink, s providers.Storage, batch int64) error {
	if err := deletePrefix(ctx, s, sink.temporaryPrefix(batch)); err != nil {
		return err
	}
	l, ok := s.(providers.StagedLister)
	if !ok {
		return nil
	}
	var leftovers []providers.StagedUpload
	err := l.ListStaged(ctx, "", func(u providers.StagedUpload) error {
		if shard, n, ok := pipeline.FileBatch(u.Key); ok && n == batch && shard == sink.fileShard() {
			leftovers = append(leftovers, u)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list staged uploads: %w", err)
	}
	for _, u := range leftovers {
		if err := l.Discard(ctx, u); err != nil {
			return fmt.Errorf("discard the staged upload of %s: %w", u.Key, err)
		}
	}
	return nil
}

// deletePrefix removes every object under prefix.
func deletePrefix(ctx context.Context, s providers.Storage, prefix string) error {
	if pd, ok := s.(providers.PrefixDeleter); ok {
		return pd.DeletePrefix(ctx, prefix)
	}
	var keys []string
	if err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, info.Key)
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}
