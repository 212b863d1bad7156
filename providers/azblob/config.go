package azblob

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Defaults and limits of Config.
const (
	DefaultBlockSize   = 8 << 20
	DefaultMaxAttempts = 5

	// MinBlockSize keeps the block count of a large object sane; MaxBlockSize is
	// the service's limit for one Put Block.
	MinBlockSize = 64 << 10
	MaxBlockSize = 4000 << 20

	// maxBlocks is the service's limit of committed blocks per blob.
	maxBlocks = 50000
)

// Environment variables read when the configuration does not set the
// corresponding attributes (see Config).
const (
	EnvAccount          = "AZURE_STORAGE_ACCOUNT"
	EnvKey              = "AZURE_STORAGE_KEY"
	EnvSASToken         = "AZURE_STORAGE_SAS_TOKEN"
	EnvConnectionString = "AZURE_STORAGE_CONNECTION_STRING"
)

// Config is the body of `destination "azblob" "NAME" { … }` and of
// `state "azblob" { … }`, decoded with gohcl.
//
// The account is account_url, or account_name (then
// https://NAME.blob.core.windows.net), or the endpoint of the connection string.
// Authentication, when several are possible, prefers Microsoft Entra ID
// (azidentity's default credential chain, used when no secret is given), then a
// SAS token, then a shared key, then a connection string.
//
// The environment fills what the attributes leave unset: when no secret
// attribute is set, AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_KEY and
// AZURE_STORAGE_CONNECTION_STRING supply them (an explicit secret is never
// overridden by the environment); when no account attribute is set and no
// connection string is given, AZURE_STORAGE_ACCOUNT supplies account_name.
type Config struct {
	AccountURL  string `hcl:"account_url,optional"`
	AccountName string `hcl:"account_name,optional"`
	Container   string `hcl:"container"`
	// Prefix roots every key; surrounding slashes are ignored.
	Prefix string `hcl:"prefix,optional"`
	// AccessTier is set on every blob written: Hot, Cool or Cold. Empty leaves the
	// account's default. Archive is refused: archived blobs cannot be read or
	// copied, which the commit protocol does.
	AccessTier string `hcl:"access_tier,optional"`

	// Secrets. The config layer only accepts them from sensitive variables.
	SASToken         string `hcl:"sas_token,optional"`
	SharedKey        string `hcl:"shared_key,optional"`
	ConnectionString string `hcl:"connection_string,optional"`

	// BlockSize is the size in bytes of the blocks large objects are uploaded in
	// (default 8 MiB). A batch's files of more than 64 MiB are staged as
	// blocks on their final blobs while they are written, and committed at
	// promotion; smaller ones are sent whole, with one Put Blob, at promotion.
	// Objects wait in a buffer of 256 KiB in memory, then in a temporary file.
	BlockSize int64 `hcl:"block_size,optional"`
	// MaxAttempts bounds the tries of one request on throttling, server errors
	// and network errors (default 5).
	MaxAttempts int `hcl:"max_attempts,optional"`
	// SkipConditionalWriteCheck trusts the store's conditional writes
	// (If-None-Match, If-Match) without the probe streamctl runs before it
	// takes a lock or commits a batch there. Only for a store with a single
	// writer: where conditions are ignored, two writers go undetected.
	SkipConditionalWriteCheck bool `hcl:"skip_conditional_write_check,optional"`
}

// Validate reports every mistake in the configuration, with the environment
// fallbacks described on Config applied, each a *ConfigError, joined with
// errors.Join. It does no I/O, and its messages never contain a secret.
func (c Config) Validate() error {
	_, err := c.resolve(os.LookupEnv)
	return err
}

// auth names the authentication a Storage uses, in messages and hints.
type auth int

const (
	authEntra auth = iota
	authSAS
	authSharedKey
	authConnKey // a connection string with an account key
	authConnSAS // a connection string with a SAS
)

func (a auth) String() string {
	switch a {
	case authSAS:
		return "SAS token"
	case authSharedKey:
		return "shared key"
	case authConnKey, authConnSAS:
		return "connection string"
	default:
		return "Microsoft Entra ID"
	}
}

// resolved is a validated Config with its fallbacks applied.
type resolved struct {
	endpoint  string // the account's blob endpoint, no trailing slash, no query
	account   string
	container string
	prefix    string // "" or ending with "/"
	tier      string // "" or the service's spelling: Hot, Cool, Cold
	auth      auth
	sas       string // without the leading '?'
	key       string
	blockSize int64
	attempts  int
}

// ConfigError is one invalid attribute of a Config, named as in HCL so that the
// config layer can point at it. A value taken from the environment says so.
type ConfigError struct {
	Attribute string
	Problem   string
}

