package azblob

import (
	"maps"
	"strings"
	"testing"
)

// A destination as an Iceberg table's location: the wasb(s) URL iceberg-go's
// Azure IO takes, and the properties that reach the same account with the
// same credentials the destination uses.
func TestTableLocation(t *testing.T) {
	t.Setenv(EnvAccount, "")
	t.Setenv(EnvKey, "")
	t.Setenv(EnvSASToken, "")
	t.Setenv(EnvConnectionString, "")
	for _, c := range []struct {
		name  string
		cfg   Config
		url   string
		props map[string]string
	}{
		{"emulator, shared key", Config{AccountURL: "http://127.0.0.1:10000/devstoreaccount1", Container: "lake", Prefix: "/orders/dev/", SharedKey: emulatorKey},
			"wasb://lake@devstoreaccount1.blob.core.windows.net/orders/dev",
			map[string]string{"adls.endpoint": "127.0.0.1:10000", "adls.protocol": "http",
				"adls.auth.shared-key.account.name": "devstoreaccount1", "adls.auth.shared-key.account.key": emulatorKey}},
		{"account, SAS", Config{AccountName: "lakeus", Container: "lake", SASToken: "?sv=2024-01-01&sig=abc"},
			"wasbs://lake@lakeus.blob.core.windows.net",
			map[string]string{"adls.endpoint": "blob.core.windows.net", "adls.protocol": "https",
				"adls.sas-token.lakeus.blob.core.windows.net": "sv=2024-01-01&sig=abc"}},
		{"another cloud, Entra ID", Config{AccountURL: "https://lakecn.blob.core.chinacloudapi.cn", Container: "lake", Prefix: "o"},
			"wasbs://lake@lakecn.blob.core.chinacloudapi.cn/o",
			map[string]string{"adls.endpoint": "blob.core.chinacloudapi.cn", "adls.protocol": "https"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			url, props, err := tableLocation(&c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if url != c.url || !maps.Equal(props, c.props) {
				t.Errorf("tableLocation = %s, %v\nwant %s, %v", url, props, c.url, c.props)
			}
		})
	}
	// A custom domain hides the account's endpoint from iceberg-go, which
	// builds it from the account name.
	_, _, err := tableLocation(&Config{AccountURL: "https://lake.example.com", AccountName: "lakeus", Container: "lake", SharedKey: emulatorKey})
	if err == nil || !strings.Contains(err.Error(), "blob.core.windows.net") {
		t.Errorf("a custom domain: %v, want it refused with what to use", err)
	}
}
