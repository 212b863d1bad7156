package testenv

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// KafkaPartitions is the partition count of the topics Kafka seeds, and of
// topics the broker creates on first use.
const KafkaPartitions = 3

// KafkaOptions configures StartKafka.
type KafkaOptions struct {
	Topics     []string // created at start
	Partitions int      // per seeded or auto-created topic; 0 means KafkaPartitions

	// DataDir persists the cluster there, so that Restart keeps the data.
	// Empty keeps it in memory only: Restart then starts an empty cluster.
	DataDir string

	// SASL, when set, makes the broker refuse unauthenticated clients.
	SASL *KafkaSASL

	// TLS makes the broker serve TLS only, with a certificate for 127.0.0.1
	// from a CA generated for the test, and require client certificates
	// signed by that CA. The files are in KafkaBroker.TLS.
	TLS bool
}

// KafkaSASL is the one user a SASL-enabled broker accepts.
type KafkaSASL struct {
	Mechanism string // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
	User      string
	Password  string
}

// KafkaTLSFiles are the PEM files of a TLS broker.
type KafkaTLSFiles struct {
	CAFile   string // the CA that signed the broker's and the client's certificates
	CertFile string // a client certificate the broker accepts
	KeyFile  string // its key
}

// KafkaBroker is a kfake broker (franz-go's Kafka wire-protocol broker) run as a
// separate process on 127.0.0.1, so that tests talk to it over the network as
// they would to Kafka.
type KafkaBroker struct {
	Addr      string // "127.0.0.1:PORT"
	ClusterID string // unique per broker, kept across Restart
	TLS       *KafkaTLSFiles

	opts  KafkaOptions
	bin   string
	port  int
	certs []string // -tls-* flags

	mu     sync.Mutex
	proc   *Process
	stderr *lockedBuffer
}

// Kafka starts a broker with topics, each of KafkaPartitions partitions, and
// stops it when the test ends. The data lives in memory: Restart loses it.
func Kafka(t testing.TB, topics ...string) *KafkaBroker {
	t.Helper()
	return StartKafka(t, KafkaOptions{Topics: topics})
}

// StartKafka starts a broker configured by opts and stops it when the test ends.
func StartKafka(t testing.TB, opts KafkaOptions) *KafkaBroker {
	t.Helper()
	if opts.Partitions <= 0 {
		opts.Partitions = KafkaPartitions
	}
	b := &KafkaBroker{
		opts:      opts,
		bin:       kfakeBinary(t),
		ClusterID: "kfake-" + randomHex(6),
	}
	if opts.TLS {
		b.TLS, b.certs = writeTestCerts(t)
	}
	StartOnFreePort(t, func(port int) error {
		b.port = port
		b.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(b.port))
		if err := b.start(); err != nil {
			return fmt.Errorf("start kfake: %w", err)
		}
		return nil
	})
	t.Cleanup(b.Stop)
	return b
}

func (b *KafkaBroker) start() error {
	args := []string{
		"-port", strconv.Itoa(b.port),
		"-partitions", strconv.Itoa(b.opts.Partitions),
		"-topics", strings.Join(b.opts.Topics, ","),
		"-cluster-id", b.ClusterID,
	}
	if b.opts.DataDir != "" {
		args = append(args, "-data-dir", b.opts.DataDir)
	}
	if s := b.opts.SASL; s != nil {
		args = append(args, "-sasl", s.Mechanism+":"+s.User+":"+s.Password)
	}
	args = append(args, b.certs...)

	cmd := exec.Command(b.bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr := new(lockedBuffer)
	cmd.Stderr = stderr
	// Not Start: its Wait would race with reading stdout (exec closes the
	// pipe in Wait), and a failed start here is retried on another port.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", b.bin, err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}

	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.TrimSpace(sc.Text()) == "ready" {
				close(ready)
				signalled = true
			}
		}
		// Wait only after stdout is drained: exec closes the pipe in Wait.
		cmd.Wait()
		close(p.done)
	}()

	select {
	case <-ready:
	case <-p.done:
		return fmt.Errorf("kfake on %s exited before it was ready: %s", b.Addr, strings.TrimSpace(stderr.String()))
	case <-time.After(15 * time.Second):
		p.Stop()
		return fmt.Errorf("kfake on %s not ready after 15s: %s", b.Addr, strings.TrimSpace(stderr.String()))
	}
	if err := WaitPort(b.Addr, 5*time.Second); err != nil {
		p.Stop()
		return err
	}
	b.mu.Lock()
	b.proc, b.stderr = p, stderr
	b.mu.Unlock()
	return nil
}

