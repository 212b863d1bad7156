package azblob

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Kind declares `destination "azblob"` and `state "azblob"`.
var Kind = &providers.Kind{
	Type: "azblob",
	Destination: &providers.DestinationRole{
		Body: roleBody(providers.Body{
			Summary: "An Azure Blob Storage container.",
			Description: "The account is `account_url`, or `account_name` (then `https://NAME.blob.core.windows.net`), " +
				"or the endpoint of the connection string. Authentication prefers Microsoft Entra ID (the default " +
				"credential chain, used when no secret is given), then a SAS token, then a shared key, then a " +
				"connection string. When no secret attribute is set, `AZURE_STORAGE_SAS_TOKEN`, `AZURE_STORAGE_KEY` " +
				"and `AZURE_STORAGE_CONNECTION_STRING` supply them; `AZURE_STORAGE_ACCOUNT` supplies `account_name`.",
		}),
		Open:          open,
		Location:      location,
		TableLocation: tableLocation,
	},
	State: &providers.StateRole{
		Body: roleBody(providers.Body{
			Summary: "The state in an Azure Blob Storage container.",
			Description: "Written with compare-and-swap (`If-Match` on the ETag), locked with a " +
				"create-only `<key>.lock` (`If-None-Match: *`). Every attribute of " +
				"[destination \"azblob\"](#sink-destination-azblob) is accepted except `access_tier`.",
			Refused: map[string]string{"access_tier": stateTierRefused},
			Decode:  decodeState,
			Example: `streamctl {
  state "azblob" {
    account_name = "opsstate"
    container    = "streamctl"
    key          = "orders.json"
  }
}
`,
		}),
		Open: open,
	},
}

const stateTierRefused = "The state is rewritten on every batch; a Cool or Cold tier would be charged early deletion each time."

// roleBody completes b with what both roles share: Config and its attributes.
func roleBody(b providers.Body) providers.Body {
	b.Config = Config{}
	b.Secrets = []string{"sas_token", "shared_key", "connection_string"}
	b.Paths = []string{"prefix", "container"}
	b.Attributes = map[string]providers.Attribute{
		"account_url": {Example: `"https://lakeus.blob.core.windows.net"`,
			Description: "The account's blob endpoint: `https://NAME.blob.core.windows.net`, or path-style `http://127.0.0.1:10000/NAME` for the emulator. http is only allowed on the loopback interface."},
		"account_name": {Default: "`AZURE_STORAGE_ACCOUNT`", Example: `"lakeus"`,
			Description: "The storage account: the endpoint is then `https://NAME.blob.core.windows.net`. Beside `account_url`, it names the account of a custom domain."},
		"container":   {Example: `"orders"`, Description: "The container that holds the blobs."},
		"prefix":      {Example: `"orders/prod"`},
		"access_tier": {Default: "the account's default", Example: `"Cool"`, Allowed: []string{"Hot", "Cool", "Cold"}},
		"sas_token": {Default: "`AZURE_STORAGE_SAS_TOKEN`", Example: "var.lake_sas",
			Description: "A SAS token (the query string, with or without `?`). Only accepted from a sensitive variable."},
		"shared_key": {Default: "`AZURE_STORAGE_KEY`", Example: "var.lake_key",
			Description: "The storage account key (base64). Only accepted from a sensitive variable."},
		"connection_string": {Default: "`AZURE_STORAGE_CONNECTION_STRING`", Example: "var.lake_connection_string",
			Description: "A storage connection string with an account key or a SAS. Only accepted from a sensitive variable."},
		"block_size":                   {Default: providers.SizeDoc(DefaultBlockSize), Example: "16777216"},
		"max_attempts":                 {Default: strconv.Itoa(DefaultMaxAttempts), Example: "10"},
		"skip_conditional_write_check": {Default: "false", Example: "true"},
	}
	return b
}

// decodeState refuses access_tier, which the state block cannot use.
func decodeState(b providers.Block) any {
	c := &Config{}
	if !b.Decode(c) {
		return nil
	}
	if c.AccessTier != "" {
		b.Errorf("access_tier", "Invalid access_tier", "%s Remove access_tier from the state block.", stateTierRefused)
	}
	return c
}

func open(ctx context.Context, cfg any) (providers.Storage, error) {
	return New(ctx, *cfg.(*Config))
}

func location(cfg any) string {
	c := cfg.(*Config)
	return "azblob://" + c.AccountURL + c.AccountName + "/" + c.Container + "/" + strings.Trim(c.Prefix, "/")
}

// tableLocation is the destination as iceberg-go's Azure IO names it,
// wasbs://container@account.blob.core.windows.net/prefix (wasb:// for the
// emulator), and the properties that give that IO the destination's
// endpoint and credentials. Entra ID needs none: the IO uses the same
// default credential chain.
func tableLocation(cfg any) (string, map[string]string, error) {
	r, err := cfg.(*Config).resolve(os.LookupEnv)
	if err != nil {
		return "", nil, err
	}
	u, err := url.Parse(r.endpoint)
	if err != nil {
		return "", nil, err
	}
	props := map[string]string{"adls.protocol": u.Scheme}
	var host string
	switch {
	case loopbackURL(r.endpoint) && (u.Hostname() == "127.0.0.1" || u.Hostname() == "localhost"):
		// The emulator's path-style endpoint: the IO puts the account after
		// an endpoint of that form. The location's host only names the
		// account.
		host = r.account + ".blob.core.windows.net"
		props["adls.endpoint"] = u.Host
	case strings.HasPrefix(u.Host, r.account+".blob."):
		host = u.Host
		props["adls.endpoint"] = strings.TrimPrefix(u.Host, r.account+".")
	default:
		return "", nil, fmt.Errorf("an Iceberg table needs the account's own endpoint, https://%s.blob.core.windows.net (or another cloud's), not %s: the table's file IO derives the endpoint from the account name", r.account, r.endpoint)
	}
	switch r.auth {
	case authSharedKey, authConnKey:
		props["adls.auth.shared-key.account.name"] = r.account
		props["adls.auth.shared-key.account.key"] = r.key
	case authSAS, authConnSAS:
		props["adls.sas-token."+host] = r.sas
	}
	scheme := "wasbs"
	if u.Scheme == "http" {
		scheme = "wasb"
	}
	loc := scheme + "://" + r.container + "@" + host
	if p := strings.TrimSuffix(r.prefix, "/"); p != "" {
		loc += "/" + p
	}
	return loc, props, nil
}
