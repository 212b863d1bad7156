// Package kafka is the Kafka source: one topic, its partitions read by direct
// assignment between offsets streamctl manages. No consumer group drives the
// reads; CommitGroup only mirrors committed offsets into one for lag
// dashboards.
package kafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
)

// Source reads one Kafka topic. It is safe for concurrent use: Reads of
// different partitions may run in parallel over the one client.
type Source struct {
	cfg       Config // with defaults
	timeout   time.Duration
	isolation kgo.IsolationLevel // for decoding fetches
	// isolationLevel is isolation on the wire: 1 read_committed, 0 not.
	isolationLevel int8
	raw            bool
	// registry decodes keys and values of the registry formats; nil
	// when neither is one.
	registry *wire.Registry

	cl  *kgo.Client
	adm *kadm.Client
	mem mem
}

var (
	_ providers.Source      = (*Source)(nil)
	_ providers.RangeReader = (*Source)(nil)
)

// New validates cfg and returns a Source. It does not connect: the first
// Snapshot or Read does, so that a down broker fails there, within timeout.
func New(cfg Config) (*Source, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("kafka source: %w", err)
	}
	cfg = cfg.withDefaults()
	timeout, _ := time.ParseDuration(cfg.Timeout) // checked by Validate

	opts := []kgo.Opt{
		kgo.SeedBrokers(cfg.Brokers...),
		kgo.ClientID("streamctl"),
		kgo.DialTimeout(timeout),
		kgo.RetryTimeout(timeout),
	}
	if cfg.TLS != nil {
		tc, err := tlsConfig(cfg.TLS)
		if err != nil {
			return nil, fmt.Errorf("kafka source: tls: %w", err)
		}
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	if s := cfg.SASL; s != nil {
		switch s.Mechanism {
		case "PLAIN":
			opts = append(opts, kgo.SASL(plain.Auth{User: s.Username, Pass: s.Password}.AsMechanism()))
		case "SCRAM-SHA-256":
			opts = append(opts, kgo.SASL(scram.Auth{User: s.Username, Pass: s.Password}.AsSha256Mechanism()))
		case "SCRAM-SHA-512":
			opts = append(opts, kgo.SASL(scram.Auth{User: s.Username, Pass: s.Password}.AsSha512Mechanism()))
		}
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("kafka source: client for brokers %s: %w", cfg.brokerList(), err)
	}
	s := &Source{
		cfg:       cfg,
		timeout:   timeout,
		isolation: kgo.ReadCommitted(),
		raw:       cfg.ValueFormat == FormatRaw,
		cl:        cl,
		adm:       kadm.NewClient(cl),
	}
	if cfg.usesRegistry() {
		rc := wire.RegistryConfig{URL: cfg.SchemaRegistry.URL, Username: cfg.SchemaRegistry.Username, Password: cfg.SchemaRegistry.Password, Timeout: timeout}
		if t := cfg.SchemaRegistry.TLS; t != nil {
			if rc.TLS, err = tlsConfig(t); err != nil {
				return nil, fmt.Errorf("kafka source: schema_registry: tls: %w", err)
			}
		}
		if s.registry, err = wire.NewRegistry(rc); err != nil {
			return nil, fmt.Errorf("kafka source: %w", err)
		}
	}
	s.mem.slabs.min, s.mem.bufs.min = 6, 12 // 64 records, 4 KiB
	if cfg.Isolation == ReadCommitted {
		s.isolationLevel = 1
	} else {
		s.isolation = kgo.ReadUncommitted()
	}
	return s, nil
}

func tlsConfig(c *TLSConfig) (*tls.Config, error) {
	// kgo sets ServerName per broker from its address.
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.InsecureSkipVerify}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s holds no PEM certificate", c.CAFile)
		}
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cert_file/key_file: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// Config is the source's configuration, with defaults filled in.
func (s *Source) Config() Config { return s.cfg }

// StartOffset is where a partition with no committed offset starts: see
// Config.StartOffset.
func (s *Source) StartOffset(p providers.PartitionSnapshot) int64 { return s.cfg.StartOffset(p) }