// Stop shuts the broker down: SIGTERM first, so that a persistent broker saves
// its data, then SIGKILL if it has not exited within 10 s. It is idempotent.
func (b *KafkaBroker) Stop() {
	b.mu.Lock()
	p := b.proc
	b.proc = nil
	b.mu.Unlock()
	if p == nil {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.Stop()
	}
}

// Kill stops the broker with SIGKILL, as a crash would: a persistent broker
// may lose its last writes.
func (b *KafkaBroker) Kill() {
	b.mu.Lock()
	p := b.proc
	b.proc = nil
	b.mu.Unlock()
	if p != nil {
		p.Stop()
	}
}

// Restart stops the broker if it runs and starts it again on the same port
// with the same cluster ID. Without KafkaOptions.DataDir the cluster is kept
// in memory only, so the restarted broker is empty (its seeded topics exist
// again, with no records): to clients it is a broker that lost its data.
func (b *KafkaBroker) Restart(t testing.TB) {
	t.Helper()
	b.Stop()
	// The port was just released; retry briefly in case the kernel has not
	// made it available yet.
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		if err = b.start(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("restart kfake on %s: %v", b.Addr, err)
}

// ClientOpts are the franz-go options that reach this broker: seed, SASL, TLS.
func (b *KafkaBroker) ClientOpts(t testing.TB) []kgo.Opt {
	t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(b.Addr)}
	if s := b.opts.SASL; s != nil {
		switch s.Mechanism {
		case "PLAIN":
			opts = append(opts, kgo.SASL(plain.Auth{User: s.User, Pass: s.Password}.AsMechanism()))
		case "SCRAM-SHA-256":
			opts = append(opts, kgo.SASL(scram.Auth{User: s.User, Pass: s.Password}.AsSha256Mechanism()))
		case "SCRAM-SHA-512":
			opts = append(opts, kgo.SASL(scram.Auth{User: s.User, Pass: s.Password}.AsSha512Mechanism()))
		default:
			t.Fatalf("kfake: unknown SASL mechanism %q", s.Mechanism)
		}
	}
	if b.TLS != nil {
		cert, err := tls.LoadX509KeyPair(b.TLS.CertFile, b.TLS.KeyFile)
		if err != nil {
			t.Fatalf("load client certificate: %v", err)
		}
		caPEM, err := os.ReadFile(b.TLS.CAFile)
		if err != nil {
			t.Fatalf("read CA: %v", err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(caPEM)
		opts = append(opts, kgo.DialTLSConfig(&tls.Config{
			RootCAs:      pool,
			Certificates: []tls.Certificate{cert},
			MinVersion:   tls.VersionTLS12,
		}))
	}
	return opts
}

// Client returns a franz-go client of this broker with opts added, closed when
// the test ends.
func (b *KafkaBroker) Client(t testing.TB, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append(b.ClientOpts(t), opts...)...)
	if err != nil {
		t.Fatalf("kafka client for %s: %v", b.Addr, err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// Admin returns an admin client of this broker, closed when the test ends.
func (b *KafkaBroker) Admin(t testing.TB) *kadm.Client {
	t.Helper()
	return kadm.NewClient(b.Client(t))
}

// CreateTopic creates topic with partitions partitions.
func (b *KafkaBroker) CreateTopic(t testing.TB, topic string, partitions int32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := b.Admin(t).CreateTopic(ctx, partitions, 1, nil, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("create topic %q on %s: %v", topic, b.Addr, err)
	}
}

// Produce writes records to topic (records with an empty Topic) and waits until
// every one is acknowledged. A record's Partition is honoured: the client uses
// the manual partitioner, so set it (0 by default).
func (b *KafkaBroker) Produce(t testing.TB, topic string, records ...*kgo.Record) {
	t.Helper()
	cl, err := kgo.NewClient(append(b.ClientOpts(t),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(0),
	)...)
	if err != nil {
		t.Fatalf("kafka client for %s: %v", b.Addr, err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := cl.ProduceSync(ctx, records...).FirstErr(); err != nil {
		t.Fatalf("produce %d records to %q on %s: %v", len(records), topic, b.Addr, err)
	}
}

// Logs returns what the broker process wrote on stderr since it last started.
func (b *KafkaBroker) Logs() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stderr == nil {
		return ""
	}
	return b.stderr.String()
}

var kfakeBuild struct {
	once sync.Once
	path string
	err  error
}

// kfakeBinary builds internal/testenv/kfake once per test binary into
// ToolsDir()/bin, named by a hash of its inputs: runs of the suite share the
// build, packages testing in parallel never overwrite each other's binary,
// and an edit of the program or of go.sum gives a new one.
func kfakeBinary(t testing.TB) string {
	t.Helper()
	kfakeBuild.once.Do(func() {
		kfakeBuild.path, kfakeBuild.err = buildKfake()
	})
	if kfakeBuild.err != nil {
		t.Fatalf("build the kfake broker: %v", kfakeBuild.err)
	}
	return kfakeBuild.path
}

func buildKfake() (string, error) {
	root := RepoRoot()
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, f := range []string{"internal/testenv/kfake/main.go", "go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	dir := filepath.Join(ToolsDir(), "bin")
	bin := filepath.Join(dir, "kfake-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	tmp := fmt.Sprintf("%s.tmp-%d", bin, os.Getpid())
	cmd := exec.Command(goTool, "build", "-o", tmp, "./internal/testenv/kfake")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build ./internal/testenv/kfake: %w\n%s", err, out)
	}
	// Rename is atomic: a concurrent build of the same inputs yields the
	// same program, whichever wins.
	if err := os.Rename(tmp, bin); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return bin, nil
}

// writeTestCerts writes a CA, a server certificate for 127.0.0.1 and a client
// certificate, and returns their files and the broker's -tls-* flags.
func writeTestCerts(t testing.TB) (*KafkaTLSFiles, []string) {
	t.Helper()
	dir := t.TempDir()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "streamctl test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leaf := func(serial int64, name string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(serial),
			Subject:      pkix.Name{CommonName: name},
			NotBefore:    now.Add(-time.Hour),
			NotAfter:     now.Add(24 * time.Hour),
			KeyUsage:     x509.KeyUsageDigitalSignature,
			ExtKeyUsage:  []x509.ExtKeyUsage{usage},
			IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
			DNSNames:     []string{"localhost"},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		keyDER, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			t.Fatal(err)
		}
		certFile = filepath.Join(dir, name+".pem")
		keyFile = filepath.Join(dir, name+"-key.pem")
		writePEM(t, certFile, "CERTIFICATE", der)
		writePEM(t, keyFile, "PRIVATE KEY", keyDER)
		return certFile, keyFile
	}
	caFile := filepath.Join(dir, "ca.pem")
	writePEM(t, caFile, "CERTIFICATE", caDER)
	serverCert, serverKey := leaf(2, "server", x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := leaf(3, "client", x509.ExtKeyUsageClientAuth)
	files := &KafkaTLSFiles{CAFile: caFile, CertFile: clientCert, KeyFile: clientKey}
	return files, []string{"-tls-cert", serverCert, "-tls-key", serverKey, "-tls-client-ca", caFile}
}

func writePEM(t testing.TB, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// lockedBuffer collects a process's output while tests read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
