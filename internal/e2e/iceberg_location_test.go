package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/twmb/avro/ocf"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// TestIcebergTableByLocation: after an apply killed right after a table
// commit and the apply that finishes it, the table is found by its folder
// alone, as engines that read Hadoop tables find it: version-hint.text
// names vN.metadata.json in <location>/metadata, which is the metadata the
// catalog holds, and the data files its current snapshot's manifests list
// hold every record once (read by DuckDB). Followed by hand, without
// iceberg-go, and by icebird.
func TestIcebergTableByLocation(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-table-commit:3"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	location := "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table"))
	found := checkTableByLocation(t, dir, location, catalogDB(t, dir), 6000, func(fileURL string) ([]byte, error) {
		return os.ReadFile(strings.TrimPrefix(fileURL, "file://"))
	})
	if found.snapshots != 4 {
		t.Errorf("v%d.metadata.json holds %d snapshots, want one per batch: 4", found.version, found.snapshots)
	}

	// icebird, given the folder alone, fails at its own inflate of the
	// manifests' deflate blocks (TestIcebirdAvroDeflate); with Node's zlib
	// inflating them, it finds the table and reads every record once.
	if got := icebird(t, "table", location); got["error"] != icebirdRangeError {
		t.Errorf("icebird by location: %v, want the known %q", got, icebirdRangeError)
	}
	if got := fmt.Sprint(icebird(t, "table", location, "zlib")); got != "map[distinct:6000 rows:6000]" {
		t.Errorf("icebird by location, Avro inflated by zlib: %s, want 6000 records, each once", got)
	}
}

// tableByLocation is what a reader that finds a table by its folder alone
// sees of it.
type tableByLocation struct {
	version   int    // the number in metadata/version-hint.text
	metadata  []byte // metadata/v<version>.metadata.json
	snapshots int    // the snapshots that metadata holds
	dataFiles []string
}

// walkTableByLocation follows the table at location by hand, as engines
// that read Hadoop tables by location do, without iceberg-go:
// version-hint.text, then vN.metadata.json, then its current snapshot's
// manifest list, its data manifests, and their live entries' data files.
// read returns the bytes of the object at a URL below location, through
// the store's own API.
func walkTableByLocation(t *testing.T, location string, read func(url string) ([]byte, error)) tableByLocation {
	t.Helper()
	metadataDir := strings.TrimRight(location, "/") + "/metadata/"
	hint, err := read(metadataDir + "version-hint.text")
	if err != nil {
		t.Fatalf("read the table's version hint: %v", err)
	}
	version, err := strconv.Atoi(string(hint))
	if err != nil {
		t.Fatalf("version-hint.text holds %q, not a version number", hint)
	}
	found := tableByLocation{version: version}
	if found.metadata, err = read(fmt.Sprintf("%sv%d.metadata.json", metadataDir, version)); err != nil {
		t.Fatalf("the hint names version %d: %v", version, err)
	}
	var meta struct {
		Current   int64 `json:"current-snapshot-id"`
		Snapshots []struct {
			ID           int64  `json:"snapshot-id"`
			ManifestList string `json:"manifest-list"`
		} `json:"snapshots"`
	}
	if err := json.Unmarshal(found.metadata, &meta); err != nil {
		t.Fatalf("v%d.metadata.json: %v", version, err)
	}
	found.snapshots = len(meta.Snapshots)
	list := ""
	for _, s := range meta.Snapshots {
		if s.ID == meta.Current {
			list = s.ManifestList
		}
	}
	if list == "" {
		t.Fatalf("v%d.metadata.json: the current snapshot %d is not among its %d or has no manifest list", version, meta.Current, len(meta.Snapshots))
	}
	for _, m := range avroRecords(t, list, read) {
		if fmt.Sprint(m["content"]) != "0" { // delete manifests: streamctl writes none
			continue
		}
		for _, e := range avroRecords(t, m["manifest_path"].(string), read) {
			if fmt.Sprint(e["status"]) != "2" { // 2: deleted
				found.dataFiles = append(found.dataFiles, e["data_file"].(map[string]any)["file_path"].(string))
			}
		}
	}
	return found
}