// Snapshot implements providers.Source. Partitions are sorted by number; their
// Latest is the last stable offset under read_committed (offsets of open
// transactions are not yet readable) and the high watermark otherwise. The
// identity is "kafka:<cluster ID>/<topic>". It fails within timeout when no
// broker answers or the topic does not exist.
func (s *Source) Snapshot(ctx context.Context) (providers.Snapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()

	// A registry that cannot be asked fails the run here, before a batch
	// is logged, as brokers that cannot be reached do.
	if s.registry != nil {
		if err := s.registry.Check(ctx); err != nil {
			return providers.Snapshot{}, fmt.Errorf("kafka topic %q: %w", s.cfg.Topic, err)
		}
	}

	// A fresh metadata request, not the client's cache: partitions added
	// since the last snapshot must appear. kgo caches what it returns, so the
	// offset listings below see the same partitions.
	md, err := s.metadata(ctx, true)
	if err != nil {
		return providers.Snapshot{}, err
	}
	starts, err := s.adm.ListStartOffsets(ctx, s.cfg.Topic)
	if err != nil {
		return providers.Snapshot{}, s.brokerErr(ctx, "list start offsets", err)
	}
	var ends kadm.ListedOffsets
	if s.cfg.Isolation == ReadCommitted {
		ends, err = s.adm.ListCommittedOffsets(ctx, s.cfg.Topic)
	} else {
		ends, err = s.adm.ListEndOffsets(ctx, s.cfg.Topic)
	}
	if err != nil {
		return providers.Snapshot{}, s.brokerErr(ctx, "list end offsets", err)
	}

	snap := providers.Snapshot{Identity: "kafka:" + md.clusterID + "/" + s.cfg.Topic}
	for _, p := range md.partitions {
		start, ok1 := starts.Lookup(s.cfg.Topic, p)
		end, ok2 := ends.Lookup(s.cfg.Topic, p)
		switch {
		case !ok1 || !ok2:
			return providers.Snapshot{}, fmt.Errorf("kafka topic %q partition %d: brokers %s listed no offsets for it", s.cfg.Topic, p, s.cfg.brokerList())
		case start.Err != nil:
			return providers.Snapshot{}, fmt.Errorf("kafka topic %q partition %d: start offset: %w", s.cfg.Topic, p, start.Err)
		case end.Err != nil:
			return providers.Snapshot{}, fmt.Errorf("kafka topic %q partition %d: end offset: %w", s.cfg.Topic, p, end.Err)
		}
		snap.Partitions = append(snap.Partitions, providers.PartitionSnapshot{
			ID:       strconv.Itoa(int(p)),
			Earliest: start.Offset,
			Latest:   end.Offset,
		})
	}
	return snap, nil
}

// CommitGroup commits offsets (partition ID → next offset to read, i.e. the
// committed end) to the consumer group commit_group, so that lag dashboards
// follow streamctl. Without commit_group it does nothing. The group must have
// no active members: it is written to, never joined.
func (s *Source) CommitGroup(ctx context.Context, offsets map[string]int64) error {
	group := s.cfg.CommitGroup
	if group == "" || len(offsets) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	offs := make(kadm.Offsets)
	for id, at := range offsets {
		p, err := parsePartition(id)
		if err != nil {
			return fmt.Errorf("kafka commit to group %q: %w", group, err)
		}
		offs.Add(kadm.Offset{Topic: s.cfg.Topic, Partition: p, At: at, LeaderEpoch: -1})
	}
	// kadm resolves the topic ID from metadata and, when that fails,
	// reports every partition as unknown: ask first, for the real cause.
	if _, err := s.metadata(ctx, false); err != nil {
		return err
	}
	if err := s.adm.CommitAllOffsets(ctx, group, offs); err != nil {
		return s.brokerErr(ctx, fmt.Sprintf("commit to consumer group %q", group), err)
	}
	return nil
}

