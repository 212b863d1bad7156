package partition

import (
	"errors"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/streamctl/streamctl/internal/format"
)

func TestParse(t *testing.T) {
	tests := []struct {
		expr      string
		transform Transform
		source    string
		param     int64
		name      string
		err       string
	}{
		{expr: "country", transform: Identity, source: "country", name: "country"},
		{expr: "  country ", transform: Identity, source: "country", name: "country"},
		{expr: "customer.country", transform: Identity, source: "customer.country", name: "customer.country"},
		{expr: "year(ts)", transform: Year, source: "ts", name: "ts_year"},
		{expr: "years(ts)", transform: Year, source: "ts", name: "ts_year"},
		{expr: "month(ts)", transform: Month, source: "ts", name: "ts_month"},
		{expr: "day( ts )", transform: Day, source: "ts", name: "ts_day"},
		{expr: "days(ts)", transform: Day, source: "ts", name: "ts_day"},
		{expr: "hour(ts)", transform: Hour, source: "ts", name: "ts_hour"},
		{expr: "bucket(16, customer_id)", transform: BucketT, source: "customer_id", param: 16, name: "customer_id_bucket"},
		{expr: "truncate(4,name)", transform: TruncateT, source: "name", param: 4, name: "name_trunc"},
		{expr: "day(_timestamp)", transform: Day, source: "_timestamp", name: "_timestamp_day"},
		{expr: "", err: "no field"},
		{expr: "week(ts)", err: `unknown transform "week" (want year, month, day, hour, bucket or truncate)`},
		{expr: "day(ts", err: "missing ')'"},
		{expr: "day()", err: "no field"},
		{expr: "day(a, b)", err: "want day(field)"},
		{expr: "bucket(ts)", err: "want bucket(N, field)"},
		{expr: "bucket(0, id)", err: "N a positive integer"},
		{expr: "bucket(id, 16)", err: `needs N a positive integer, got "id"`},
		{expr: "truncate(-1, s)", err: "N a positive integer"},
		{expr: "day(hour(ts))", err: "transforms do not nest"},
		{expr: "a..b", err: "empty segment"},
		{expr: "a)", err: "want a field name or a transform"},
		{expr: strings.Repeat("x", 60), err: "longer than 54 bytes"},
	}
	for _, tc := range tests {
		f, err := Parse(tc.expr)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) error = %v, want it to contain %q", tc.expr, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		if f.Transform != tc.transform || f.Source != tc.source || f.Param != tc.param || f.Name != tc.name {
			t.Errorf("Parse(%q) = %+v", tc.expr, f)
		}
	}
	if _, err := NewSpec([]string{"day(ts)", "days(ts)"}); err == nil || !strings.Contains(err.Error(), `folder name "ts_day" is used twice`) {
		t.Errorf("duplicate names: %v", err)
	}
	if _, err := NewSpec([]string{"week(a)", "x(b)"}); err == nil || !strings.Contains(err.Error(), `"week"`) || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("every error must be reported: %v", err)
	}
}

func TestBindChecksKinds(t *testing.T) {
	tests := []struct {
		expr string
		kind format.Kind
		ok   bool
	}{
		{"a", format.KindDouble, true},
		{"a", format.KindJSON, true},
		{"day(a)", format.KindTimestamp, true},
		{"day(a)", format.KindDate, true},
		{"day(a)", format.KindString, false},
		{"hour(a)", format.KindDate, false},
		{"year(a)", format.KindAny, true},
		{"bucket(4, a)", format.KindInt32, true},
		{"bucket(4, a)", format.KindBytes, true},
		{"bucket(4, a)", format.KindDouble, false},
		{"bucket(4, a)", format.KindBool, false},
		{"truncate(4, a)", format.KindString, true},
		{"truncate(4, a)", format.KindTimestamp, false},
	}
	for _, tc := range tests {
		s, err := NewSpec([]string{tc.expr})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Bind([]format.Kind{tc.kind})
		if (err == nil) != tc.ok {
			t.Errorf("%s on %s: err = %v, want ok = %v", tc.expr, tc.kind, err, tc.ok)
		}
	}
}

