package pipeline

import (
	"reflect"
	"testing"

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
