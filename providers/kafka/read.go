package kafka

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/jsonstr"
	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
)

// Fetch sizing. 1 MiB per fetch (some 15,000 small records) measured faster
// than 2, 4 or 8 MiB: decoding stays in cache and overlaps finely with fn.
// A fetch is decoded and delivered in pieces of about pieceBytes of record
// batches, so that fn starts on the first piece while the next ones decode
// (a batch's range of a partition is often one fetch). Memory stays bounded:
// one fetch being decoded, fetchAhead pieces decoded, one being delivered. A
// single record batch larger than this still comes whole (Kafka always
// returns the first batch).
const (
	fetchMaxWait      = 500 * time.Millisecond
	partitionMaxBytes = 1 << 20
	pieceBytes        = 128 << 10
	fetchAhead        = 2
)

var jsonNull = []byte("null")

// Read implements providers.Source: fn gets every record of partition with an
// offset in [start, end), in offset order, then Read returns nil.
//
// Completion is decided by the fetch position, not by counting records: the
// position moves past transaction control markers, records of aborted
// transactions (read_committed) and offsets removed by compaction, so a range
// whose last offsets hold no record still ends. Records at or beyond end are
// not delivered.
//
// When the partition no longer starts at or before the position (retention or
// DeleteRecords), or ends before end for longer than timeout (truncation, a
// recreated topic), the error wraps providers.ErrDataLoss and names the
// missing range. A broker that stops answering, or a fetch that makes no
// progress, fails after timeout; the context cancels at any time.
//
// The Record passed to fn, and its slices, are reused after fn returns (their
// memory decodes later fetches). Under
// value_format "json" a record with a null value (a tombstone) has Value
// `null`; other values are passed through unchecked.
func (s *Source) Read(ctx context.Context, partition string, start, end int64, fn func(*providers.Record) error) error {
	r, err := s.newReader(partition, start, end)
	if r == nil {
		return err
	}
	r.start(ctx, nil)
	defer r.stop()
	return r.deliver(fn)
}

// readAhead is how many ranges after the one being delivered ReadRanges
// fetches at the same time: a batch of a topic of 4 partitions is fetched
// whole, in 4 Reads' memory. In BenchmarkReadRanges (8 partitions, one kfake
// broker) 1, 3 and 7 waited alike for the next range's first record: one
// broker answers a client's fetches in turn, so a range started further
// ahead only queues its fetch behind the others; with a range's partitions
// on several brokers, or far ones, more of the ranges' requests overlap.
const readAhead = 3

// ReadRanges implements providers.RangeReader: fn gets the records of each
// range in turn, as Read gives them, while the next readAhead ranges are
// fetched and decoded: when a range's turn comes, its first pieces are ready
// rather than a fetch away (a request to its leader, decoding). A range's
// first fetch waits until the range before it has decoded its first piece,
// so that ranges fetched ahead do not delay the one being delivered. Each
// range keeps Read's retries, timeout and data-loss checks (its timeout
// counts from its first fetch); an error is reported at its range's turn,
// after the records of the ranges before it.
//
// Memory stays within readAhead+1 Reads': a started range holds at most its
// fetchAhead decoded pieces (of about pieceBytes of record batches each),
// one more decoded and waiting to be sent, and the fetch being decoded
// (partitionMaxBytes, and the one before it, which the waiting pieces of
// uncompressed batches point into); the range being delivered one piece
// more. Every fetching goroutine has ended when ReadRanges returns.
func (s *Source) ReadRanges(ctx context.Context, ranges []providers.Range, fn func(*providers.Record) error) error {
	readers := make([]*reader, len(ranges)) // started, not yet delivered
	errs := make([]error, len(ranges))
	defer func() {
		for _, r := range readers {
			if r != nil {
				r.stop()
			}
		}
	}()
	next, started := 0, 0
	var after chan struct{} // closed when the last started range has a piece
	for i, rg := range ranges {
		for ; next < len(ranges) && (next <= i || started <= readAhead); next++ {
			n := ranges[next]
			if r, err := s.newReader(n.Partition, n.Start, n.End); r != nil {
				r.start(ctx, after)
				after = r.fetched
				readers[next] = r
				started++
			} else {
				errs[next] = err
			}
		}
		err := errs[i]
		if r := readers[i]; r != nil && ctx.Err() != nil {
			// As a Read started now would fail, though the range may
			// have been fetched whole.
			err = fmt.Errorf("kafka topic %q partition %d: read at offset %d: %w", s.cfg.Topic, r.p, r.from, ctx.Err())
		} else if r != nil {
			err = r.deliver(fn)
			r.stop()
			readers[i] = nil
			started--
		}
		if err != nil {
			return &providers.RangeError{Range: rg, Err: err}
		}
	}
	return nil
}