func (e *ConfigError) Error() string { return e.Attribute + ": " + e.Problem }

// resolve applies the environment fallbacks and the defaults and validates.
// Every problem is reported, each a *ConfigError, joined with errors.Join.
func (c Config) resolve(lookup func(string) (string, bool)) (resolved, error) {
	env := func(name string) string {
		v, _ := lookup(name)
		return strings.TrimSpace(v)
	}
	// from names where a value came from, for messages.
	from := map[string]string{}
	if c.SASToken == "" && c.SharedKey == "" && c.ConnectionString == "" {
		c.SASToken = env(EnvSASToken)
		c.SharedKey = env(EnvKey)
		c.ConnectionString = env(EnvConnectionString)
		from["sas_token"], from["shared_key"], from["connection_string"] = EnvSASToken, EnvKey, EnvConnectionString
	}
	if c.AccountURL == "" && c.AccountName == "" && c.ConnectionString == "" {
		c.AccountName = env(EnvAccount)
		from["account_name"] = EnvAccount
	}

	var errs []error
	bad := func(attr, format string, args ...any) {
		if v := from[attr]; v != "" {
			attr += " (from " + v + ")"
		}
		errs = append(errs, &ConfigError{Attribute: attr, Problem: fmt.Sprintf(format, args...)})
	}
	r := resolved{container: c.Container, blockSize: c.BlockSize, attempts: c.MaxAttempts}

	var conn connString
	if c.ConnectionString != "" {
		var err error
		if conn, err = parseConnString(c.ConnectionString); err != nil {
			bad("connection_string", "%v", err)
		}
	}

	if c.AccountName != "" && !validAccountName(c.AccountName) {
		bad("account_name", "%q is not a storage account name (3 to 24 lowercase letters and digits)", c.AccountName)
	}
	switch {
	case c.AccountURL != "":
		// account_name beside account_url names the account of a custom domain.
		endpoint, account, err := parseAccountURL(c.AccountURL)
		if err != nil {
			bad("account_url", "%v", err)
		}
		if c.AccountName != "" {
			account = c.AccountName
		}
		r.endpoint, r.account = endpoint, account
	case c.AccountName != "":
		r.endpoint, r.account = "https://"+c.AccountName+".blob.core.windows.net", c.AccountName
	case conn.endpoint != "":
		r.endpoint, r.account = conn.endpoint, conn.account
	case c.ConnectionString == "":
		bad("account_url", "account_url or account_name is required (or set %s)", EnvAccount)
	}
	// An explicit account must be the one the connection string is for, or its
	// key or SAS would be sent to the wrong account.
	if conn.endpoint != "" && r.endpoint != "" && !strings.EqualFold(conn.endpoint, r.endpoint) {
		bad("connection_string", "it is for %s, not %s", conn.endpoint, r.endpoint)
	}

	switch {
	case c.SASToken != "":
		r.auth, r.sas = authSAS, strings.TrimPrefix(c.SASToken, "?")
		if _, err := url.ParseQuery(r.sas); err != nil || !strings.Contains(r.sas, "sig=") {
			bad("sas_token", "not a SAS token (a query string with sig=…)")
		}
	case c.SharedKey != "":
		r.auth, r.key = authSharedKey, c.SharedKey
		if _, err := base64.StdEncoding.DecodeString(c.SharedKey); err != nil {
			bad("shared_key", "not a storage account key (base64)")
		}
	case conn.key != "":
		r.auth, r.key = authConnKey, conn.key
	case conn.sas != "":
		r.auth, r.sas = authConnSAS, conn.sas
	default:
		r.auth = authEntra
	}
	if (r.auth == authSharedKey || r.auth == authConnKey) && r.account == "" && r.endpoint != "" {
		bad("account_name", "a shared key needs the account name: set account_name beside account_url")
	}
	// Entra ID tokens and keys are never sent in clear text, except to an emulator
	// on this machine.
	if strings.HasPrefix(r.endpoint, "http://") && !loopbackURL(r.endpoint) {
		attr := "account_url"
		if c.AccountURL == "" {
			attr = "connection_string"
		}
		bad(attr, "%s uses http: only https is allowed, except on the loopback interface", r.endpoint)
	}

	if c.Container == "" {
		bad("container", "is required")
	} else if !validContainerName(c.Container) {
		bad("container", "%q is not a container name (3 to 63 lowercase letters, digits and single hyphens, starting with a letter or digit)", c.Container)
	}

	prefix := strings.Trim(c.Prefix, "/")
	if prefix != "" {
		if err := providers.CheckKey(prefix); err != nil {
			bad("prefix", "%q is not a path of blob names: %v", c.Prefix, err)
		}
		r.prefix = prefix + "/"
	}

	switch strings.ToLower(c.AccessTier) {
	case "":
	case "hot":
		r.tier = "Hot"
	case "cool":
		r.tier = "Cool"
	case "cold":
		r.tier = "Cold"
	case "archive":
		bad("access_tier", "Archive is not supported: archived blobs cannot be read or copied until rehydrated, and the commit protocol reads and copies what it writes")
	default:
		bad("access_tier", "%q is not one of Hot, Cool, Cold", c.AccessTier)
	}

	switch {
	case r.blockSize == 0:
		r.blockSize = DefaultBlockSize
	case r.blockSize < MinBlockSize || r.blockSize > MaxBlockSize:
		bad("block_size", "%d is out of range: from %d (64 KiB) to %d (4000 MiB)", r.blockSize, MinBlockSize, MaxBlockSize)
	}
	switch {
	case r.attempts == 0:
		r.attempts = DefaultMaxAttempts
	case r.attempts < 1 || r.attempts > 100:
		bad("max_attempts", "%d is out of range: from 1 to 100", r.attempts)
	}
	return r, errors.Join(errs...)
}