// checkTableByLocation walks the table at location (walkTableByLocation)
// and checks that the hint leads to the metadata the catalog (a SQL
// catalog's database) holds as current, and that DuckDB, reading the data
// files it lists (downloaded through read), finds want records, each once.
func checkTableByLocation(t *testing.T, dir, location string, catalog *sql.DB, want int, read func(url string) ([]byte, error)) tableByLocation {
	t.Helper()
	found := walkTableByLocation(t, location, read)
	var current string
	if err := catalog.QueryRow(`SELECT metadata_location FROM iceberg_tables WHERE table_name = 'orders'`).Scan(&current); err != nil {
		t.Fatalf("the catalog's metadata location: %v", err)
	}
	if !strings.HasPrefix(current, strings.TrimRight(location, "/")+"/metadata/") || !strings.HasPrefix(path.Base(current), fmt.Sprintf("%05d-", found.version)) {
		t.Errorf("the catalog's metadata is %s, the hint names version %d", current, found.version)
	}
	if catalogs, err := read(current); err != nil || !bytes.Equal(catalogs, found.metadata) {
		t.Errorf("v%d.metadata.json is not a copy of the catalog's %s (%v)", found.version, current, err)
	}

	copies := filepath.Join(dir, "by-location")
	if err := os.MkdirAll(copies, 0o755); err != nil {
		t.Fatal(err)
	}
	var quoted []string
	for i, f := range found.dataFiles {
		data, err := read(f)
		if err != nil {
			t.Fatalf("read data file %s: %v", f, err)
		}
		local := filepath.Join(copies, strconv.Itoa(i)+".parquet")
		if err := os.WriteFile(local, data, 0o644); err != nil {
			t.Fatal(err)
		}
		quoted = append(quoted, "'"+filepath.ToSlash(local)+"'")
	}
	if len(quoted) == 0 {
		t.Fatalf("the current snapshot of v%d.metadata.json lists no data file", found.version)
	}
	if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet(["+strings.Join(quoted, ", ")+"])")); got != fmt.Sprintf("[[%d %d]]", want, want) {
		t.Errorf("the %d data files the hint leads to: %s, want %d records, each once", len(quoted), got, want)
	}
	return found
}

// avroRecords reads the records of an Avro file (a manifest list or a
// manifest) at fileURL through read.
func avroRecords(t *testing.T, fileURL string, read func(url string) ([]byte, error)) []map[string]any {
	t.Helper()
	data, err := read(fileURL)
	if err != nil {
		t.Fatalf("read %s: %v", fileURL, err)
	}
	r, err := ocf.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", fileURL, err)
	}
	var out []map[string]any
	for {
		var rec map[string]any
		if err := r.Decode(&rec); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", fileURL, err)
		}
		out = append(out, rec)
	}
}

// s3Reader reads s3://bucket/key URLs with the AWS SDK's S3 client.
func s3Reader(srv *testenv.S3Server) func(string) ([]byte, error) {
	client := srv.Client()
	return func(s3URL string) ([]byte, error) {
		bucket, key, ok := strings.Cut(strings.TrimPrefix(s3URL, "s3://"), "/")
		if !ok || !strings.HasPrefix(s3URL, "s3://") {
			return nil, fmt.Errorf("%s is no s3:// URL", s3URL)
		}
		out, err := client.GetObject(context.Background(), &awss3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
		if err != nil {
			return nil, fmt.Errorf("get %s: %w", s3URL, err)
		}
		defer out.Body.Close()
		return io.ReadAll(out.Body)
	}
}

// gcsReader reads gs://bucket/name URLs with the JSON API's media download,
// over plain HTTP.
func gcsReader(srv *testenv.GCSServer) func(string) ([]byte, error) {
	return func(gsURL string) ([]byte, error) {
		bucket, name, ok := strings.Cut(strings.TrimPrefix(gsURL, "gs://"), "/")
		if !ok || !strings.HasPrefix(gsURL, "gs://") {
			return nil, fmt.Errorf("%s is no gs:// URL", gsURL)
		}
		resp, err := http.Get(strings.TrimRight(srv.Endpoint, "/") + "/storage/v1/b/" + url.PathEscape(bucket) + "/o/" + url.PathEscape(name) + "?alt=media")
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("get %s: %s: %s", gsURL, resp.Status, data)
		}
		return data, nil
	}
}

