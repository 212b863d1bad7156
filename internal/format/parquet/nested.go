package parquet

import (
	"encoding/binary"
	"fmt"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/row"
)

// Nested columns (struct, list, map) are written the standard way: a
// struct is a group, a list the three levels
//
//	optional group name (LIST) { repeated group list { optional element } }
//
// and a map
//
//	optional group name (MAP) { repeated group key_value { required binary key (STRING); optional value } }
//
// Each leaf is a column chunk of its own, with repetition and definition
// levels (RLE) in its pages. A record's values of a leaf are never split
// across pages.

// ShredFunc turns a nested column's value (Value.Bytes) into the entries of
// each of its leaves, in schema order: leaves[k] gets leaf k's entries. A
// null value gives each leaf one entry at level 0. It is the format
// package's, which reads the value's JSON.
type ShredFunc func(t *row.Type, nullable bool, v row.Value, leaves [][]row.Entry) error

// top is a column as the rows give it: its leaves in Format.cols.
type top struct {
	first, n int
	typ      *row.Type // nil for a flat column
	nullable bool
}

// addNested appends the schema elements of a nested column's node and its
// leaf columns.
func (f *Format) addNested(name string, t *row.Type, repetition pq.FieldRepetitionType, path []string, def, rep uint8) {
	path = append(path[:len(path):len(path)], name)
	if repetition == pq.Optional {
		def++
	}
	group := func(n int) pq.SchemaElement {
		return pq.SchemaElement{Name: name, RepetitionType: thrift.New(repetition), NumChildren: thrift.New(int32(n))}
	}
	switch t.Kind {
	case row.KindStruct:
		f.schema = append(f.schema, group(len(t.Fields)))
		for _, fl := range t.Fields {
			f.addNested(fl.Name, fl.Type, pq.Optional, path, def, rep)
		}
	case row.KindList:
		el := group(1)
		el.ConvertedType, el.LogicalType = thrift.New(deprecated.List), pq.LogicalType{Value: &pq.ListType{}}
		f.schema = append(f.schema, el, pq.SchemaElement{Name: "list", RepetitionType: thrift.New(pq.Repeated), NumChildren: thrift.New(int32(1))})
		f.addNested("element", t.Elem, pq.Optional, append(path, "list"), def+1, rep+1)
	case row.KindMap:
		el := group(1)
		el.ConvertedType, el.LogicalType = thrift.New(deprecated.Map), pq.LogicalType{Value: &pq.MapType{}}
		f.schema = append(f.schema, el, pq.SchemaElement{Name: "key_value", RepetitionType: thrift.New(pq.Repeated), NumChildren: thrift.New(int32(2))})
		kv := append(path, "key_value")
		f.addNested("key", t.Key, pq.Required, kv, def+1, rep+1)
		f.addNested("value", t.Elem, pq.Optional, kv, def+1, rep+1)
	default:
		f.addLeaf(Column{Name: name, Kind: t.Kind, Nullable: repetition == pq.Optional, Precision: t.Precision, Scale: t.Scale}, path, def, rep)
	}
}

// addLeaf appends a leaf column: a flat column (path is its name, levels
// 0 or 1) or a nested column's leaf.
func (f *Format) addLeaf(c Column, path []string, maxDef, maxRep uint8) {
	col := column{name: c.Name, kind: c.Kind, nullable: c.Nullable, utf8: c.Kind == row.KindString || c.Kind == row.KindJSON,
		path: path, maxDef: maxDef, maxRep: maxRep, nested: len(path) > 1}
	var el pq.SchemaElement
	if c.Kind == row.KindDecimal {
		el = decimalElement(c.Precision, c.Scale)
	} else {
		el = schemaElement(c.Kind)
	}
	el.Name = c.Name
	el.RepetitionType = thrift.New(pq.Required)
	if col.nullable {
		el.RepetitionType = thrift.New(pq.Optional)
	}
	col.physical, _ = el.Type.Get()
	col.width = plainWidth(col.physical)
	if col.physical == pq.FixedLenByteArray {
		n, _ := el.TypeLength.Get()
		col.width = int(n)
	}
	f.cols = append(f.cols, col)
	f.schema = append(f.schema, el)
	f.orders = append(f.orders, pq.ColumnOrder{Value: &pq.TypeDefinedOrder{}})
}

// appendNested adds a record's value of nested column t to its leaves.
func (e *Encoder) appendNested(t top, v *row.Value) error {
	leaves := e.leaves[:t.n]
	for k := range leaves {
		leaves[k] = leaves[k][:0]
	}
	if err := e.shred(t.typ, t.nullable, *v, leaves); err != nil {
		return e.fail(fmt.Errorf("parquet: column %q: %w", e.cols[t.first].path[0], err))
	}
	for k, entries := range leaves {
		c := &e.cols[t.first+k]
		n := 0
		for i := range entries {
			n += 2
			if entries[i].Def == c.maxDef {
				n += c.valueSize(&entries[i].Value)
			}
		}
		// A record's entries stay in one page.
		if len(c.values)+len(c.defs)+len(c.reps)+n > c.room {
			if err := e.makeRoom(c, n); err != nil {
				return err
			}
		}
		for i := range entries {
			en := &entries[i]
			if en.Def == c.maxDef {
				c.appendValue(&en.Value)
			} else {
				c.pageNulls++
			}
			c.defs = append(c.defs, en.Def)
			c.reps = append(c.reps, en.Rep)
			c.pageRows++
		}
	}
	return nil
}

// appendRLE appends levels, one byte each, as the RLE/bit-packed hybrid
// with its 4-byte length: a run per repeated level (levels fit a byte).
func appendRLE(dst, levels []byte) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	for i := 0; i < len(levels); {
		j := i + 1
		for j < len(levels) && levels[j] == levels[i] {
			j++
		}
		dst = binary.AppendUvarint(dst, uint64(j-i)<<1)
		dst = append(dst, levels[i])
		i = j
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}