func folder(t *testing.T, expr string, k format.Kind, v format.Value) (string, error) {
	t.Helper()
	s, err := NewSpec([]string{expr})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind([]format.Kind{k}); err != nil {
		t.Fatal(err)
	}
	out, err := s.AppendPath(nil, []format.Value{v})
	return string(out), err
}

func ms(s string) int64 {
	v, ok := format.ParseTimestamp([]byte(s))
	if !ok {
		panic(s)
	}
	return v
}

func days(s string) int64 {
	v, ok := format.ParseDate([]byte(s))
	if !ok {
		panic(s)
	}
	return v
}

func str(s string) format.Value { return format.Value{Bytes: []byte(s), Token: format.TokString} }
func num(s string) format.Value { return format.Value{Bytes: []byte(s), Token: format.TokNumber} }

func TestTransforms(t *testing.T) {
	ts := format.Value{Int: ms("2026-03-04T15:16:17.189Z")}
	tests := []struct {
		expr string
		kind format.Kind
		v    format.Value
		want string
		err  string
	}{
		{"country", format.KindString, format.Value{Bytes: []byte("de")}, "country=de", ""},
		{"country", format.KindString, format.Value{Null: true}, "country=__HIVE_DEFAULT_PARTITION__", ""},
		{"country", format.KindString, format.Value{Bytes: []byte("")}, "country=__HIVE_DEFAULT_PARTITION__", ""},
		{"n", format.KindInt64, format.Value{Int: -42}, "n=-42", ""},
		{"d", format.KindDouble, format.Value{Float: 1.5}, "d=1.5", ""},
		{"b", format.KindBool, format.Value{Int: 1}, "b=true", ""},
		{"ts", format.KindTimestamp, ts, "ts=2026-03-04T15%3A16%3A17.189Z", ""},
		{"dt", format.KindDate, format.Value{Int: days("2026-03-04")}, "dt=2026-03-04", ""},
		{"year(ts)", format.KindTimestamp, ts, "ts_year=2026", ""},
		{"month(ts)", format.KindTimestamp, ts, "ts_month=2026-03", ""},
		{"day(ts)", format.KindTimestamp, ts, "ts_day=2026-03-04", ""},
		{"hour(ts)", format.KindTimestamp, ts, "ts_hour=2026-03-04-15", ""},
		{"hour(ts)", format.KindTimestamp, format.Value{Int: ms("1969-12-31T23:59:59.999Z")}, "ts_hour=1969-12-31-23", ""},
		{"day(ts)", format.KindTimestamp, format.Value{Null: true}, "ts_day=__HIVE_DEFAULT_PARTITION__", ""},
		{"year(dt)", format.KindDate, format.Value{Int: days("0099-12-31")}, "dt_year=0099", ""},
		{"month(dt)", format.KindDate, format.Value{Int: days("2024-02-29")}, "dt_month=2024-02", ""},
		{"day(dt)", format.KindDate, format.Value{Int: days("2024-02-29")}, "dt_day=2024-02-29", ""},
		// untyped JSON (no column): strings, dates and epoch millis
		{"day(ts)", format.KindAny, str("2026-03-04T23:30:00-01:00"), "ts_day=2026-03-05", ""},
		{"day(ts)", format.KindAny, str("2026-03-04"), "ts_day=2026-03-04", ""},
		{"hour(ts)", format.KindAny, num("1772637377189"), "ts_hour=2026-03-04-15", ""},
		{"hour(ts)", format.KindAny, str("2026-03-04"), "", `field "ts": hour() needs a timestamp, got a date`},
		{"day(ts)", format.KindAny, str("soon"), "", `field "ts": expected an RFC 3339 timestamp, a date or epoch milliseconds, got "soon"`},
		{"day(ts)", format.KindAny, num("1.5"), "", `got 1.5`},
		{"country", format.KindAny, str("a/b"), "country=a%2Fb", ""},
		{"n", format.KindAny, num("12.50"), "n=12.50", ""},
		// bucket: Iceberg's hash; see TestMurmur3 for the hash itself
		{"bucket(100, id)", format.KindInt64, format.Value{Int: 34}, "id_bucket=79", ""}, // 2017239379 % 100
		{"bucket(100, id)", format.KindInt32, format.Value{Int: 34}, "id_bucket=79", ""},
		{"bucket(100, id)", format.KindAny, num("34"), "id_bucket=79", ""},
		{"bucket(100, s)", format.KindString, format.Value{Bytes: []byte("iceberg")}, "s_bucket=89", ""}, // 1210000089 % 100
		{"bucket(100, s)", format.KindAny, str("iceberg"), "s_bucket=89", ""},
		{"bucket(100, s)", format.KindAny, num("3.5"), "", `field "s": bucket(): needs an integer or a string, got 3.5`},
		{"bucket(100, d)", format.KindDate, format.Value{Int: days("2017-11-16")}, "d_bucket=26", ""},             // (-653330422 & MaxInt32) % 100
		{"bucket(100, t)", format.KindTimestamp, format.Value{Int: ms("2017-11-16T22:31:08Z")}, "t_bucket=7", ""}, // (-2047944441 & MaxInt32) % 100
		{"bucket(100, b)", format.KindBytes, format.Value{Bytes: []byte{0, 1, 2, 3}}, "b_bucket=41", ""},          // (-188683207 & MaxInt32) % 100
		{"bucket(16, id)", format.KindInt64, format.Value{Null: true}, "id_bucket=__HIVE_DEFAULT_PARTITION__", ""},
		// truncate: Iceberg's semantics
		{"truncate(10, n)", format.KindInt64, format.Value{Int: 1}, "n_trunc=0", ""},
		{"truncate(10, n)", format.KindInt64, format.Value{Int: -1}, "n_trunc=-10", ""},
		{"truncate(10, n)", format.KindInt32, format.Value{Int: 25}, "n_trunc=20", ""},
		{"truncate(10, n)", format.KindAny, num("-15"), "n_trunc=-20", ""},
		{"truncate(3, s)", format.KindString, format.Value{Bytes: []byte("iceberg")}, "s_trunc=ice", ""},
		{"truncate(3, s)", format.KindString, format.Value{Bytes: []byte("äöüß")}, "s_trunc=äöü", ""}, // code points, not bytes
		{"truncate(3, s)", format.KindString, format.Value{Bytes: []byte("ab")}, "s_trunc=ab", ""},
		{"truncate(2, b)", format.KindBytes, format.Value{Bytes: []byte{1, 2, 3}}, "b_trunc=AQI%3D", ""},
		{"truncate(2, s)", format.KindAny, format.Value{Bytes: []byte("true"), Token: format.TokBool}, "", "truncate(): needs an integer or a string, got true"},
	}
	for _, tc := range tests {
		got, err := folder(t, tc.expr, tc.kind, tc.v)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s on %s: error = %v, want %q", tc.expr, tc.kind, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s on %s = %q, %v; want %q", tc.expr, tc.kind, got, err, tc.want)
		}
	}
}

