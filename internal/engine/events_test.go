package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestAllEventsListsEveryEvent: AllEvents, which the views' tests render,
// holds exactly the types that implement Event, as the package's source
// declares them, so that a new event cannot be left out of those tests.
func TestAllEventsListsEveryEvent(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "isEvent" || fn.Recv == nil {
				continue
			}
			id, ok := fn.Recv.List[0].Type.(*ast.Ident)
			if !ok {
				t.Fatalf("%s: isEvent has a pointer receiver: list its type's values in AllEvents and change this test", name)
			}
			declared = append(declared, id.Name)
		}
	}
	var listed []string
	for _, ev := range AllEvents() {
		listed = append(listed, reflect.TypeOf(ev).Name())
	}
	slices.Sort(declared)
	slices.Sort(listed)
	if len(declared) == 0 || !slices.Equal(declared, listed) {
		t.Errorf("AllEvents lists %v; the types that implement Event are %v", listed, declared)
	}
}
