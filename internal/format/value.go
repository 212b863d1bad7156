package format

import "github.com/streamctl/streamctl/internal/format/row"

// The value types live in package row, which the parquet package shares
// without importing this one; the aliases keep format's API whole.
type (
	Token = row.Token
	Value = row.Value
	Kind  = row.Kind
	Type  = row.Type
)

// The JSON token types.
const (
	TokNone   = row.TokNone
	TokNull   = row.TokNull
	TokString = row.TokString
	TokNumber = row.TokNumber
	TokBool   = row.TokBool
	TokObject = row.TokObject
	TokArray  = row.TokArray
)

// The kinds.
const (
	KindAny       = row.KindAny
	KindString    = row.KindString
	KindInt32     = row.KindInt32
	KindInt64     = row.KindInt64
	KindFloat     = row.KindFloat
	KindDouble    = row.KindDouble
	KindBool      = row.KindBool
	KindTimestamp = row.KindTimestamp
	KindDate      = row.KindDate
	KindBytes     = row.KindBytes
	KindJSON      = row.KindJSON
	KindDecimal   = row.KindDecimal
	KindStruct    = row.KindStruct
	KindList      = row.KindList
	KindMap       = row.KindMap
)

// ParseKind returns the kind named s (a column type; "any" is not one).
func ParseKind(s string) (Kind, error) { return row.ParseKind(s) }

// ParseType parses a column type (row.ParseType).
func ParseType(s string) (*Type, error) { return row.ParseType(s) }