// newReader checks a range and returns its reader, or nil and the error of
// an invalid range, or nil and nil for an empty one.
func (s *Source) newReader(partition string, start, end int64) (*reader, error) {
	p, err := parsePartition(partition)
	if err != nil {
		return nil, fmt.Errorf("kafka topic %q: %w", s.cfg.Topic, err)
	}
	switch {
	case start < 0 || start > end:
		return nil, fmt.Errorf("kafka topic %q partition %d: invalid range [%d, %d)", s.cfg.Topic, p, start, end)
	case start == end:
		return nil, nil
	}
	r := &reader{s: s, p: p, from: start, end: end}
	r.rec.Partition = partition
	return r, nil
}

// reader is one Read of one partition. Its fetching half (fetchLoop, locate,
// fetch) runs in one goroutine and its delivering half (deliver, convert) in
// the caller's: they share no mutable field.
type reader struct {
	s         *Source
	p         int32
	from, end int64

	// Set by start, for both halves.
	chunks chan chunk
	cancel context.CancelFunc
	// The first fetch waits for after to close, unless nil; fetched
	// closes once the first piece is sent, or the fetching ends.
	after, fetched chan struct{}

	// Fetching half.
	leader  int32
	topicID [16]byte
	pieces  [][]byte

	// Delivering half.
	ctx  context.Context // the read's, for fetching schemas
	rec  providers.Record
	val  []byte // the raw format's JSON, or the decoded value, reused
	key  []byte // the decoded key, reused
	hdrs []providers.Header
}

// chunk is the decoded records of one piece of a fetch, or the error that
// ends the read.
type chunk struct {
	records []*kgo.Record
	mem     held // what the records live in
	err     error
}

// start begins fetching the range in a goroutine, fetchLoop, which decodes
// ahead the chunks that deliver then takes. Its first fetch waits until
// after closes (unless nil): ranges started together get their first
// pieces in turn.
func (r *reader) start(ctx context.Context, after chan struct{}) {
	r.ctx = ctx
	ctx, r.cancel = context.WithCancel(ctx)
	r.chunks = make(chan chunk, fetchAhead)
	r.after, r.fetched = after, make(chan struct{})
	go r.fetchLoop(ctx, r.from, r.chunks)
}

// stop ends the fetching and waits for its goroutine: no request outlives
// it.
func (r *reader) stop() {
	r.cancel()
	for c := range r.chunks {
		r.s.release(c.mem)
	}
}

// deliver passes the records fetchLoop decodes to fn: fetching and decoding
// the next chunks overlaps with fn consuming this one.
func (r *reader) deliver(fn func(*providers.Record) error) error {
	for c := range r.chunks {
		if c.err != nil {
			return c.err
		}
		for _, kr := range c.records {
			if kr.Offset >= r.end {
				break
			}
			rec, err := r.convert(kr)
			if err != nil {
				return err
			}
			if err := fn(rec); err != nil {
				return err
			}
		}
		// fn is done with them: their memory decodes a later fetch.
		r.s.release(c.mem)
	}
	return nil
}