// Close implements providers.Source.
func (s *Source) Close() error {
	s.cl.Close()
	return nil
}

// topicMeta is what Snapshot and Read need from a metadata response.
type topicMeta struct {
	clusterID  string
	topicID    [16]byte
	partitions []int32         // sorted
	leaders    map[int32]int32 // partition → leader broker ID
}

// metadata describes the topic. fresh bypasses the client's cache (at most
// MetadataMinAge old, 5 s by default).
func (s *Source) metadata(ctx context.Context, fresh bool) (topicMeta, error) {
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(s.cfg.Topic)
	req.Topics = append(req.Topics, rt)
	var resp *kmsg.MetadataResponse
	var err error
	if fresh {
		resp, err = req.RequestWith(ctx, s.cl)
	} else {
		resp, err = s.cl.RequestCachedMetadata(ctx, req, 0)
	}
	if err != nil {
		return topicMeta{}, s.brokerErr(ctx, "metadata", err)
	}
	var md topicMeta
	if resp.ClusterID != nil {
		md.clusterID = *resp.ClusterID
	} else {
		// Brokers before Kafka 0.10.1 have no cluster ID; the seed list is
		// the best identity left.
		md.clusterID = "brokers=" + s.cfg.brokerList()
	}
	for _, t := range resp.Topics {
		if t.Topic == nil || *t.Topic != s.cfg.Topic {
			continue
		}
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			if errors.Is(err, kerr.UnknownTopicOrPartition) {
				return topicMeta{}, fmt.Errorf("kafka topic %q does not exist on brokers %s: %w", s.cfg.Topic, s.cfg.brokerList(), err)
			}
			return topicMeta{}, fmt.Errorf("kafka topic %q on brokers %s: %w", s.cfg.Topic, s.cfg.brokerList(), err)
		}
		md.topicID = t.TopicID
		md.leaders = make(map[int32]int32, len(t.Partitions))
		for _, p := range t.Partitions {
			md.partitions = append(md.partitions, p.Partition)
			md.leaders[p.Partition] = p.Leader
		}
		sort.Slice(md.partitions, func(i, j int) bool { return md.partitions[i] < md.partitions[j] })
		return md, nil
	}
	return topicMeta{}, fmt.Errorf("kafka topic %q does not exist on brokers %s", s.cfg.Topic, s.cfg.brokerList())
}

// brokerErr gives a failed exchange its context. A timeout names the brokers
// and the timeout; a connection closed during SASL says that authentication
// is the likely cause, since some brokers close instead of answering it.
func (s *Source) brokerErr(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("kafka brokers %s did not answer (%s of topic %q) within timeout %s: are the brokers reachable and the address right? %w",
			s.cfg.brokerList(), what, s.cfg.Topic, s.timeout, err)
	}
	if s.cfg.SASL != nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
		return fmt.Errorf("kafka brokers %s closed the connection (%s of topic %q): with SASL this usually means authentication failed: check sasl mechanism %s, username %q and password: %w",
			s.cfg.brokerList(), what, s.cfg.Topic, s.cfg.SASL.Mechanism, s.cfg.SASL.Username, err)
	}
	return fmt.Errorf("kafka brokers %s: %s of topic %q: %w", s.cfg.brokerList(), what, s.cfg.Topic, err)
}

func parsePartition(id string) (int32, error) {
	p, err := strconv.ParseInt(id, 10, 32)
	if err != nil || p < 0 || strconv.FormatInt(p, 10) != id {
		return 0, fmt.Errorf("partition %q is not a Kafka partition number", id)
	}
	return int32(p), nil
}

// SchemaVersions fetches every version of the registry subject the topic's
// values are framed with (wire.Subject), oldest first; none when the
// values are not read through a registry or the subject has none yet.
func (s *Source) SchemaVersions(ctx context.Context) ([]wire.Version, error) {
	if s.registry == nil || !registryFormat(s.cfg.ValueFormat) {
		return nil, nil
	}
	return s.registry.Versions(ctx, s.cfg.valueSubject(), s.cfg.ValueFormat)
}
