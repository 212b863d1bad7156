package storagetest

import (
	"reflect"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

// Wrapper checks a wrapper of stores (providers/faulty, providers/logged):
// wrapped, each of stores has exactly its Features, and each capability is
// one of the wrapper's own, not the store's passed through, whose calls the
// wrapper would then neither fault nor log. Between them, stores must have
// every capability of Features and declare every property, so that a field
// added to Features fails here until a wrapper wraps it.
func Wrapper(t *testing.T, wrap func(providers.Storage) providers.Storage, stores ...providers.Storage) {
	t.Helper()
	typ := reflect.TypeFor[providers.Features]()
	checked := make([]bool, typ.NumField())
	for _, s := range stores {
		bare, wrapped := reflect.ValueOf(s.Features()), reflect.ValueOf(wrap(s).Features())
		for i := range typ.NumField() {
			name := typ.Field(i).Name
			b, w := bare.Field(i), wrapped.Field(i)
			switch {
			case b.Kind() != reflect.Interface:
				if !b.Equal(w) {
					t.Errorf("%s: %s: wrapped, the store says %v, bare %v", s.Describe(), name, w, b)
				}
				checked[i] = checked[i] || !b.IsZero()
			case b.IsNil() != w.IsNil():
				t.Errorf("%s: %s: wrapped, the store has it: %v; bare: %v", s.Describe(), name, !w.IsNil(), !b.IsNil())
			case !b.IsNil():
				checked[i] = true
				if reflect.TypeOf(w.Interface()) == reflect.TypeOf(b.Interface()) {
					t.Errorf("%s: %s is passed through unwrapped (%T): wrap its calls", s.Describe(), name, w.Interface())
				}
			}
		}
	}
	for i, ok := range checked {
		if !ok {
			t.Errorf("no store given has %s: give one that has, so that its wrapping is checked", typ.Field(i).Name)
		}
	}
}
