// Package deltacheck replays a Delta table's log as the protocol text
// (delta-io/delta PROTOCOL.md) describes it, checking every log entry against
// the protocol's rules, for tests. It shares no code with package delta, the
// writer it checks: a misreading of the protocol there is not repeated here.
package deltacheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// File is a data file of the replayed snapshot.
type File struct {
	Key             string             // decoded, relative to the table
	Size            int64              //
	Records         int64              // the stats' numRecords; -1 without stats
	PartitionValues map[string]*string //
	// Min, Max and Nulls are the stats' minValues, maxValues and nullCount,
	// as JSON decodes them (numbers as float64); nil without.
	Min, Max, Nulls map[string]any
}

// Version is what one log entry did.
type Version struct {
	Number  int64
	Txns    map[string]int64
	Added   int      // add actions
	Records int64    // numRecords the adds count
	Actions []string // the action names, in order

	adds    []File   // for the replay from the checkpoint
	removes []string // decoded keys
}

// Table is the replayed table.
type Table struct {
	Versions         []Version
	Files            []File // sorted by key
	Txns             map[string]int64
	PartitionColumns []string
	SchemaFields     []string // "name:type"
	// Checkpoint is the version of the checkpoint _last_checkpoint names,
	// checked against the replay; -1 without.
	Checkpoint int64
}

var entryName = regexp.MustCompile(`^_delta_log/(\d{20})\.json$`)

