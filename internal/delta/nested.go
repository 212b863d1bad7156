package delta

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"
)

// A minimal Parquet writer of nested columns, for checkpoints: the
// project's Parquet writer (internal/format/parquet) writes flat columns,
// and a checkpoint's actions are structs holding maps and lists. It writes
// one row group of uncompressed PLAIN pages, one page a column, with the
// repetition and definition levels of the Dremel encoding that the Parquet
// format describes: a checkpoint is small next to the data it lists, and
// written once every few commits.

// nodeKind is what a schema node is.
type nodeKind int

const (
	nodeStruct nodeKind = iota
	nodeMap             // map<string,string>: a value is a map[string]*string
	nodeList            // array<string>: a value is a []string
	nodeString
	nodeLong
	nodeInt
	nodeBool
)

// node is a field of a nested schema. Every field is optional (nullable),
// map keys aside, as the protocol's checkpoint schema has them.
type node struct {
	name     string
	kind     nodeKind
	children []*node // of a struct
}

func group(name string, children ...*node) *node {
	return &node{name: name, kind: nodeStruct, children: children}
}
func leaf(name string, kind nodeKind) *node { return &node{name: name, kind: kind} }

// levelValue is one entry of a leaf column: its levels, and its value when
// it is defined down to the leaf.
type levelValue struct {
	rep, def int
	value    any // string, int64, int32 or bool; nil when not defined
}

// column is a leaf column being written.
type column struct {
	path           []string
	kind           nodeKind // nodeString, nodeLong, nodeInt or nodeBool
	maxDef, maxRep int
	entries        []levelValue
}

// nestedWriter shreds rows of a schema into its leaf columns.
type nestedWriter struct {
	root    []*node
	columns map[*node][]*column // the leaf columns under each node
	leaves  []*column           // in schema order
	leafOf  map[*node]*column   // a primitive's column, a map's values, a list's elements
	keyOf   map[*node]*column   // a map's keys
	rows    int64
}

func newNestedWriter(root ...*node) *nestedWriter {
	w := &nestedWriter{root: root, columns: map[*node][]*column{}, leafOf: map[*node]*column{}, keyOf: map[*node]*column{}}
	var walk func(n *node, parent []string, def int) []*column
	walk = func(n *node, parent []string, def int) []*column {
		path := append(slices.Clone(parent), n.name)
		var cols []*column
		switch n.kind {
		case nodeStruct:
			for _, c := range n.children {
				cols = append(cols, walk(c, path, def+1)...)
			}
		case nodeMap:
			// optional group (MAP) { repeated group key_value { required key; optional value } }
			k := &column{path: append(slices.Clone(path), "key_value", "key"), kind: nodeString, maxDef: def + 2, maxRep: 1}
			v := &column{path: append(slices.Clone(path), "key_value", "value"), kind: nodeString, maxDef: def + 3, maxRep: 1}
			w.keyOf[n], w.leafOf[n] = k, v
			cols = []*column{k, v}
		case nodeList:
			// optional group (LIST) { repeated group list { optional element } }
			e := &column{path: append(slices.Clone(path), "list", "element"), kind: nodeString, maxDef: def + 3, maxRep: 1}
			w.leafOf[n] = e
			cols = []*column{e}
		default:
			c := &column{path: path, kind: n.kind, maxDef: def + 1}
			w.leafOf[n] = c
			cols = []*column{c}
		}
		w.columns[n] = cols
		return cols
	}
	for _, n := range root {
		w.leaves = append(w.leaves, walk(n, nil, 0)...)
	}
	return w
}

// add writes a row: the root fields' values by name (a struct's value is a
// map[string]any; nil or missing is null).
func (w *nestedWriter) add(row map[string]any) {
	for _, n := range w.root {
		w.shred(n, row[n.name], 0, 0)
	}
	w.rows++
}

