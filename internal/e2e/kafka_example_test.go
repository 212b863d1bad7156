package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
)

// exampleOrder is a record of the example's topic, as produced and as read back.
type exampleOrder struct {
	ID      int64   `json:"id"`
	Country string  `json:"country"`
	Amount  float64 `json:"amount"`
}

var exampleCountries = []string{"DE", "FR", "US", "JP"}

func exampleOrderRecord(id int64) *kgo.Record {
	o := exampleOrder{ID: id, Country: exampleCountries[id%int64(len(exampleCountries))], Amount: float64(id%1000) + 0.25}
	v, _ := json.Marshal(o)
	return &kgo.Record{Key: fmt.Appendf(nil, "order-%d", id), Value: v, Partition: int32(id % 3)}
}

// TestKafkaExampleToLake runs examples/kafka-to-lake as a user would, with
// only variables and environment pointing it at local servers: kfake for
// Kafka, versitygw for S3, Azurite for Azure Blob Storage. Orders produced
// with franz-go and kcat, in two rounds, land exactly once in the S3 lake as
// Parquet (read back by DuckDB, each order in its country's folder, with its
// values) and exactly once in the Azure archive as JSONL (each value as
// producedIDs).
func TestKafkaExampleToLake(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t, "orders")
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	az := testenv.Azurite(t)
	az.CreateContainer(t, "archive")

	// A copy of the example, so that its state and nothing else is written
	// outside the repository.
	dir := copyExample(t, "kafka-to-lake")
	env := append(srv.Env(),
		fmt.Sprintf(`STREAMCTL_VAR_brokers=["%s"]`, broker.Addr),
		"STREAMCTL_VAR_s3_endpoint="+srv.Endpoint,
		"AZURE_STORAGE_CONNECTION_STRING="+az.ConnectionString,
		// As the README says: the connection string names the account.
		"STREAMCTL_VAR_azure_account_url=",
	)

	want := map[int64]exampleOrder{}
	produceOrders := func(first, n int64) {
		recs := make([]*kgo.Record, 0, n)
		for id := first; id < first+n; id++ {
			recs = append(recs, exampleOrderRecord(id))
			var o exampleOrder
			json.Unmarshal(recs[len(recs)-1].Value, &o)
			want[id] = o
		}
		broker.Produce(t, "orders", recs...)
	}
	kcatOrders := func(first, n int64) {
		lines := make([]string, 0, n)
		for id := first; id < first+n; id++ {
			r := exampleOrderRecord(id)
			lines = append(lines, string(r.Key)+":"+string(r.Value))
			var o exampleOrder
			json.Unmarshal(r.Value, &o)
			want[id] = o
		}
		kcatProduce(t, broker, "orders", lines)
	}

	produceOrders(1, 2000)
	kcatOrders(100_001, 200)
	mustRun(t, dir, 2, env, "plan", "-detailed-exitcode", "-no-color")
	applyAndSettle(t, dir, env)
	// The stream goes on: a second apply delivers only what is new.
	produceOrders(2001, 1000)
	kcatOrders(100_201, 100)
	ap := applyAndSettle(t, dir, env)
	if !strings.Contains(ap.stdout, "1,100 records") {
		t.Errorf("the second apply should deliver the 1,100 new records per sink:\n%s", ap.stdout)
	}

	ids := map[int64]bool{}
	for id := range want {
		ids[id] = true
	}

	// The archive: JSONL, each record's value exactly as produced.
	archive, err := azblob.New(context.Background(), azblob.Config{
		Container:        "archive",
		Prefix:           "orders",
		ConnectionString: az.ConnectionString,
	})
	if err != nil {
		t.Fatal(err)
	}
	assertExactlyOnce(t, archive, ids)
	checkExampleOrders(t, archive, want)

	// The lake: every data file read back by an independent Parquet reader.
	lake := s3Storage(t, srv, "lake", "orders")
	var parquet, other []string
	err = lake.List(context.Background(), "", func(info providers.ObjectInfo) error {
		switch {
		case strings.HasPrefix(info.Key, "_streamctl/"):
		case strings.HasSuffix(info.Key, ".parquet"):
			parquet = append(parquet, info.Key)
		default:
			other = append(other, info.Key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(other) > 0 {
		t.Errorf("the lake holds files that are not Parquet: %v", other)
	}
	checkExampleLake(t, lake, parquet, want)
}

// checkExampleOrders checks, in a JSONL destination, that every record in a
// country=XX folder has that country.
func checkExampleOrders(t *testing.T, s providers.Storage, want map[int64]exampleOrder) {
	t.Helper()
	ctx := context.Background()
	err := s.List(ctx, "", func(info providers.ObjectInfo) error {
		if strings.HasPrefix(info.Key, "_streamctl/") {
			return nil
		}
		r, _, err := s.Get(ctx, info.Key)
		if err != nil {
			return err
		}
		defer r.Close()
		folder := hiveFolderValue(info.Key, "country")
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var o exampleOrder
			if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
				return fmt.Errorf("%s: %v", info.Key, err)
			}
			if w, ok := want[o.ID]; ok && (o != w) {
				t.Errorf("%s: order %d is %+v, produced as %+v", info.Key, o.ID, o, w)
			}
			if folder != "" && folder != o.Country {
				t.Errorf("%s: order %d of country %q is in folder country=%s", info.Key, o.ID, o.Country, folder)
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("read %s: %v", s.Describe(), err)
	}
}

// hiveFolderValue is the value of the key=value folder named name in key, or "".
func hiveFolderValue(key, name string) string {
	for _, seg := range strings.Split(path.Dir(key), "/") {
		if v, ok := strings.CutPrefix(seg, name+"="); ok {
			return v
		}
	}
	return ""
}

// checkExampleLake downloads the lake's Parquet files and reads them with
// DuckDB: every order exactly once, with its values, in its country's folder.
func checkExampleLake(t *testing.T, lake providers.Storage, keys []string, want map[int64]exampleOrder) {
	t.Helper()
	local := t.TempDir()
	ctx := context.Background()
	for _, k := range keys {
		r, _, err := lake.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(local, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.Copy(f, r)
		r.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// hive_partitioning = false and every column: a partition column is in
	// the file or, as Spark writes it, only in the folder name; the folder is
	// read from the file name.
	rows := duckdbJSONRows(t, fmt.Sprintf(
		`SELECT * FROM read_parquet('%s/**/*.parquet', hive_partitioning = false, filename = true, union_by_name = true)`,
		local))
	seen := map[int64]int{}
	for _, row := range rows {
		var got struct {
			ID       int64       `json:"-"`
			RawID    json.Number `json:"id"` // DuckDB gives BIGINT as a string
			Country  *string     `json:"country"`
			Amount   *float64    `json:"amount"`
			Filename string      `json:"filename"`
			// The Kafka offset, from the record's metadata (_offset).
			Offset *json.Number `json:"kafka_offset"`
		}
		if err := json.Unmarshal(row, &got); err != nil {
			t.Fatalf("duckdb row %s: %v", row, err)
		}
		id, err := got.RawID.Int64()
		if err != nil {
			t.Fatalf("duckdb row %s: id: %v", row, err)
		}
		got.ID = id
		seen[got.ID]++
		if got.Offset == nil {
			t.Errorf("order %d has no kafka_offset", got.ID)
		}
		w, ok := want[got.ID]
		if !ok {
			t.Errorf("the lake holds order %d, which was never produced", got.ID)
			continue
		}
		folder := hiveFolderValue(filepath.ToSlash(strings.TrimPrefix(got.Filename, local+"/")), "country")
		country := folder
		if got.Country != nil {
			country = *got.Country
			if folder != "" && folder != country {
				t.Errorf("order %d of country %q is in folder country=%s", got.ID, country, folder)
			}
		}
		if country != w.Country && !(w.Country == "" && (country == "" || country == "__HIVE_DEFAULT_PARTITION__" || country == "null")) {
			t.Errorf("order %d: country %q, produced %q", got.ID, country, w.Country)
		}
		if w.Country != "" && (got.Amount == nil || *got.Amount != w.Amount) {
			t.Errorf("order %d: amount %v, produced %v", got.ID, got.Amount, w.Amount)
		}
	}
	var missing, dup int
	for id := range want {
		switch seen[id] {
		case 0:
			missing++
		case 1:
		default:
			dup++
		}
	}
	if missing+dup > 0 {
		t.Errorf("the Parquet lake: %d orders missing, %d duplicated (of %d)", missing, dup, len(want))
	}
	t.Logf("DuckDB read %d orders from %d Parquet files", len(rows), len(keys))
}

// duckdbJSONRows runs one query with DuckDB (npm @duckdb/node-api, installed by
// make tools) and returns its rows as JSON objects.
func duckdbJSONRows(t *testing.T, sql string) []json.RawMessage {
	t.Helper()
	modules := filepath.Join(testenv.ToolsDir(), "node", "node_modules")
	testenv.Require(t, filepath.Join(modules, "@duckdb", "node-api"), "@duckdb/node-api (the independent Parquet reader)")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: DuckDB runs on it")
	}
	// CommonJS, so that NODE_PATH finds the module; no network for
	// extensions.
	const script = `
const { DuckDBInstance } = require('@duckdb/node-api');
(async () => {
  const db = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', threads: '2' });
  const conn = await db.connect();
  const reader = await conn.runAndReadAll(process.argv[1]);
  for (const row of reader.getRowObjectsJson()) process.stdout.write(JSON.stringify(row) + '\n');
})().catch((e) => { console.error(e); process.exit(1); });
`
	cmd := exec.Command(node, "-e", script, sql)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var rows []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		rows = append(rows, json.RawMessage(append([]byte(nil), sc.Bytes()...)))
	}
	return rows
}