// Replay reads and checks the log in store's _delta_log. Every problem it
// finds is returned, joined: a log that breaks a rule is an error even when
// it replays.
func Replay(ctx context.Context, store providers.Storage) (*Table, error) {
	var versions []int64
	err := store.List(ctx, "_delta_log/", func(info providers.ObjectInfo) error {
		if m := entryName.FindStringSubmatch(info.Key); m != nil {
			v, _ := strconv.ParseInt(m[1], 10, 64)
			versions = append(versions, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var problems []error
	fail := func(format string, args ...any) { problems = append(problems, fmt.Errorf(format, args...)) }
	for i, v := range versions {
		if v != int64(i) {
			fail("the log's versions are not contiguous from 0: version %d at position %d", v, i)
			return nil, errors.Join(problems...)
		}
	}
	t := &Table{Txns: map[string]int64{}, Checkpoint: -1}
	// A reader starts at the checkpoint _last_checkpoint names: it must be
	// the very snapshot the versions up to it replay to.
	cp, _, err := ReadCheckpoint(ctx, store)
	if err != nil {
		problems = append(problems, err)
	}
	if cp != nil {
		t.Checkpoint = cp.Version
		if cp.Version >= int64(len(versions)) {
			fail("_last_checkpoint names version %d, after the log's last, %d", cp.Version, len(versions)-1)
		}
	}
	files := map[string]File{}
	var partitionColumns []string
	types := map[string]string{} // the schema's column types
	haveProtocol, haveMeta := false, false
	for _, v := range versions {
		key := fmt.Sprintf("_delta_log/%020d.json", v)
		data, _, err := providers.ReadAll(ctx, store, key)
		if err != nil {
			return nil, err
		}
		ver := Version{Number: v, Txns: map[string]int64{}}
		seenPaths := map[string]bool{}
		counts := map[string]int{}
		for n, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			where := fmt.Sprintf("%s line %d", key, n+1)
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(line, &obj); err != nil {
				fail("%s: not a JSON object: %v", where, err)
				continue
			}
			if len(obj) != 1 {
				fail("%s: an action is an object with one key, got %d", where, len(obj))
				continue
			}
			for name, raw := range obj {
				ver.Actions = append(ver.Actions, name)
				counts[name]++
				var a map[string]any
				if err := json.Unmarshal(raw, &a); err != nil {
					fail("%s: %s is not an object", where, name)
					continue
				}
				switch name {
				case "protocol":
					haveProtocol = true
					r, ok1 := a["minReaderVersion"].(float64)
					w, ok2 := a["minWriterVersion"].(float64)
					if !ok1 || !ok2 || r < 1 || w < 1 {
						fail("%s: protocol needs minReaderVersion and minWriterVersion", where)
					}
				case "metaData":
					haveMeta = true
					if s, _ := a["id"].(string); s == "" {
						fail("%s: metaData needs an id", where)
					}
					f, _ := a["format"].(map[string]any)
					if p, _ := f["provider"].(string); p != "parquet" {
						fail("%s: metaData.format.provider is %v, want parquet", where, f["provider"])
					}
					if _, ok := a["configuration"].(map[string]any); !ok {
						fail("%s: metaData needs configuration (a map)", where)
					}
					pcs, ok := a["partitionColumns"].([]any)
					if !ok {
						fail("%s: metaData needs partitionColumns (an array)", where)
					}
					partitionColumns = partitionColumns[:0]
					for _, c := range pcs {
						s, _ := c.(string)
						partitionColumns = append(partitionColumns, s)
					}
					t.SchemaFields = nil
					types = map[string]string{}
					var schema struct {
						Type   string `json:"type"`
						Fields []struct {
							Name     string          `json:"name"`
							Type     json.RawMessage `json:"type"`
							Nullable *bool           `json:"nullable"`
							Metadata map[string]any  `json:"metadata"`
						} `json:"fields"`
					}
					s, _ := a["schemaString"].(string)
					if err := json.Unmarshal([]byte(s), &schema); err != nil || schema.Type != "struct" {
						fail("%s: schemaString is not a struct type: %q", where, s)
					}
					names := map[string]bool{}
					for _, fld := range schema.Fields {
						typ, ok := typeText(fld.Type)
						if !ok || fld.Name == "" || fld.Nullable == nil || fld.Metadata == nil {
							fail("%s: schema field %q needs name, a type (a primitive, or a struct, array or map of them), nullable and metadata", where, fld.Name)
						}
						names[fld.Name] = true
						types[fld.Name] = typ
						t.SchemaFields = append(t.SchemaFields, fld.Name+":"+typ)
					}
					for _, c := range partitionColumns {
						if !names[c] {
							fail("%s: partition column %q is not in the schema", where, c)
						}
					}
				case "txn":
					app, ok1 := a["appId"].(string)
					ver2, ok2 := a["version"].(float64)
					if !ok1 || !ok2 || app == "" {
						fail("%s: txn needs appId and version", where)
						continue
					}
					if _, dup := ver.Txns[app]; dup {
						fail("%s: two txn actions for appId %q in one version", where, app)
					}
					ver.Txns[app] = int64(ver2)
					t.Txns[app] = int64(ver2)
				case "add":
					f, ok := checkAdd(a, partitionColumns, types, func(msg string) { fail("%s: add: %s", where, msg) })
					if !ok {
						continue
					}
					if seenPaths[f.Key] {
						fail("%s: the path %s is added twice in one version", where, f.Key)
					}
					seenPaths[f.Key] = true
					files[f.Key] = f
					ver.adds = append(ver.adds, f)
					ver.Added++
					ver.Records += max(f.Records, 0)
				case "remove":
					p, _ := a["path"].(string)
					k, err := url.PathUnescape(p)
					if err != nil || p == "" {
						fail("%s: remove needs a path URI", where)
					}
					if _, ok := a["dataChange"].(bool); !ok {
						fail("%s: remove needs dataChange", where)
					}
					delete(files, k)
					ver.removes = append(ver.removes, k)
				case "commitInfo", "cdc", "domainMetadata", "checkpointMetadata", "sidecar":
				default:
					fail("%s: unknown action %q", where, name)
				}
			}
		}
		if counts["metaData"] > 1 || counts["protocol"] > 1 {
			fail("%s: at most one metaData and one protocol a version", key)
		}
		if v == 0 && (!haveProtocol || !haveMeta) {
			fail("%s: version 0 needs protocol and metaData", key)
		}
		t.Versions = append(t.Versions, ver)
		if cp != nil && cp.Version == v {
			compareCheckpoint(cp, files, t.Txns, partitionColumns, fail)
		}
	}
	t.PartitionColumns = partitionColumns
	if cp != nil && cp.Version < int64(len(versions)) {
		compareFromCheckpoint(cp, t.Versions, files, t.Txns, fail)
	}
	for _, f := range files {
		t.Files = append(t.Files, f)
	}
	sort.Slice(t.Files, func(i, j int) bool { return t.Files[i].Key < t.Files[j].Key })
	for _, f := range t.Files {
		info, err := store.Stat(ctx, f.Key)
		if err != nil {
			fail("the snapshot's file %s: %v", f.Key, err)
		} else if info.Size != f.Size {
			fail("the snapshot's file %s holds %d bytes, its add action says %d", f.Key, info.Size, f.Size)
		}
	}
	return t, errors.Join(problems...)
}

// checkAdd checks an add action's fields and reads its file.
func checkAdd(a map[string]any, partitionColumns []string, types map[string]string, fail func(string)) (File, bool) {
	p, _ := a["path"].(string)
	if p == "" {
		fail("no path")
		return File{}, false
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(p, "/") {
		fail(fmt.Sprintf("path %q is not a relative URI", p))
		return File{}, false
	}
	key, err := url.PathUnescape(p)
	if err != nil {
		fail(fmt.Sprintf("path %q does not decode: %v", p, err))
		return File{}, false
	}
	f := File{Key: key, Records: -1, PartitionValues: map[string]*string{}}
	size, ok := a["size"].(float64)
	if !ok || size < 0 {
		fail("size is missing")
	}
	f.Size = int64(size)
	if _, ok := a["modificationTime"].(float64); !ok {
		fail("modificationTime is missing")
	}
	if dc, ok := a["dataChange"].(bool); !ok || !dc {
		fail("dataChange must be true for an append")
	}
	pv, ok := a["partitionValues"].(map[string]any)
	if !ok {
		fail("partitionValues is missing")
	}
	if len(pv) != len(partitionColumns) {
		fail(fmt.Sprintf("partitionValues %v for partition columns %q", pv, partitionColumns))
	}
	for _, c := range partitionColumns {
		v, present := pv[c]
		switch v := v.(type) {
		case string:
			f.PartitionValues[c] = &v
		case nil:
			if !present {
				fail(fmt.Sprintf("no partition value for %q", c))
			}
			f.PartitionValues[c] = nil
		default:
			fail(fmt.Sprintf("partition value of %q is not a string or null", c))
		}
	}
	if s, present := a["stats"]; present {
		str, _ := s.(string)
		var stats map[string]any
		if err := json.Unmarshal([]byte(str), &stats); err != nil {
			fail(fmt.Sprintf("stats %q is not a JSON object", str))
		} else if n, ok := stats["numRecords"].(float64); !ok || n < 0 {
			fail(fmt.Sprintf("stats %q has no numRecords", str))
		} else {
			f.Records = int64(n)
		}
		checkStats(stats, f.Records, partitionColumns, types, fail)
		f.Min, _ = stats["minValues"].(map[string]any)
		f.Max, _ = stats["maxValues"].(map[string]any)
		f.Nulls, _ = stats["nullCount"].(map[string]any)
	}
	return f, true
}

// typeText renders a schema field's type (a primitive's name, or a nested
// struct, array or map, checked for the fields the protocol gives each) as
// the test compares it: long, array<string>, map<string,long>,
// struct<a:long,b:array<double>>.
func typeText(raw json.RawMessage) (string, bool) {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return name, name != ""
	}
	var t struct {
		Type              string          `json:"type"`
		ElementType       json.RawMessage `json:"elementType"`
		ContainsNull      *bool           `json:"containsNull"`
		KeyType           json.RawMessage `json:"keyType"`
		ValueType         json.RawMessage `json:"valueType"`
		ValueContainsNull *bool           `json:"valueContainsNull"`
		Fields            []struct {
			Name     string          `json:"name"`
			Type     json.RawMessage `json:"type"`
			Nullable *bool           `json:"nullable"`
			Metadata map[string]any  `json:"metadata"`
		} `json:"fields"`
	}
	if json.Unmarshal(raw, &t) != nil {
		return "", false
	}
	switch t.Type {
	case "array":
		e, ok := typeText(t.ElementType)
		return "array<" + e + ">", ok && t.ContainsNull != nil
	case "map":
		k, ok1 := typeText(t.KeyType)
		v, ok2 := typeText(t.ValueType)
		return "map<" + k + "," + v + ">", ok1 && ok2 && t.ValueContainsNull != nil
	case "struct":
		var parts []string
		for _, f := range t.Fields {
			ft, ok := typeText(f.Type)
			if !ok || f.Name == "" || f.Nullable == nil || f.Metadata == nil {
				return "", false
			}
			parts = append(parts, f.Name+":"+ft)
		}
		return "struct<" + strings.Join(parts, ",") + ">", len(t.Fields) > 0
	}
	return "", false
}

var (
	dateForm      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timestampForm = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$`)
)

// checkStats checks an add's stats against the protocol's Per-file
// Statistics: minValues and maxValues hold leaf columns of the schema
// (not partition columns, whose values are the file's partition values) in
// the JSON encoding of their type, each min at most its max; nullCount
// holds counts between 0 and numRecords.
func checkStats(stats map[string]any, records int64, partitionColumns []string, types map[string]string, fail func(string)) {
	maps := map[string]map[string]any{}
	for _, k := range []string{"minValues", "maxValues", "nullCount"} {
		v, ok := stats[k]
		if !ok {
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			fail(fmt.Sprintf("stats %s is not an object", k))
			continue
		}
		maps[k] = m
		for col, val := range m {
			typ, known := types[col]
			switch {
			case !known:
				fail(fmt.Sprintf("stats %s names %q, not a column of the schema", k, col))
				continue
			case slices.Contains(partitionColumns, col):
				fail(fmt.Sprintf("stats %s names the partition column %q", k, col))
				continue
			}
			if k == "nullCount" {
				n, ok := val.(float64)
				if !ok || n != math.Trunc(n) || n < 0 || records >= 0 && int64(n) > records {
					fail(fmt.Sprintf("stats nullCount of %q is %v, not a count up to numRecords %d", col, val, records))
				}
				continue
			}
			if msg := checkStatValue(typ, val); msg != "" {
				fail(fmt.Sprintf("stats %s of %q (%s): %s", k, col, typ, msg))
			}
		}
	}
	for col, lo := range maps["minValues"] {
		hi, ok := maps["maxValues"][col]
		if !ok {
			continue
		}
		var less bool
		switch lo := lo.(type) {
		case float64:
			h, _ := hi.(float64)
			less = lo <= h
		case string:
			h, _ := hi.(string)
			if types[col] == "timestamp" {
				a, err1 := time.Parse(time.RFC3339Nano, lo)
				b, err2 := time.Parse(time.RFC3339Nano, h)
				less = err1 != nil || err2 != nil || !b.Before(a) // a bad form failed above
			} else {
				less = lo <= h
			}
		}
		if !less {
			fail(fmt.Sprintf("stats of %q: min %v above max %v", col, lo, hi))
		}
	}
}

// checkStatValue says what is wrong with a min or max of a column of type
// typ, "" when nothing.
func checkStatValue(typ string, v any) string {
	switch typ {
	case "long", "integer", "short", "byte":
		n, ok := v.(float64)
		limit := map[string]float64{"long": math.MaxInt64, "integer": math.MaxInt32, "short": math.MaxInt16, "byte": math.MaxInt8}[typ]
		if !ok || n != math.Trunc(n) || n > limit || n < -limit-1 {
			return fmt.Sprintf("%v is not an integer of the type", v)
		}
	case "double", "float":
		if _, ok := v.(float64); !ok {
			return fmt.Sprintf("%v is not a number", v)
		}
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("%v is not a string", v)
		}
	case "date":
		s, _ := v.(string)
		if !dateForm.MatchString(s) {
			return fmt.Sprintf("%v is not a date (yyyy-MM-dd)", v)
		}
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return err.Error()
		}
	case "timestamp":
		s, _ := v.(string)
		if !timestampForm.MatchString(s) {
			return fmt.Sprintf("%v is not an ISO-8601 timestamp with its offset", v)
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return err.Error()
		}
	default:
		return "the protocol keeps no min or max of this type"
	}
	return ""
}

// compareCheckpoint checks that a checkpoint holds the snapshot the log's
// versions up to it replay to: the same files (size, partition values,
// record counts), the same latest txn of each application, the same
// partition columns.
func compareCheckpoint(cp *Checkpoint, files map[string]File, txns map[string]int64, partitionColumns []string, fail func(string, ...any)) {
	where := fmt.Sprintf("the checkpoint of version %d", cp.Version)
	for k, f := range files {
		c, ok := cp.Files[k]
		switch {
		case !ok:
			fail("%s lacks the file %s", where, k)
		case c.Size != f.Size || c.Records != f.Records:
			fail("%s has %s with %d bytes and %d records, the log %d and %d", where, k, c.Size, c.Records, f.Size, f.Records)
		case fmt.Sprint(derefAll(c.PartitionValues)) != fmt.Sprint(derefAll(f.PartitionValues)):
			fail("%s has %s in partition %v, the log in %v", where, k, derefAll(c.PartitionValues), derefAll(f.PartitionValues))
		}
	}
	for k := range cp.Files {
		if _, ok := files[k]; !ok {
			fail("%s adds %s, which the log does not hold at that version", where, k)
		}
	}
	if fmt.Sprint(cp.Txns) != fmt.Sprint(txns) {
		fail("%s has the txns %v, the log %v", where, cp.Txns, txns)
	}
	if strings.Join(cp.PartitionColumns, ",") != strings.Join(partitionColumns, ",") {
		fail("%s is partitioned by %q, the log by %q", where, cp.PartitionColumns, partitionColumns)
	}
}

// compareFromCheckpoint replays the log as a reader does, from the
// checkpoint and the versions after it, and checks that it finds the
// snapshot the whole log replays to: the same files and latest txns.
func compareFromCheckpoint(cp *Checkpoint, versions []Version, files map[string]File, txns map[string]int64, fail func(string, ...any)) {
	fromCheckpoint := maps.Clone(cp.Files)
	latest := maps.Clone(cp.Txns)
	for _, v := range versions[cp.Version+1:] {
		for _, f := range v.adds {
			fromCheckpoint[f.Key] = f
		}
		for _, k := range v.removes {
			delete(fromCheckpoint, k)
		}
		maps.Copy(latest, v.Txns)
	}
	where := fmt.Sprintf("the replay from the checkpoint of version %d", cp.Version)
	if got, want := slices.Sorted(maps.Keys(fromCheckpoint)), slices.Sorted(maps.Keys(files)); !slices.Equal(got, want) {
		fail("%s finds %d files, the whole log's replay %d: %q, want %q", where, len(got), len(want), got, want)
	}
	for k, f := range files {
		if c, ok := fromCheckpoint[k]; ok && (c.Size != f.Size || c.Records != f.Records) {
			fail("%s has %s with %d bytes and %d records, the whole log %d and %d", where, k, c.Size, c.Records, f.Size, f.Records)
		}
	}
	if fmt.Sprint(latest) != fmt.Sprint(txns) {
		fail("%s finds the txns %v, the whole log %v", where, latest, txns)
	}
}

func derefAll(m map[string]*string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if v == nil {
			out[k] = "<null>"
		} else {
			out[k] = *v
		}
	}
	return out
}
