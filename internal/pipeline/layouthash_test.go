package pipeline

import (
	"reflect"
	"testing"

	"github.com/streamctl/streamctl/internal/format"

	"github.com/streamctl/streamctl/internal/config"
)

// TestLayoutFieldsAreHashed: every field of Layout is a setting of
// config.Layout, whose Hash covers it (config's
// TestLayoutHashCoversEveryField), or is listed in hashExempt with the
// reason. A new field that decides the files must be hashed, or a retry
// could write other files.
func TestLayoutFieldsAreHashed(t *testing.T) {
	declared := reflect.TypeOf(config.Layout{})
	typ := reflect.TypeOf(Layout{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		if _, exempt := hashExempt[f.Name]; exempt {
			continue
		}
		if _, ok := declared.FieldByName(f.Name); !ok || !f.IsExported() {
			t.Errorf("Layout.%s is not a field of config.Layout, which the layout hash covers: declare and hash it there, or list it in hashExempt with the reason", f.Name)
		}
	}
	for name := range hashExempt {
		if _, ok := typ.FieldByName(name); !ok {
			t.Errorf("hashExempt lists %s, which Layout no longer has", name)
		}
	}
}

// TestLayoutSettingsCoverEveryField: the plan names what changed from
// Settings, so every field the hash covers must change it too, or a layout
// change would be planned without saying which setting changed.
func TestLayoutSettingsCoverEveryField(t *testing.T) {
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