// shred writes value v of node n at repetition level rep; def is the
// definition level of n's parent.
func (w *nestedWriter) shred(n *node, v any, rep, def int) {
	if isNull(v) {
		for _, c := range w.columns[n] {
			c.entries = append(c.entries, levelValue{rep: rep, def: def})
		}
		return
	}
	def++
	switch n.kind {
	case nodeStruct:
		m := v.(map[string]any)
		for _, c := range n.children {
			w.shred(c, m[c.name], rep, def)
		}
	case nodeMap:
		m := v.(map[string]*string)
		k, val := w.keyOf[n], w.leafOf[n]
		if len(m) == 0 {
			k.entries = append(k.entries, levelValue{rep: rep, def: def})
			val.entries = append(val.entries, levelValue{rep: rep, def: def})
			return
		}
		keys := make([]string, 0, len(m))
		for key := range m {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		for i, key := range keys {
			r := rep
			if i > 0 {
				r = 1
			}
			k.entries = append(k.entries, levelValue{rep: r, def: def + 1, value: key})
			if m[key] == nil {
				val.entries = append(val.entries, levelValue{rep: r, def: def + 1})
			} else {
				val.entries = append(val.entries, levelValue{rep: r, def: def + 2, value: *m[key]})
			}
		}
	case nodeList:
		l := v.([]string)
		e := w.leafOf[n]
		if len(l) == 0 {
			e.entries = append(e.entries, levelValue{rep: rep, def: def})
			return
		}
		for i, s := range l {
			r := rep
			if i > 0 {
				r = 1
			}
			e.entries = append(e.entries, levelValue{rep: r, def: def + 2, value: s})
		}
	default:
		c := w.leafOf[n]
		c.entries = append(c.entries, levelValue{rep: rep, def: def, value: v})
	}
}

func isNull(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case map[string]any:
		return v == nil
	case map[string]*string:
		return v == nil
	case []string:
		return v == nil
	}
	return false
}

// write is the Parquet file of the rows added.
func (w *nestedWriter) write() ([]byte, error) {
	var out bytes.Buffer
	out.WriteString("PAR1")
	rg := pq.RowGroup{NumRows: w.rows}
	for _, c := range w.leaves {
		page, values, err := c.page()
		if err != nil {
			return nil, fmt.Errorf("column %v: %w", c.path, err)
		}
		header, err := thrift.Marshal(new(thrift.CompactProtocol), &pq.PageHeader{
			Type:                 pq.DataPage,
			UncompressedPageSize: int32(len(page)),
			CompressedPageSize:   int32(len(page)),
			DataPageHeader: thrift.New(pq.DataPageHeader{
				NumValues:               int32(values),
				Encoding:                pq.Plain,
				DefinitionLevelEncoding: pq.RLE,
				RepetitionLevelEncoding: pq.RLE,
			}),
		})
		if err != nil {
			return nil, err
		}
		offset := int64(out.Len())
		out.Write(header)
		out.Write(page)
		size := int64(len(header) + len(page))
		rg.Columns = append(rg.Columns, pq.ColumnChunk{FileOffset: offset, MetaData: pq.ColumnMetaData{
			Type: c.physical(), Encoding: []pq.Encoding{pq.Plain, pq.RLE}, PathInSchema: c.path, Codec: pq.Uncompressed,
			NumValues: values, TotalUncompressedSize: size, TotalCompressedSize: size, DataPageOffset: offset,
		}})
		rg.TotalByteSize += size
	}
	meta := pq.FileMetaData{Version: 1, Schema: w.schema(), NumRows: w.rows, RowGroups: []pq.RowGroup{rg}, CreatedBy: "streamctl"}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &meta)
	if err != nil {
		return nil, err
	}
	out.Write(footer)
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	out.WriteString("PAR1")
	return out.Bytes(), nil
}

func (c *column) physical() pq.Type {
	switch c.kind {
	case nodeLong:
		return pq.Int64
	case nodeInt:
		return pq.Int32
	case nodeBool:
		return pq.Boolean
	}
	return pq.ByteArray
}

