package gcs

import (
	"maps"
	"testing"
)

// TestTableLocation: the table's location and the properties of iceberg-go's
// GCS file IO reach the bucket as New does: the emulator of endpoint or of
// STORAGE_EMULATOR_HOST without credentials, else the service account key,
// else Application Default Credentials (no property).
func TestTableLocation(t *testing.T) {
	for _, c := range []struct {
		name     string
		cfg      Config
		emulator string
		location string
		props    map[string]string
	}{
		{"endpoint", Config{Bucket: "lake", Prefix: "/orders/dev/", Endpoint: "http://127.0.0.1:4443/"}, "", "gs://lake/orders/dev",
			map[string]string{"gcs.endpoint": "http://127.0.0.1:4443/storage/v1/", "gcs.no-auth": "true"}},
		{"emulator host", Config{Bucket: "lake"}, "127.0.0.1:4443", "gs://lake",
			map[string]string{"gcs.endpoint": "http://127.0.0.1:4443/storage/v1/", "gcs.no-auth": "true"}},
		{"emulator URL", Config{Bucket: "lake"}, "http://localhost:9023", "gs://lake",
			map[string]string{"gcs.endpoint": "http://localhost:9023/storage/v1/", "gcs.no-auth": "true"}},
		{"service account key", Config{Bucket: "lake", Prefix: "orders", CredentialsJSON: `{"type":"service_account"}`}, "", "gs://lake/orders",
			map[string]string{"gcs.jsonkey": `{"type":"service_account"}`}},
		{"default credentials", Config{Bucket: "lake"}, "", "gs://lake", map[string]string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvEmulatorHost, c.emulator)
			location, props, err := tableLocation(&c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if location != c.location || !maps.Equal(props, c.props) {
				t.Errorf("got %s %v, want %s %v", location, props, c.location, c.props)
			}
		})
	}
}
