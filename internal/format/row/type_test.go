package row

import (
	"strings"
	"testing"
)

func TestParseType(t *testing.T) {
	tests := []struct {
		in, want string // want: the canonical form
	}{
		{"string", "string"},
		{"int64", "int64"},
		{"decimal(10,2)", "decimal(10,2)"},
		{" decimal ( 38 , 0 ) ", "decimal(38,0)"},
		{"decimal(1,1)", "decimal(1,1)"},
		{"list<string>", "list<string>"},
		{"list< list<decimal(5,3)> >", "list<list<decimal(5,3)>>"},
		{"map<string,double>", "map<string,double>"},
		{"map<string, map<string,list<int32>>>", "map<string,map<string,list<int32>>>"},
		{"struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>", "struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>"},
		{"struct< a : int32 , `zip-code` : string, `a``b`:bool >", "struct<a:int32,`zip-code`:string,`a``b`:bool>"},
		{"struct<tags:list<string>,attrs:map<string,json>>", "struct<tags:list<string>,attrs:map<string,json>>"},
	}
	for _, tt := range tests {
		got, err := ParseType(tt.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("ParseType(%q) = %s, want %s", tt.in, got, tt.want)
		}
		again, err := ParseType(got.String())
		if err != nil || !again.Equal(got) {
			t.Errorf("ParseType(%q) does not read back its String %s: %v", tt.in, got, err)
		}
	}
}

func TestParseTypeFields(t *testing.T) {
	typ, err := ParseType("struct<city:string,geo:struct<lat:double>,amount:decimal(20,4),tags:list<string>,m:map<string,int64>>")
	if err != nil {
		t.Fatal(err)
	}
	if typ.Kind != KindStruct || len(typ.Fields) != 5 {
		t.Fatalf("got %+v", typ)
	}
	if f := typ.Fields[1]; f.Name != "geo" || f.Type.Kind != KindStruct || f.Type.Fields[0].Type.Kind != KindDouble {
		t.Errorf("geo = %+v", f)
	}
	if d := typ.Fields[2].Type; d.Kind != KindDecimal || d.Precision != 20 || d.Scale != 4 || d.Decimal64() {
		t.Errorf("amount = %+v", d)
	}
	if l := typ.Fields[3].Type; l.Kind != KindList || l.Elem.Kind != KindString {
		t.Errorf("tags = %+v", l)
	}
	if m := typ.Fields[4].Type; m.Kind != KindMap || m.Key.Kind != KindString || m.Elem.Kind != KindInt64 {
		t.Errorf("m = %+v", m)
	}
}

func TestParseTypeErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"text", `unknown type "text" (want one of string, int32, int64, float, double, bool, timestamp, date, bytes, json, decimal(p,s), list<T>, map<string,T>, struct<name:T,…>)`},
		{"", `type "", at character 1: expected a type, found the end`},
		{"decimal", `type "decimal", at character 8: expected "(" after decimal (decimal(precision,scale), such as decimal(10,2))`},
		{"decimal(10)", `type "decimal(10)", at character 11: expected "," and the scale`},
		{"decimal(0,0)", `type "decimal(0,0)", at character 9: a decimal's precision is 1 to 38 digits, not 0`},
		{"decimal(39,2)", `at character 9: a decimal's precision is 1 to 38 digits, not 39`},
		{"decimal(5,6)", `type "decimal(5,6)", at character 11: a decimal's scale is 0 to its precision (5), not 6`},
		{"decimal(5,-1)", `at character 11: expected the scale, a number, found "-"`},
		{"decimal(99999999999999999999,1)", `the precision 99999999999999999999,1) is too large`},
		{"list<strin>", `type "list<strin>", at character 6: unknown type "strin"`},
		{"list<string", `type "list<string", at character 12: expected ">" to close list<, found the end`},
		{"list string", `at character 6: expected "<" after list (list<element type>), found "s"`},
		{"map<int64,string>", `type "map<int64,string>", at character 5: a map's key must be string, not int64: maps are read from JSON objects, whose keys are strings`},
		{"map<string>", `at character 11: expected "," between a map's key and value types, found ">"`},
		{"struct<>", `at character 8: expected a field name (letters, digits and _, or any text between backquotes), found ">"`},
		{"struct<a int32>", `at character 10: expected ":" and the type of field "a", found "i"`},
		{"struct<a:int32;b:int32>", `at character 15: expected "," and another field, or ">" to close struct<, found ";"`},
		{"struct<a:int32,a:string>", `at character 16: the struct field "a" is declared twice`},
		{"struct<`a:int32>", "at character 8: the backquote that opens a field name is not closed"},
		{"struct<``:int32>", "at character 8: a struct field's name is empty"},
		{"string>", `at character 7: unexpected ">" after the type string`},
		{"decimal(10,2) x", `at character 15: unexpected "x" after the type decimal(10,2)`},
		{"any", `unknown type "any"`},
		{strings.Repeat("list<", 70) + "string" + strings.Repeat(">", 70), "types nest deeper than 64 levels"},
	}
	for _, tt := range tests {
		_, err := ParseType(tt.in)
		if err == nil {
			t.Errorf("ParseType(%q) = nil error, want %q", tt.in, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseType(%q):\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"decimal(10,2)", "struct<a:list<map<string,int32>>,`b``c`:date>", "map<string,bytes>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseType(s)
		if err != nil {
			return
		}
		again, err := ParseType(typ.String())
		if err != nil {
			t.Fatalf("%q parsed as %s, which does not parse: %v", s, typ, err)
		}
		if !again.Equal(typ) {
			t.Fatalf("%q parsed as %s, which parses as %s", s, typ, again)
		}
	})
}