// page is the column's data page body: repetition levels, definition
// levels (each RLE-encoded, its length before it), then the PLAIN values
// of the entries defined down to the leaf.
func (c *column) page() ([]byte, int64, error) {
	var b []byte
	levels := func(get func(levelValue) int, max int) {
		enc := rleLevels(c.entries, get, bits.Len(uint(max)))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(enc)))
		b = append(b, enc...)
	}
	if c.maxRep > 0 {
		levels(func(e levelValue) int { return e.rep }, c.maxRep)
	}
	levels(func(e levelValue) int { return e.def }, c.maxDef)
	var flags []bool
	for _, e := range c.entries {
		if e.def != c.maxDef {
			continue
		}
		switch v := e.value.(type) {
		case string:
			b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		case int64:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		case int32:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		case bool:
			flags = append(flags, v)
		default:
			return nil, 0, fmt.Errorf("a value of type %T", e.value)
		}
	}
	if c.kind == nodeBool {
		packed := make([]byte, (len(flags)+7)/8)
		for i, v := range flags {
			if v {
				packed[i/8] |= 1 << (i % 8)
			}
		}
		b = append(b, packed...)
	}
	return b, int64(len(c.entries)), nil
}

// rleLevels encodes levels in the RLE/bit-packing hybrid, as RLE runs of
// equal levels only (the hybrid allows any mix of runs).
func rleLevels(entries []levelValue, get func(levelValue) int, width int) []byte {
	var out []byte
	byteWidth := (width + 7) / 8
	for i := 0; i < len(entries); {
		j := i
		for j < len(entries) && get(entries[j]) == get(entries[i]) {
			j++
		}
		out = binary.AppendUvarint(out, uint64(j-i)<<1)
		v := get(entries[i])
		for k := range byteWidth {
			out = append(out, byte(v>>(8*k)))
		}
		i = j
	}
	return out
}

// schema is the file's schema: its root, then the fields depth first.
func (w *nestedWriter) schema() []pq.SchemaElement {
	optional, required, repeated := pq.Optional, pq.Required, pq.Repeated
	out := []pq.SchemaElement{{Name: "spark_schema", NumChildren: thrift.New(int32(len(w.root)))}}
	str := func(name string, rep pq.FieldRepetitionType) pq.SchemaElement {
		return pq.SchemaElement{Name: name, Type: thrift.New(pq.ByteArray), RepetitionType: thrift.New(rep),
			ConvertedType: thrift.New(deprecated.UTF8), LogicalType: pq.LogicalType{Value: &pq.StringType{}}}
	}
	prim := func(name string, t pq.Type) pq.SchemaElement {
		return pq.SchemaElement{Name: name, Type: thrift.New(t), RepetitionType: thrift.New(optional)}
	}
	var walk func(n *node)
	walk = func(n *node) {
		switch n.kind {
		case nodeStruct:
			out = append(out, pq.SchemaElement{Name: n.name, RepetitionType: thrift.New(optional), NumChildren: thrift.New(int32(len(n.children)))})
			for _, c := range n.children {
				walk(c)
			}
		case nodeMap:
			out = append(out,
				pq.SchemaElement{Name: n.name, RepetitionType: thrift.New(optional), NumChildren: thrift.New(int32(1)),
					ConvertedType: thrift.New(deprecated.Map), LogicalType: pq.LogicalType{Value: &pq.MapType{}}},
				pq.SchemaElement{Name: "key_value", RepetitionType: thrift.New(repeated), NumChildren: thrift.New(int32(2))},
				str("key", required), str("value", optional))
		case nodeList:
			out = append(out,
				pq.SchemaElement{Name: n.name, RepetitionType: thrift.New(optional), NumChildren: thrift.New(int32(1)),
					ConvertedType: thrift.New(deprecated.List), LogicalType: pq.LogicalType{Value: &pq.ListType{}}},
				pq.SchemaElement{Name: "list", RepetitionType: thrift.New(repeated), NumChildren: thrift.New(int32(1))},
				str("element", optional))
		case nodeString:
			out = append(out, str(n.name, optional))
		case nodeLong:
			out = append(out, prim(n.name, pq.Int64))
		case nodeInt:
			out = append(out, prim(n.name, pq.Int32))
		case nodeBool:
			out = append(out, prim(n.name, pq.Boolean))
		}
	}
	for _, n := range w.root {
		walk(n)
	}
	return out
}
