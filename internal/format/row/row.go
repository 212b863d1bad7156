// Package row holds the kinds of columns and the values extracted for them:
// what the format package's extractor yields and its encoders (CSV, JSONL,
// and the parquet package's) consume. It imports nothing of streamctl, so
// that the encoders need not import the format package that selects them.
package row

import (
	"fmt"
)

// Token is the JSON token type a value was read from.
type Token uint8

// The JSON token types.
const (
	TokNone Token = iota // missing, or not from JSON (metadata)
	TokNull
	TokString
	TokNumber
	TokBool
	TokObject
	TokArray
)

var tokenNames = [...]string{"nothing", "null", "a string", "a number", "a boolean", "an object", "an array"}

func (t Token) String() string { return tokenNames[t] }

// Value is one extracted field. Which member holds it depends on the field's
// kind; byte slices point into the record or the extractor's scratch memory
// and are only valid until the next Extract.
type Value struct {
	// Bytes holds string, bytes and json values, a wide decimal's 16 bytes
	// and a nested value's normalised JSON. For KindAny it holds the
	// string's unescaped content, or the literal JSON text of other tokens.
	Bytes []byte
	// Int holds int32, int64, timestamp (ms), date (days), bool (0 or 1)
	// and a decimal's unscaled value up to precision 18.
	Int int64
	// Float holds float and double.
	Float float64
	// Null is set for a missing field, a JSON null, and a field that failed
	// to convert (then Invalid is set too).
	Null bool
	// Invalid marks a field whose conversion failed; Extract returned the
	// reason for the first such field.
	Invalid bool
	// Token is the JSON token the value came from (TokNone for metadata).
	Token Token
}

// Kind is a value type. Its String form is the name used in configuration.
type Kind uint8

// The kinds. KindAny is for fields read without a declared column (a
// partition_by or route_by field of a sink without columns): the value keeps
// its JSON token type.
const (
	KindAny Kind = iota
	KindString
	KindInt32
	KindInt64
	KindFloat
	KindDouble
	KindBool
	KindTimestamp // milliseconds since the Unix epoch, UTC
	KindDate      // days since the Unix epoch
	KindBytes
	KindJSON // raw JSON text of any value
	// The kinds with parameters (Type holds them).
	KindDecimal // unscaled integer: Int up to precision 18, else 16 bytes big-endian two's complement in Bytes
	KindStruct
	KindList
	KindMap
)

var kindNames = [...]string{
	KindAny:       "any",
	KindString:    "string",
	KindInt32:     "int32",
	KindInt64:     "int64",
	KindFloat:     "float",
	KindDouble:    "double",
	KindBool:      "bool",
	KindTimestamp: "timestamp",
	KindDate:      "date",
	KindBytes:     "bytes",
	KindJSON:      "json",
	KindDecimal:   "decimal",
	KindStruct:    "struct",
	KindList:      "list",
	KindMap:       "map",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// HoldsBytes reports whether values of kind k keep their content in
// Value.Bytes. Extract leaves Bytes nil for the other kinds, so a copy of a
// record's values need only copy the bytes of these.
func (k Kind) HoldsBytes() bool {
	return k == KindAny || k == KindString || k == KindBytes || k == KindJSON || k >= KindDecimal
}

// ParseKind returns the kind of the column type s (see ParseType).
func ParseKind(s string) (Kind, error) {
	t, err := ParseType(s)
	if err != nil {
		return 0, err
	}
	return t.Kind, nil
}