// TestIcebergOnObjectStoresByLocationAfterKills: the table of a sink of 4
// shards, on S3 (versitygw) and on Google Cloud Storage (fake-gcs-server),
// its applies killed at random Iceberg fault points while the stream grows,
// then applied to the end. Read through the store's own API, by its
// location alone (version-hint.text, the metadata, manifest list and
// manifests, by hand), the table is the catalog's current one and its data
// files hold every record once (DuckDB); iceberg-go's scan through the
// catalog agrees; every committed shard-batch is one snapshot.
func TestIcebergOnObjectStoresByLocationAfterKills(t *testing.T) {
	t.Parallel()
	t.Run("s3", func(t *testing.T) {
		t.Parallel()
		srv := testenv.S3(t)
		srv.CreateBucket(t, "lake")
		dest := s3TableDestination(srv, "table", "lake", "lake/orders", remoteTableBlock)
		tableByLocationAfterKills(t, dest, srv.Env(), s3Storage(t, srv, "lake", "lake/orders"), "s3://lake/lake/orders",
			s3TableProps(srv),
			s3Reader(srv), 20261204)
	})
	t.Run("gcs", func(t *testing.T) {
		t.Parallel()
		srv := testenv.GCS(t)
		srv.CreateBucket(t, "lake")
		location, props := gcsTableProps(t, srv, "lake")
		tableByLocationAfterKills(t, gcsTableDestination(srv, "lake"), srv.Env(), gcsStorage(t, srv, "lake", "lake/orders"), location, props,
			gcsReader(srv), 20261205)
	})
}

// byLocationShards are the shards of tableByLocationAfterKills' sink.
const byLocationShards = 4

// tableByLocationAfterKills runs shardedIcebergConfig in byLocationShards
// shards with dest (a destination "table" on an object store, with a table
// block whose catalog is catalog.db) in place of its local table: killed at
// random Iceberg fault points (seeded) while the stream grows, then applied
// to the end, the table at location holds every record once, read by
// location through read and through the catalog with iceberg-go.
func tableByLocationAfterKills(t *testing.T, dest string, env []string, store providers.Storage, location string, props map[string]string, read func(string) ([]byte, error), seed uint64) {
	t.Helper()
	hcl := strings.Replace(shardedIcebergConfig(), fmt.Sprintf("shards = %d", tableShards), fmt.Sprintf("shards = %d", byLocationShards), 1)
	dir := writeConfig(t, withTableDestination(hcl, dest))
	apply := []string{"apply", "-auto-approve", "-no-color", "-parallelism=" + strconv.Itoa(byLocationShards)}

	const kills = 4
	rng := rand.New(rand.NewPCG(seed, 1))
	records := int64(tableShardRecords)
	var faults []string
	for attempt := 0; len(faults) < kills; attempt++ {
		if attempt > 3*kills {
			t.Fatalf("only %d of %d faults were reached in %d applies: %v", len(faults), kills, attempt, faults)
		}
		// Each apply has more to read, as a live stream does, so that a fault
		// late in one apply's batches is reached.
		records += 100
		fp := icebergFaultPoints[rng.IntN(len(icebergFaultPoints))]
		r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, env...), append(apply, fmt.Sprintf("-var=records=%d", records))...)
		switch {
		case r.killed:
			faults = append(faults, fp)
		case r.code != 0:
			t.Fatalf("apply after %d kills (%v), its fault %s not reached, failed: %s", len(faults), faults, fp, r)
		}
	}
	vars := fmt.Sprintf("-var=records=%d", records)
	mustRun(t, dir, 0, env, append(apply, vars)...)
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color", vars)
	t.Logf("killed at %v; %d records per partition", faults, records)

	want := expectedIDs(tableShardPartitions, records)
	found := checkTableByLocation(t, dir, location, sqliteCatalog(t, filepath.Join(dir, "catalog.db")), len(want), read)

	ctx := context.Background()
	tb := openIcebergOrders(t, iceberg.Config{URI: filepath.Join(dir, "catalog.db"), Location: location, Properties: props})
	defer tb.Close()
	checkScan(t, dir, tb, store, location, want)

	batches := 0
	for s := range byLocationShards {
		ms, err := engine.ReadManifests(ctx, store, fmt.Sprintf("orders/shard-%d", s), 0)
		if err != nil {
			t.Fatal(err)
		}
		batches += len(ms)
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != batches || found.snapshots != batches {
		t.Errorf("%d snapshots through the catalog, %d by location, for %d committed shard-batches", n, found.snapshots, batches)
	}
}
