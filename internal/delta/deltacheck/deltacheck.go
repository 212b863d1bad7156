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
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// File is a data file of the replayed snapshot.
type File struct {
	Key             string             // decoded, relative to the table
	Size            int64              //
	Records         int64              // the stats' numRecords; -1 without stats
	PartitionValues map[string]*string //
}

// Version is what one log entry did.
type Version struct {
	Number  int64
	Txns    map[string]int64
	Added   int      // add actions
	Records int64    // numRecords the adds count
	Actions []string // the action names, in order
}

// Table is the replayed table.
type Table struct {
	Versions         []Version
	Files            []File // sorted by key
	Txns             map[string]int64
	PartitionColumns []string
	SchemaFields     []string // "name:type"
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
	t := &Table{Txns: map[string]int64{}}
	files := map[string]File{}
	var partitionColumns []string
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
					f, ok := checkAdd(a, partitionColumns, func(msg string) { fail("%s: add: %s", where, msg) })
					if !ok {
						continue
					}
					if seenPaths[f.Key] {
						fail("%s: the path %s is added twice in one version", where, f.Key)
					}
					seenPaths[f.Key] = true
					files[f.Key] = f
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
	}
	t.PartitionColumns = partitionColumns
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
func checkAdd(a map[string]any, partitionColumns []string, fail func(string)) (File, bool) {
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
		for _, k := range []string{"minValues", "maxValues", "nullCount"} {
			if v, ok := stats[k]; ok {
				if _, isMap := v.(map[string]any); !isMap {
					fail(fmt.Sprintf("stats %s is not an object", k))
				}
			}
		}
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
