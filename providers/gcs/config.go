package gcs

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Defaults and limits of Config.
const (
	// DefaultChunkSize is what one upload of an object sends per request
	// and holds in memory while it writes.
	DefaultChunkSize int64 = 8 << 20
	// minChunkSize is the service's granularity of resumable uploads.
	minChunkSize int64 = 256 << 10
	maxChunkSize int64 = 256 << 20
)

// Environment variables read when the configuration leaves them unset.
const (
	// EnvEmulatorHost is the emulator the Google client libraries honour
	// (host:port or a URL); endpoint overrides it.
	EnvEmulatorHost = "STORAGE_EMULATOR_HOST"
	// EnvCredentials names a credentials file, read by Application
	// Default Credentials when credentials_json is unset.
	EnvCredentials = "GOOGLE_APPLICATION_CREDENTIALS"
)

// Config is the body of `destination "gcs" "NAME" { … }` and of
// `state "gcs" { … }`, decoded with gohcl.
type Config struct {
	// Bucket holds the objects. Required.
	Bucket string `hcl:"bucket"`
	// Prefix roots every key: key k is stored at "<prefix>/k". Leading,
	// trailing and repeated slashes are dropped.
	Prefix string `hcl:"prefix,optional"`
	// Endpoint is the JSON API's base URL of an emulator, e.g.
	// http://127.0.0.1:4443. Requests to it carry no credentials.
	Endpoint string `hcl:"endpoint,optional"`
	// CredentialsJSON is a service account key (the JSON file's content).
	// Unset, Application Default Credentials apply. Only accepted from a
	// sensitive variable.
	CredentialsJSON string `hcl:"credentials_json,optional"`
	// ChunkSize is the size in bytes of the requests an object is uploaded
	// in, and the memory each object being written holds. Default 8 MiB.
	ChunkSize int64 `hcl:"chunk_size,optional"`
}

// ConfigError is one invalid attribute of a Config, named as in HCL so that
// the config layer can point at it.
type ConfigError struct {
	Attribute string
	Problem   string
}

func (e *ConfigError) Error() string { return e.Attribute + ": " + e.Problem }

// Validate checks the values of c and returns every problem found, each a
// *ConfigError, joined with errors.Join. It does no I/O, and its messages
// never quote the credentials.
func (c Config) Validate() error {
	var errs []error
	bad := func(attr, format string, args ...any) {
		errs = append(errs, &ConfigError{Attribute: attr, Problem: fmt.Sprintf(format, args...)})
	}
	switch {
	case c.Bucket == "":
		bad("bucket", "is required")
	case strings.HasPrefix(c.Bucket, "gs://"):
		bad("bucket", "%q is a URL: set the bucket name alone, without gs://, and the path in prefix", c.Bucket)
	case strings.Contains(c.Bucket, "/"):
		bad("bucket", "%q contains '/': set the bucket name alone and the path in prefix", c.Bucket)
	}
	for _, seg := range strings.Split(c.Prefix, "/") {
		if seg == "." || seg == ".." {
			bad("prefix", "%q contains a %q segment", c.Prefix, seg)
			break
		}
	}
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("endpoint", "%q is not an http:// or https:// URL", c.Endpoint)
		}
	}
	if c.CredentialsJSON != "" {
		var key struct {
			Type        string `json:"type"`
			ClientEmail string `json:"client_email"`
		}
		switch err := json.Unmarshal([]byte(c.CredentialsJSON), &key); {
		case err != nil:
			bad("credentials_json", "is not JSON: give the content of a service account key file")
		case key.Type == "":
			bad("credentials_json", "has no \"type\": give the content of a service account key file (\"type\": \"service_account\"), or unset it to use Application Default Credentials")
		case key.Type != "service_account":
			bad("credentials_json", "is a %q key, not a service account key (\"type\": \"service_account\"): give the content of a service account key file, or unset it to use Application Default Credentials", key.Type)
		}
	}
	if c.ChunkSize != 0 && (c.ChunkSize < minChunkSize || c.ChunkSize > maxChunkSize || c.ChunkSize%minChunkSize != 0) {
		bad("chunk_size", "must be a multiple of %d bytes (256 KiB) between %d and %d bytes (256 MiB), not %d", minChunkSize, minChunkSize, maxChunkSize, c.ChunkSize)
	}
	return errors.Join(errs...)
}

// cleanPrefix drops leading, trailing and repeated slashes.
func cleanPrefix(p string) string {
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, "/")
}
