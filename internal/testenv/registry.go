package testenv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/sr/srfake"
)

// SchemaRegistry serves the Confluent Schema Registry REST API on 127.0.0.1,
// in memory, with franz-go's srfake: no schema registry server installs
// here (none is served as a Go module, npm package or Debian package), and
// srfake is a registry written by the authors of the client streamctl uses.
// Records are registered and framed through it by the registry's JavaScript
// client (ProduceWithRegistry), so its API is checked by that client too.
type SchemaRegistry struct {
	URL string

	reg         *srfake.Registry
	down        atomic.Bool
	schemasDown atomic.Bool
	schemaGET   atomic.Int64
}

// StartSchemaRegistry starts a registry that stops when the test ends.
func StartSchemaRegistry(t testing.TB) *SchemaRegistry {
	t.Helper()
	r := &SchemaRegistry{reg: srfake.New()}
	r.URL = r.reg.URL()
	r.reg.Intercept(func(w http.ResponseWriter, req *http.Request) bool {
		if r.down.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"error_code":50003,"message":"the registry's backing store is unavailable"}`))
			return true
		}
		if req.Method == http.MethodGet && strings.HasPrefix(req.URL.Path, "/schemas/ids/") {
			if r.schemasDown.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				w.Write([]byte(`{"error_code":50001,"message":"error while reading the schema"}`))
				return true
			}
			r.schemaGET.Add(1)
		}
		return false
	})
	t.Cleanup(r.reg.Close)
	return r
}

// SetDown makes every request answer 503 (down) or be served again.
func (r *SchemaRegistry) SetDown(down bool) { r.down.Store(down) }

// SetSchemasDown makes the requests for schemas by id alone answer 500 (a
// registry failing after a run found it up), or be served again.
func (r *SchemaRegistry) SetSchemasDown(down bool) { r.schemasDown.Store(down) }

// SchemaFetches counts the GET /schemas/ids/{id} requests served.
func (r *SchemaRegistry) SchemaFetches() int64 { return r.schemaGET.Load() }

// RegistrySchema is a schema to register: Type is AVRO, PROTOBUF or JSON.
type RegistrySchema struct {
	Subject    string              `json:"subject"`
	Type       string              `json:"type"`
	Schema     string              `json:"schema"`
	References []RegistryReference `json:"references,omitempty"`
}

// RegistryReference names a schema registered under another subject.
type RegistryReference struct {
	Name    string `json:"name"`
	Subject string `json:"subject"`
	Version int    `json:"version"`
}

// RegistryRecord is a record to produce: Value (JSON-encodable, bytes as
// {"$bytes": base64}) serialized with schemas[Schema].
type RegistryRecord struct {
	Schema    int     `json:"schema"`
	Value     any     `json:"value"`
	Key       *string `json:"key,omitempty"`
	Partition int32   `json:"partition"`
}

// Bytes is how a RegistryRecord's value holds bytes.
func Bytes(b []byte) map[string]string {
	return map[string]string{"$bytes": base64.StdEncoding.EncodeToString(b)}
}

// ProduceWithRegistry registers schemas in reg, in order, then produces
// records to topic on broker, framed by the registry client's serializers,
// with kafkajs. It returns the registry's id of each schema.
func ProduceWithRegistry(t testing.TB, broker *KafkaBroker, reg *SchemaRegistry, topic string, schemas []RegistrySchema, records []RegistryRecord) []int {
	t.Helper()
	modules := filepath.Join(ToolsDir(), "node", "node_modules")
	Require(t, filepath.Join(modules, "@kafkajs", "confluent-schema-registry"), "@kafkajs/confluent-schema-registry (the registry's JavaScript client)")
	Require(t, filepath.Join(modules, "kafkajs"), "kafkajs")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: the registry client runs on it")
	}
	spec, err := json.Marshal(map[string]any{
		"brokers": broker.Addr, "registry": reg.URL, "topic": topic, "schemas": schemas, "records": records,
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(RepoRoot(), "internal", "testenv", "testdata", "registry-produce.cjs"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "KAFKAJS_NO_PARTITIONER_WARNING=1")
	cmd.Stdin = bytes.NewReader(spec)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("produce with the registry client: %v\n%s", err, stderr.String())
	}
	var res struct{ IDs []int }
	if err := json.Unmarshal(out, &res); err != nil || len(res.IDs) != len(schemas) {
		t.Fatalf("registry client output %q: %v", out, err)
	}
	return res.IDs
}
