package config

import (
	"reflect"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// TestLayoutHashCoversEveryField: every field of Layout changes the hash,
// or is listed in hashExempt with the reason. A new field that decides the
// files must be hashed, or a retry could write other files.
func TestLayoutHashCoversEveryField(t *testing.T) {
	base := Layout{Format: "parquet", Compression: "zstd", RouteBy: "id", OnInvalid: "fail", PartitionBy: []string{"country"},
		MaxFileRecords: 10, RowGroupRecords: 100, Columns: []format.Column{{Name: "id", Type: "int64"}}}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		f := typ.Field(i)
		if _, exempt := hashExempt[f.Name]; exempt {
			continue
		}
		changed := base
		v := reflect.ValueOf(&changed).Elem().Field(i)
		if !v.CanSet() {
			t.Errorf("Layout.%s is unexported and not in hashExempt: hash it, or exempt it with the reason", f.Name)
			continue
		}
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int64, reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), v.Len()+1, v.Len()+1))
		default:
			t.Errorf("Layout.%s has kind %s, which this test does not change: extend it", f.Name, v.Kind())
			continue
		}
		if changed.Hash() == base.Hash() {
			t.Errorf("Layout.%s does not change Layout.Hash: hash it, or list it in hashExempt with the reason", f.Name)
		}
	}
	for name := range hashExempt {
		if _, ok := typ.FieldByName(name); !ok {
			t.Errorf("hashExempt lists %s, which Layout no longer has", name)
		}
	}
}

// TestLayoutHashIsStable pins the hash: batches in flight logged by an older
// streamctl carry it, and must still be resumed. The values are those the
// hash gave when it was computed in internal/command from the sink's
// configuration, then in internal/pipeline.
func TestLayoutHashIsStable(t *testing.T) {
	for _, tc := range []struct {
		l    Layout
		want string
	}{
		{Layout{Format: "jsonl", OnInvalid: "fail"}, "6e0ab5014e55250e"},
		// A row group size not declared is hashed as before it was filled in.
		{Layout{Format: "jsonl", OnInvalid: "fail", RowGroupRecords: DefaultRowGroupRecords, rowGroupDefaulted: true}, "6e0ab5014e55250e"},
		{Layout{Format: "parquet", Compression: "zstd", OnInvalid: "reject", PartitionBy: []string{"country", "day(ts)"}, MaxFileRecords: 500,
			RowGroupRecords: 131072, Columns: []format.Column{{Name: "id", Type: "int64"}, {Name: "country", Type: "string"}}}, "fbab245e0222f9c7"},
		// max_file_size came later: only a layout that sets it hashes it.
		{Layout{Format: "jsonl", OnInvalid: "fail", MaxFileSize: 128e6}, "987e256c31a27e16"},
	} {
		if got := tc.l.Hash(); got != tc.want {
			t.Errorf("Layout%+v.Hash() = %s, want %s", tc.l, got, tc.want)
		}
	}
}

// TestLayoutSettingsCoverEveryField: the plan names what changed from
// Settings, so every field the hash covers must change it too, or a layout
// change would be planned without saying which setting changed.
func TestLayoutSettingsCoverEveryField(t *testing.T) {
	base := Layout{Format: "parquet", Compression: "zstd", RouteBy: "id", OnInvalid: "fail", PartitionBy: []string{"country"},
		MaxFileRecords: 10, MaxFileSize: 1 << 20, RowGroupRecords: 100, Columns: []format.Column{{Name: "id", Type: "int64"}}}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		f := typ.Field(i)
		changed := base
		v := reflect.ValueOf(&changed).Elem().Field(i)
		if !v.CanSet() {
			continue // rowGroupDefaulted: TestLayoutSettingsLeaveOutARowGroupSizeNotDeclared
		}
		if _, exempt := hashExempt[f.Name]; exempt {
			continue // not hashed, so not a setting either (ColumnsFrom: its columns are)
		}
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int64, reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), v.Len()+1, v.Len()+1))
		default:
			t.Errorf("Layout.%s has kind %s, which this test does not change: extend it", f.Name, v.Kind())
			continue
		}
		if reflect.DeepEqual(changed.Settings(), base.Settings()) {
			t.Errorf("Layout.%s does not change Layout.Settings: render it there", f.Name)
		}
	}
}
