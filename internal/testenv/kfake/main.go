// Command kfake runs franz-go's kfake, a Kafka wire-protocol broker, on
// 127.0.0.1 for integration tests. It prints "ready" on stdout once it listens
// and shuts down cleanly on SIGTERM or SIGINT.
//
// Without -data-dir the cluster lives in memory: a restart starts empty. With
// -data-dir it persists there and reloads on start; only a clean shutdown
// (SIGTERM) is guaranteed to keep the last writes.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/twmb/franz-go/pkg/kfake"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "kfake:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		port       = flag.Int("port", 9092, "TCP port on 127.0.0.1")
		partitions = flag.Int("partitions", 3, "partitions of each seeded topic")
		topics     = flag.String("topics", "", "comma-separated topics to create at start")
		clusterID  = flag.String("cluster-id", "kfake", "cluster ID reported in metadata")
		dataDir    = flag.String("data-dir", "", "persist the cluster in this directory (default: memory only)")
		saslSpec   = flag.String("sasl", "", "require SASL: MECHANISM:USER:PASSWORD (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)")
		tlsCert    = flag.String("tls-cert", "", "serve TLS with this PEM certificate (needs -tls-key)")
		tlsKey     = flag.String("tls-key", "", "PEM private key of -tls-cert")
		tlsClient  = flag.String("tls-client-ca", "", "require client certificates signed by this PEM CA")
	)
	flag.Parse()

	opts := []kfake.Opt{
		kfake.Ports(*port),
		kfake.ClusterID(*clusterID),
		kfake.AllowAutoTopicCreation(),
		kfake.DefaultNumPartitions(*partitions),
	}
	var seed []string
	for _, t := range strings.Split(*topics, ",") {
		if t = strings.TrimSpace(t); t != "" {
			seed = append(seed, t)
		}
	}
	if len(seed) > 0 {
		opts = append(opts, kfake.SeedTopics(int32(*partitions), seed...))
	}
	if *dataDir != "" {
		opts = append(opts, kfake.DataDir(*dataDir))
	}
	if *saslSpec != "" {
		mech, rest, ok1 := strings.Cut(*saslSpec, ":")
		user, pass, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || user == "" {
			return fmt.Errorf("-sasl %q: want MECHANISM:USER:PASSWORD", *saslSpec)
		}
		opts = append(opts, kfake.EnableSASL(), kfake.Superuser(mech, user, pass))
	}
	if *tlsCert != "" || *tlsKey != "" {
		cert, err := tls.LoadX509KeyPair(*tlsCert, *tlsKey)
		if err != nil {
			return fmt.Errorf("load TLS key pair: %w", err)
		}
		tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		if *tlsClient != "" {
			pem, err := os.ReadFile(*tlsClient)
			if err != nil {
				return fmt.Errorf("read client CA: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return fmt.Errorf("client CA %s holds no PEM certificate", *tlsClient)
			}
			tc.ClientCAs = pool
			tc.ClientAuth = tls.RequireAndVerifyClientCert
		}
		opts = append(opts, kfake.TLS(tc))
	}

	// Subscribe before listening so that a signal sent right after "ready" is
	// never lost.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)

	c, err := kfake.NewCluster(opts...)
	if err != nil {
		return fmt.Errorf("start cluster on 127.0.0.1:%d: %w", *port, err)
	}
	// NewCluster returns with its listeners bound: connections are accepted
	// (and queued) from here on.
	fmt.Println("ready")

	<-sigs
	c.Close()
	return nil
}