// parseAccountURL returns the blob endpoint and the account name of an account
// URL: https://NAME.blob.core.windows.net, or path-style
// http://127.0.0.1:10000/NAME as the emulator and Azure Stack use.
func parseAccountURL(raw string) (endpoint, account string, err error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", "", fmt.Errorf("%q is not an http(s) URL", redactURL(raw))
	}
	if u.RawQuery != "" || u.User != nil {
		// A SAS or credentials in the URL would end up in messages.
		return "", "", errors.New("must not carry a query or credentials: put a SAS token in sas_token")
	}
	path := strings.Trim(u.Path, "/")
	host := u.Hostname()
	switch {
	case path != "":
		if strings.Contains(path, "/") {
			return "", "", fmt.Errorf("%q names more than an account: put the container in container and the rest in prefix", redactURL(raw))
		}
		account = path
	case net.ParseIP(host) == nil && host != "localhost":
		account, _, _ = strings.Cut(host, ".")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u.String(), account, nil
}

// connString is what streamctl uses of a storage connection string.
type connString struct {
	endpoint string
	account  string
	key      string
	sas      string
}

// emulatorKey is the Azurite and storage emulator account key, published by
// Microsoft; UseDevelopmentStorage=true stands for it.
const emulatorKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// parseConnString parses a connection string. Its errors name the missing or
// malformed part, never a value.
func parseConnString(s string) (connString, error) {
	fields := map[string]string{}
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return connString{}, errors.New("malformed: expected Key=Value pairs separated by ';'")
		}
		fields[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	if strings.EqualFold(fields["usedevelopmentstorage"], "true") {
		return connString{endpoint: "http://127.0.0.1:10000/devstoreaccount1", account: "devstoreaccount1", key: emulatorKey}, nil
	}
	cs := connString{account: fields["accountname"], key: fields["accountkey"], sas: strings.TrimPrefix(fields["sharedaccesssignature"], "?")}
	if ep := fields["blobendpoint"]; ep != "" {
		endpoint, account, err := parseAccountURL(ep)
		if err != nil {
			return connString{}, errors.New("malformed BlobEndpoint")
		}
		cs.endpoint = endpoint
		if cs.account == "" {
			cs.account = account
		}
	} else if cs.account != "" {
		proto := fields["defaultendpointsprotocol"]
		if proto == "" {
			proto = "https"
		}
		suffix := fields["endpointsuffix"]
		if suffix == "" {
			suffix = "core.windows.net"
		}
		cs.endpoint = proto + "://" + cs.account + ".blob." + suffix
	} else {
		return connString{}, errors.New("malformed: neither BlobEndpoint nor AccountName")
	}
	if cs.key == "" && cs.sas == "" {
		return connString{}, errors.New("neither AccountKey nor SharedAccessSignature")
	}
	if cs.key != "" {
		if _, err := base64.StdEncoding.DecodeString(cs.key); err != nil {
			return connString{}, errors.New("malformed AccountKey (not base64)")
		}
	}
	return cs, nil
}

func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func validAccountName(s string) bool {
	if len(s) < 3 || len(s) > 24 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func validContainerName(s string) bool {
	if len(s) < 3 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// checkKey refuses keys that are not relative, '/'-separated paths of
// non-empty segments: "." and ".." would be resolved away by HTTP clients.
// redactURL drops the query and the user information of a URL, where a SAS or
// a password would be, for messages.
func redactURL(raw string) string {
	raw, _, _ = strings.Cut(raw, "?")
	if scheme, rest, ok := strings.Cut(raw, "://"); ok {
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			rest = rest[at+1:]
		}
		return scheme + "://" + rest
	}
	return raw
}