func TestSeveralFields(t *testing.T) {
	s, err := NewSpec([]string{"country", "day(ts)", "bucket(4, id)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind([]format.Kind{format.KindString, format.KindTimestamp, format.KindInt64}); err != nil {
		t.Fatal(err)
	}
	got, err := s.AppendPath([]byte("prefix:"), []format.Value{{Bytes: []byte("de")}, {Int: ms("2026-01-01T10:00:00Z")}, {Int: 34}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "prefix:country=de/ts_day=2026-01-01/id_bucket=" + string(rune('0'+2017239379%4)); string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// Test vectors from the Iceberg specification, appendix B.
func TestMurmur3(t *testing.T) {
	tests := []struct {
		name string
		hash uint32
		want int32
	}{
		{"int 34", HashLong(34), 2017239379},
		{"date 2017-11-16", HashLong(days("2017-11-16")), -653330422},
		{"timestamp 2017-11-16T22:31:08", HashLong(ms("2017-11-16T22:31:08Z") * 1000), -2047944441},
		{"timestamptz 2017-11-16T14:31:08-08:00", HashLong(ms("2017-11-16T14:31:08-08:00") * 1000), -2047944441},
		{"string iceberg", Murmur3([]byte("iceberg")), 1210000089},
		{"binary 00010203", Murmur3([]byte{0, 1, 2, 3}), -188683207},
	}
	for _, tc := range tests {
		if int32(tc.hash) != tc.want {
			t.Errorf("%s: hash = %d, want %d", tc.name, int32(tc.hash), tc.want)
		}
	}
	// Lengths 1-3 exercise the tail.
	for _, s := range []string{"", "a", "ab", "abc", "abcd", "abcde"} {
		if Murmur3([]byte(s)) == Murmur3([]byte(s+"x")) {
			t.Errorf("Murmur3 collides on %q", s)
		}
	}
	if got := Murmur3([]byte("")); got != 0 {
		t.Errorf("Murmur3(\"\") = %d, want 0", got)
	}
}

func TestAppendEscaped(t *testing.T) {
	tests := []struct{ in, want string }{
		{"de", "de"},
		{"", DefaultPartitionName},
		{".", "%2E"},
		{"..", "%2E%2E"},
		{"...", "..."},
		{"a.b", "a.b"},
		{"../../etc", "..%2F..%2Fetc"},
		{"a/b", "a%2Fb"},
		{`a\b`, "a%5Cb"},
		{"%2F", "%252F"},
		{"a=b", "a%3Db"},
		{"x\x00y", "x%00y"},
		{"\x01\x1f\x7f", "%01%1F%7F"},
		{"tab\there", "tab%09here"},
		{"line\nbreak", "line%0Abreak"},
		{`"#%'*/:=?\{[]^`, "%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%5B%5D%5E"},
		{"}~!@$&()+,;<>| `", "}~!@$&()+,;<>| `"}, // Hive leaves these as they are
		{"Köln", "Köln"},
		{"日本/東京", "日本%2F東京"},
		{"😀", "😀"},
		{"\xff\xfe", "%FF%FE"},        // not UTF-8
		{"a\xc3", "a%C3"},             // truncated UTF-8 sequence
		{"\xed\xa0\x80", "%ED%A0%80"}, // UTF-8-encoded surrogate: invalid
	}
	for _, tc := range tests {
		got := string(AppendEscaped(nil, []byte(tc.in), MaxValueBytes))
		if got != tc.want {
			t.Errorf("AppendEscaped(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if tc.in != "" && utf8.ValidString(tc.in) && Unescape(got) != tc.in {
			t.Errorf("Unescape(%q) = %q, want %q", got, Unescape(got), tc.in)
		}
	}
}

func TestLongValuesAreCappedAndHashed(t *testing.T) {
	long := strings.Repeat("a", 10<<10)
	got := string(AppendEscaped(nil, []byte(long), MaxValueBytes))
	if len(got) > MaxValueBytes {
		t.Fatalf("len = %d, want at most %d", len(got), MaxValueBytes)
	}
	if !strings.HasPrefix(got, strings.Repeat("a", MaxValueBytes-17)+"~") {
		t.Fatalf("got %q: want the value's prefix, then ~hash", got)
	}
	// Values differing only beyond the cut stay in distinct folders.
	other := string(AppendEscaped(nil, []byte(long[:len(long)-1]+"b"), MaxValueBytes))
	if other == got {
		t.Fatal("two long values share a folder")
	}
	// Exactly at the limit nothing is cut.
	exact := strings.Repeat("b", MaxValueBytes)
	if got := string(AppendEscaped(nil, []byte(exact), MaxValueBytes)); got != exact {
		t.Fatalf("a value of exactly %d bytes was changed to %q", MaxValueBytes, got)
	}
	// Cuts never split an escape or a UTF-8 sequence.
	for _, unit := range []string{"/", "é", "日", "😀", "a/", "ab/", "\xff"} {
		for pad := range 4 {
			v := strings.Repeat("x", pad) + strings.Repeat(unit, 400)
			got := string(AppendEscaped(nil, []byte(v), MaxValueBytes))
			if len(got) > MaxValueBytes || !utf8.ValidString(got) {
				t.Fatalf("%q×400: got %q (len %d)", unit, got, len(got))
			}
			body := got[:strings.LastIndexByte(got, '~')]
			if i := strings.LastIndexByte(body, '%'); i >= 0 && i+3 > len(body) {
				t.Fatalf("%q×400: the cut splits an escape: %q", unit, body)
			}
		}
	}
}

// No value, however hostile, can make a partition folder leave the
// destination prefix or be anything but one path component per field.
func TestHostileValuesStayInsideThePrefix(t *testing.T) {
	hostile := []string{
		"", ".", "..", "../..", "../../etc", "/etc/passwd", "a/b", `..\..\windows`, "%2F", "%2e%2e",
		"x\x00y", "\x00", "\r\n", "a/../../b", "~", "__HIVE_DEFAULT_PARTITION__", "=",
		strings.Repeat("../", 5000), strings.Repeat("é", 5000), strings.Repeat("\xff", 10<<10),
		"日本語", "🙂/🙃", "\u202e", "con", "nul", " ", "a ",
	}
	s, err := NewSpec([]string{"country", "truncate(300, name)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind([]format.Kind{format.KindString, format.KindString}); err != nil {
		t.Fatal(err)
	}
	const prefix = "/data/orders"
	for _, h := range hostile {
		got, err := s.AppendPath(nil, []format.Value{{Bytes: []byte(h)}, {Bytes: []byte(h)}})
		if err != nil {
			// Refused, not shortened: too long for a folder, or the
			// name of the null folder.
			var ve *ValueError
			if !errors.As(err, &ve) || !(len(h) > 66 || h == DefaultPartitionName) {
				t.Fatalf("%q: %v", h, err)
			}
			continue
		}
		parts := strings.Split(string(got), "/")
		if len(parts) != 2 || !strings.HasPrefix(parts[0], "country=") || !strings.HasPrefix(parts[1], "name_trunc=") {
			t.Fatalf("%q: folder %q is not two name=value components", h, got)
		}
		for _, p := range parts {
			if len(p) > MaxComponentBytes || p == "." || p == ".." || strings.ContainsAny(p, "\x00\\") || !utf8.ValidString(p) {
				t.Fatalf("%q: component %q is not a safe path component", h, p)
			}
		}
		full := path.Join(prefix, string(got), "part-00000000-00000.parquet")
		if !strings.HasPrefix(full, prefix+"/country=") || path.Clean(full) != full {
			t.Fatalf("%q: %q leaves %s", h, full, prefix)
		}
		if fp := filepath.Join(prefix, string(got)); !strings.HasPrefix(fp, prefix+string(filepath.Separator)) {
			t.Fatalf("%q: %q leaves %s", h, fp, prefix)
		}
	}
}

func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", ".", "..", "a/b", "%2F", "\x00", strings.Repeat("é/", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got := string(AppendEscaped(nil, []byte(v), MaxValueBytes))
		if got == "" || got == "." || got == ".." || len(got) > MaxValueBytes || !utf8.ValidString(got) {
			t.Fatalf("%q escapes to %q", v, got)
		}
		if strings.ContainsAny(got, "/\\\x00=") {
			t.Fatalf("%q escapes to %q, which holds a separator", v, got)
		}
		if v != "" && len(got) < MaxValueBytes-17 && utf8.ValidString(v) && Unescape(got) != v {
			t.Fatalf("%q escapes to %q, which reads back as %q", v, got, Unescape(got))
		}
	})
}
