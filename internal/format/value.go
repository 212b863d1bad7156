package format

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
	// Bytes holds string, bytes and json values. For KindAny it holds the
	// string's unescaped content, or the literal JSON text of other tokens.
	Bytes []byte
	// Int holds int32, int64, timestamp (ms), date (days) and bool (0 or 1).
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