// fetchLoop locates the partition's leader, then fetches from pos until the
// position reaches end, sending the decoded records of each piece of a
// fetch, then closes chunks. An error is sent last.
func (r *reader) fetchLoop(ctx context.Context, pos int64, chunks chan<- chunk) {
	defer close(chunks)
	fetched := false // r.fetched is closed
	defer func() {
		if !fetched {
			close(r.fetched)
		}
	}()
	defer crash.Report() // run as a goroutine
	// A cancellation ends the chunks with its error, in place of whatever
	// chunk it interrupts, so that a canceled range never passes for read
	// whole. The reader drains chunks until they close: that send ends.
	canceled := func() error {
		return fmt.Errorf("kafka topic %q partition %d: read at offset %d: %w", r.s.cfg.Topic, r.p, pos, ctx.Err())
	}
	send := func(c chunk) bool {
		// Checked first: with room in chunks, select would pick at random.
		if ctx.Err() != nil {
			chunks <- chunk{err: canceled()}
			return false
		}
		select {
		case chunks <- c:
			return true
		case <-ctx.Done():
			chunks <- chunk{err: canceled()}
			return false
		}
	}
	if r.after != nil {
		select {
		case <-r.after:
		case <-ctx.Done():
			chunks <- chunk{err: canceled()}
			return
		}
	}
	if err := r.locate(ctx, false); err != nil {
		send(chunk{err: err})
		return
	}
	var (
		s            = r.s
		dec          = s.decoder()
		lastProgress = time.Now()
		backoff      = 50 * time.Millisecond
		opts         = kgo.ProcessFetchPartitionOpts{
			IsolationLevel: s.isolation,
			Topic:          s.cfg.Topic,
			Partition:      r.p,
			Pools:          []kgo.Pool{dec},
		}
	)
	defer s.putDecoder(dec)
	for pos < r.end {
		rp, err := r.fetch(ctx, r.leader, r.topicID, pos)
		if err == nil {
			err = r.partitionErr(ctx, rp, pos)
		}
		if err != nil {
			if ctx.Err() != nil {
				send(chunk{err: canceled()})
				return
			}
			if !retriable(err) || time.Since(lastProgress) > s.timeout {
				send(chunk{err: r.wrap(err, pos)})
				return
			}
			// A moved leader, a restarting broker: look the leader up
			// again and retry, until timeout passes without progress.
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				continue // reported above by the next round
			}
			backoff = min(2*backoff, time.Second)
			if lerr := r.locate(ctx, true); lerr != nil && !retriable(lerr) {
				send(chunk{err: lerr})
				return
			}
			continue
		}
		backoff = 50 * time.Millisecond

		// Aborted transactions are tracked across the batches of one
		// ProcessFetchPartition: such a fetch is decoded whole.
		pieces, done := [][]byte{rp.RecordBatches}, false
		if len(rp.AbortedTransactions) == 0 {
			pieces, done = splitBatches(r.pieces[:0], rp.RecordBatches, r.end)
			r.pieces = pieces
		}
		progressed := false
		sub := *rp
		for _, b := range pieces {
			sub.RecordBatches = b
			opts.Offset = pos
			fp, next := kgo.ProcessFetchPartition(opts, &sub, dec.decomp, nil)
			mem := dec.take()
			if fp.Err != nil {
				if progressed {
					// Fetched again from pos, where it fails
					// first if it fails again: kgo forgives a
					// broken batch only after good ones.
					done = false
					break
				}
				send(chunk{err: fmt.Errorf("kafka topic %q partition %d: decode records at offset %d: %w", s.cfg.Topic, r.p, pos, fp.Err)})
				return
			}
			if len(fp.Records) == 0 {
				s.release(mem)
			} else if !send(chunk{records: fp.Records, mem: mem}) {
				return
			} else if !fetched {
				close(r.fetched)
				fetched = true
			}
			if next > pos {
				pos, lastProgress, progressed = next, time.Now(), true
			}
		}
		if done {
			return // the next batch starts at or after end
		}
		if progressed {
			continue
		}

		// Nothing readable at pos: the fetch waited fetchMaxWait for data.
		// A partition that keeps ending before end lost records it had
		// when the range was planned.
		bound := rp.HighWatermark
		if s.cfg.Isolation == ReadCommitted {
			bound = rp.LastStableOffset
		}
		if time.Since(lastProgress) > s.timeout {
			if bound >= 0 && bound < r.end {
				send(chunk{err: r.truncated(pos, bound)})
			} else {
				send(chunk{err: fmt.Errorf("kafka topic %q partition %d: no progress at offset %d for %s (partition ends at %d)", s.cfg.Topic, r.p, pos, s.timeout, bound)})
			}
			return
		}
	}
}

// splitBatches appends to pieces the record batches of a fetch in runs of
// about pieceBytes, cut between batches, and leaves out the batches that
// start at or after end: done says there was one, so the range is complete
// once the pieces are read (offsets between the last batch read and that one
// do not exist). Message sets older than record batches (magic 0 and 1) carry
// a wrapper's last offset rather than its first, and go whole into the last
// piece, as does a truncated last batch, which kgo skips.
func splitBatches(pieces [][]byte, in []byte, end int64) (_ [][]byte, done bool) {
	start := 0 // of the current piece
	at := 0
	for len(in)-at > 17 && in[at+16] == 2 {
		if int64(binary.BigEndian.Uint64(in[at:])) >= end {
			done = true
			break
		}
		n := int64(int32(binary.BigEndian.Uint32(in[at+8:]))) + 12
		if n < 12 || n > int64(len(in)-at) {
			at = len(in)
			break
		}
		at += int(n)
		if at-start >= pieceBytes {
			pieces = append(pieces, in[start:at])
			start = at
		}
	}
	if !done {
		at = len(in)
	}
	if at > start {
		pieces = append(pieces, in[start:at])
	}
	return pieces, done
}

