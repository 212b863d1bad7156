package gcs

import (
	"context"
	"os"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Kind declares `destination "gcs"` and `state "gcs"`.
var Kind = &providers.Kind{
	Type: "gcs",
	Destination: &providers.DestinationRole{
		Body: roleBody(providers.Body{
			Summary: "A Google Cloud Storage bucket.",
			Description: "GCS has no rename: a batch's files are staged under `_temporary/<batch>/` and moved into " +
				"place with a server-side rewrite; the manifest is written with `ifGenerationMatch=0`, so it is " +
				"created once. Credentials are Application Default Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, " +
				"`gcloud auth application-default login`, the metadata server) unless `credentials_json` is set. " +
				"`endpoint`, or `STORAGE_EMULATOR_HOST`, points at an emulator, without credentials.",
		}),
		Open:          open,
		Location:      location,
		TableLocation: tableLocation,
	},
	State: &providers.StateRole{
		Body: roleBody(providers.Body{
			Summary: "The state in a Google Cloud Storage bucket.",
			Description: "Written with compare-and-swap (`ifGenerationMatch` on the object's generation), locked " +
				"with a create-only `<key>.lock` (`ifGenerationMatch=0`). Every attribute of " +
				"[destination \"gcs\"](#sink-destination-gcs) is accepted too.",
			Example: `streamctl {
  state "gcs" {
    bucket = "ops-state"
    key    = "streamctl/orders.json"
  }
}
`,
		}),
		Open: open,
	},
}

// roleBody completes b with what both roles share: Config and its attributes.
func roleBody(b providers.Body) providers.Body {
	b.Config = Config{}
	b.Secrets = []string{"credentials_json"}
	b.Paths = []string{"prefix", "bucket"}
	b.Attributes = map[string]providers.Attribute{
		"bucket":   {Example: `"lake-eu"`, Description: "The bucket that holds the objects: its name alone, without `gs://`."},
		"prefix":   {Example: `"orders/prod"`},
		"endpoint": {Default: "`STORAGE_EMULATOR_HOST`, else Google Cloud Storage", Example: `"http://127.0.0.1:4443"`},
		"credentials_json": {Default: "Application Default Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, …)", Example: "var.gcs_key",
			Description: "A service account key: the content of its JSON file. Only accepted from a sensitive variable."},
		"chunk_size": {Default: providers.SizeDoc(DefaultChunkSize), Example: "16777216"},
	}
	return b
}

func open(ctx context.Context, cfg any) (providers.Storage, error) {
	return New(ctx, *cfg.(*Config))
}

func location(cfg any) string {
	c := cfg.(*Config)
	return "gs://" + c.Endpoint + "/" + c.Bucket + "/" + strings.Trim(c.Prefix, "/")
}

// tableLocation is the destination as an Iceberg table's location
// (gs://bucket/prefix) and the properties of its file IO (internal/iceberg/gsio): the
// emulator's JSON API without credentials, as New reaches it, or the
// service account key of credentials_json. Without either, the file IO
// takes Application Default Credentials, as New does.
func tableLocation(cfg any) (string, map[string]string, error) {
	c := cfg.(*Config)
	url := "gs://" + c.Bucket
	if p := strings.Trim(c.Prefix, "/"); p != "" {
		url += "/" + p
	}
	props := map[string]string{}
	emulator := c.Endpoint
	if emulator == "" {
		// Read by the client library itself for New, which never sees it.
		if host := os.Getenv(EnvEmulatorHost); host != "" {
			emulator = host
			if !strings.Contains(host, "://") {
				emulator = "http://" + host
			}
		}
	}
	switch {
	case emulator != "":
		props["gcs.endpoint"] = strings.TrimSuffix(emulator, "/") + "/storage/v1/"
		props["gcs.no-auth"] = "true"
	case c.CredentialsJSON != "":
		props["gcs.jsonkey"] = c.CredentialsJSON
	}
	return url, props, nil
}