// locate finds the partition's leader and the topic ID (fetch v13+ names
// topics by ID).
func (r *reader) locate(ctx context.Context, fresh bool) error {
	ctx, cancel := context.WithTimeout(ctx, r.s.timeout)
	defer cancel()
	md, err := r.s.metadata(ctx, fresh)
	if err != nil {
		return err
	}
	leader, ok := md.leaders[r.p]
	if !ok {
		if !fresh {
			return r.locate(ctx, true) // a partition added since the cache was filled
		}
		return fmt.Errorf("kafka topic %q has no partition %d (it has %d)", r.s.cfg.Topic, r.p, len(md.partitions))
	}
	r.leader, r.topicID = leader, md.topicID
	return nil
}

// fetch sends one sessionless Fetch for the partition to its leader.
func (r *reader) fetch(ctx context.Context, leader int32, topicID [16]byte, offset int64) (*kmsg.FetchResponseTopicPartition, error) {
	if leader < 0 {
		return nil, kerr.LeaderNotAvailable
	}
	s := r.s
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = int32(fetchMaxWait / time.Millisecond)
	req.MinBytes = 1
	req.MaxBytes = partitionMaxBytes
	req.IsolationLevel = s.isolationLevel
	req.SessionID = 0
	req.SessionEpoch = -1 // no fetch session: every request is complete
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic = s.cfg.Topic
	rt.TopicID = topicID
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.Partition = r.p
	rp.FetchOffset = offset
	rp.LogStartOffset = -1
	rp.PartitionMaxBytes = partitionMaxBytes
	rp.CurrentLeaderEpoch = -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)

	ctx, cancel := context.WithTimeout(ctx, s.timeout+fetchMaxWait)
	defer cancel()
	resp, err := req.RequestWith(ctx, s.cl.Broker(int(leader)))
	if err != nil {
		return nil, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return nil, err
	}
	for i := range resp.Topics {
		for j := range resp.Topics[i].Partitions {
			if p := &resp.Topics[i].Partitions[j]; p.Partition == r.p {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("fetch response from broker %d has no partition %d", leader, r.p)
}

// partitionErr turns a partition's error code into an error. An offset out of
// range below the partition's start is data loss at once; above its end it is
// a pastEnd, retried until timeout (a new leader may lag for a moment).
func (r *reader) partitionErr(ctx context.Context, rp *kmsg.FetchResponseTopicPartition, pos int64) error {
	err := kerr.ErrorForCode(rp.ErrorCode)
	if err == nil || !errors.Is(err, kerr.OffsetOutOfRange) {
		return err
	}
	// The response's offsets may be unset on error: ask.
	ctx, cancel := context.WithTimeout(ctx, r.s.timeout)
	defer cancel()
	topic := r.s.cfg.Topic
	starts, lerr := r.s.adm.ListStartOffsets(ctx, topic)
	if lerr != nil {
		return fmt.Errorf("%w (and listing its start offset failed: %v)", err, lerr)
	}
	if lo, ok := starts.Lookup(topic, r.p); ok && lo.Err == nil && pos < lo.Offset {
		return fmt.Errorf("kafka topic %q partition %d: offsets [%d, %d) no longer exist: the partition now starts at %d (retention or deleted records): %w",
			topic, r.p, pos, min(lo.Offset, r.end), lo.Offset, providers.ErrDataLoss)
	}
	ends, lerr := r.s.adm.ListEndOffsets(ctx, topic)
	if lerr != nil {
		return fmt.Errorf("%w (and listing its end offset failed: %v)", err, lerr)
	}
	if lo, ok := ends.Lookup(topic, r.p); ok && lo.Err == nil && pos > lo.Offset {
		return &pastEnd{err: err, end: lo.Offset}
	}
	return err
}

// pastEnd is a fetch position beyond the partition's end.
type pastEnd struct {
	err error
	end int64
}

func (e *pastEnd) Error() string { return fmt.Sprintf("%v (the partition ends at %d)", e.err, e.end) }
func (e *pastEnd) Unwrap() error { return e.err }

// retriable says whether an error may pass by itself: a network failure, a
// leader moving, a broker restarting. Authentication, authorization and
// data loss do not.
func retriable(err error) bool {
	if errors.Is(err, providers.ErrDataLoss) {
		return false
	}
	var ke *kerr.Error
	if !errors.As(err, &ke) {
		return true
	}
	return ke.Retriable || errors.Is(err, kerr.OffsetOutOfRange) || errors.Is(err, kerr.UnknownTopicID)
}

func (r *reader) wrap(err error, pos int64) error {
	if errors.Is(err, providers.ErrDataLoss) {
		return err
	}
	if pe := (*pastEnd)(nil); errors.As(err, &pe) {
		return r.truncated(pos, pe.end)
	}
	return fmt.Errorf("kafka topic %q partition %d: read at offset %d from brokers %s: %w", r.s.cfg.Topic, r.p, pos, r.s.cfg.brokerList(), err)
}

// truncated is the data-loss error of a partition that ends at end, before
// the range being read.
func (r *reader) truncated(pos, end int64) error {
	return fmt.Errorf("kafka topic %q partition %d: offsets [%d, %d) no longer exist: the partition ends at %d (truncated, or the topic was recreated, or its broker lost its data): %w",
		r.s.cfg.Topic, r.p, max(pos, end), r.end, end, providers.ErrDataLoss)
}

// convert fills the reader's one Record from kr. Keys and values of the
// registry formats are decoded here, in the delivering half, so that a
// registry that cannot be reached fails the read, and so the batch, before
// the record reaches the sink; one that does not decode is marked Invalid.
func (r *reader) convert(kr *kgo.Record) (*providers.Record, error) {
	rec := &r.rec
	rec.Offset = kr.Offset
	rec.Key = kr.Key
	rec.Timestamp = kr.Timestamp.UnixMilli()
	rec.Invalid = nil
	cfg := &r.s.cfg
	switch {
	case r.s.raw:
		r.val = appendRawValue(r.val[:0], kr.Value)
		rec.Value = r.val
	case r.s.registry != nil && registryFormat(cfg.ValueFormat):
		var err error
		r.val, err = r.s.registry.Append(r.ctx, r.val[:0], cfg.ValueFormat, kr.Value)
		rec.Value = r.val
		if err != nil {
			rec.Value = kr.Value
			if rec.Invalid = r.invalid("value", err); rec.Invalid == nil {
				return nil, r.decodeErr(err, kr.Offset)
			}
		}
	case kr.Value == nil:
		rec.Value = jsonNull
	default:
		rec.Value = kr.Value
	}
	if r.s.registry != nil && registryFormat(cfg.KeyFormat) && kr.Key != nil {
		var err error
		r.key, err = r.s.registry.Append(r.ctx, r.key[:0], cfg.KeyFormat, kr.Key)
		rec.Key = r.key
		if err != nil {
			rec.Key = kr.Key
			if ie := r.invalid("key", err); ie == nil {
				return nil, r.decodeErr(err, kr.Offset)
			} else if rec.Invalid == nil {
				rec.Invalid = ie
			}
		}
	}
	rec.Headers = nil
	if len(kr.Headers) > 0 {
		r.hdrs = r.hdrs[:0]
		for _, h := range kr.Headers {
			r.hdrs = append(r.hdrs, providers.Header{Key: h.Key, Value: h.Value})
		}
		rec.Headers = r.hdrs
	}
	return rec, nil
}

func (r *reader) decodeErr(err error, offset int64) error {
	return fmt.Errorf("kafka topic %q partition %d: decode the record at offset %d: %w", r.s.cfg.Topic, r.p, offset, err)
}

// invalid is err as the reason a record is invalid, naming what of it
// (key or value) does not decode; nil when err is not a record's fault.
func (r *reader) invalid(what string, err error) error {
	var ie *wire.InvalidError
	if !errors.As(err, &ie) {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// appendRawValue appends {"value":"<v as a JSON string>"}, or {"value":null}
// for a null value. Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func appendRawValue(dst, v []byte) []byte {
	if v == nil {
		return append(dst, `{"value":null}`...)
	}
	dst = append(dst, `{"value":`...)
	dst = jsonstr.Append(dst, v)
	return append(dst, '}')
}
