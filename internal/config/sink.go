package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
)

// Sink defaults.
const (
	DefaultMaxRecords = 100000
	DefaultFormat     = "jsonl"
)

// MaxShards bounds a sink's shards.
const MaxShards = 1024

// Allowed values of sink attributes.
var (
	formats      = []string{"jsonl", "parquet", "csv"}
	compressions = format.Compressions
	onInvalid    = []string{"fail", "reject"}
	onDataLoss   = []string{"fail", "skip"}
)

var sinkSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "format"},
		{Name: "compression"},
		{Name: "partition_by"},
		{Name: "route_by"},
		{Name: "max_file_records"},
		{Name: "max_file_size"},
		{Name: "row_group_records"},
		{Name: "on_invalid"},
		{Name: "on_data_loss"},
		{Name: "history"},
		{Name: "shards"},
		{Name: "columns"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "batch"},
		{Type: "maintenance"},
		{Type: "column", LabelNames: []string{"name"}},
		{Type: "destination", LabelNames: []string{"type", "name"}},
	},
}

func (l *loader) decodeSink(b *hcl.Block) {
	name := b.Labels[0]
	if !validName(name) {
		l.errorf(&b.LabelRanges[0], "Invalid sink name", "%q is not a valid name: use letters, digits, '_' and '-', starting with a letter.", name)
	}
	if prev := l.cfg.Sink(name); prev != nil {
		l.errorf(&b.DefRange, "Duplicate sink", "A sink %q was already declared at %s.", name, prev.DeclRange)
		return
	}
	s := &Sink{Name: name, Layout: Layout{Format: DefaultFormat, OnInvalid: "fail"}, MaxRecords: DefaultMaxRecords, OnDataLoss: "fail", DeclRange: b.DefRange}
	content, diags := b.Body.Content(sinkSchema)
	l.diags = append(l.diags, diags...)
	if content == nil {
		return
	}
	if a, ok := content.Attributes["source"]; ok {
		s.Source = l.sourceRef(a)
	}
	l.optString(content, "format", &s.Format, formats)
	l.optString(content, "compression", &s.Compression, compressions)
	l.optString(content, "route_by", &s.RouteBy, nil)
	l.optString(content, "on_invalid", &s.OnInvalid, onInvalid)
	l.optString(content, "on_data_loss", &s.OnDataLoss, onDataLoss)
	l.optString(content, "columns", &s.ColumnsFrom, []string{ColumnsFromSchema})
	l.optInt(content, "max_file_records", &s.MaxFileRecords, 1)
	l.optSize(content, "max_file_size", &s.MaxFileSize)
	var rowGroup, history int64
	l.optInt(content, "row_group_records", &rowGroup, 1)
	if rowGroup > MaxRowGroupRecords {
		l.errorf(content.Attributes["row_group_records"].Expr.Range().Ptr(), "Invalid row_group_records", "row_group_records must be at most %d, not %d: a Parquet page can hold a whole row group, and its header counts the rows in 32 bits.", MaxRowGroupRecords, rowGroup)
		rowGroup = 0
	}
	s.RowGroupRecords, s.rowGroupDefaulted = rowGroup, rowGroup == 0
	if s.rowGroupDefaulted {
		s.RowGroupRecords = DefaultRowGroupRecords
	}
	l.optInt(content, "history", &history, 1)
	s.History = int(history)
	shards := int64(1)
	l.optInt(content, "shards", &shards, 1)
	if shards > MaxShards {
		l.errorf(content.Attributes["shards"].Expr.Range().Ptr(), "Invalid shards", "shards must be at most %d, not %d: each shard is a checkpoint document and a lock in the state, and a batch sequence in every destination.", MaxShards, shards)
		shards = 1
	}
	s.Shards = int(shards)
	if a, ok := content.Attributes["partition_by"]; ok {
		var list []string
		if l.evalInto(a, cty.List(cty.String), &list) {
			s.PartitionBy = list
		}
	}
	if s.Compression == "" && s.Format == "parquet" {
		s.Compression = "zstd"
	}
	if s.Compression != "" && s.Compression != "none" && s.Format != "parquet" {
		l.errorf(content.Attributes["compression"].Expr.Range().Ptr(), "Compression not supported", "compression applies to parquet output; the %s format is written uncompressed.", s.Format)
	}

	batches := 0
	destNames := map[string]*Destination{}
	colNames := map[string]hcl.Range{}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "batch":
			batches++
			if batches > 1 {
				l.errorf(&blk.DefRange, "Duplicate batch block", "A sink has at most one batch block.")
				continue
			}
			var raw struct {
				MaxRecords *int64 `hcl:"max_records,optional"`
			}
			if l.decode(blk.Body, &raw) && raw.MaxRecords != nil {
				if *raw.MaxRecords < 1 {
					l.errorf(&blk.DefRange, "Invalid max_records", "max_records must be at least 1, not %d.", *raw.MaxRecords)
				} else {
					s.MaxRecords = *raw.MaxRecords
				}
			}
		case "maintenance":
			if s.Maintenance != nil {
				l.errorf(&blk.DefRange, "Duplicate maintenance block", "A sink has at most one maintenance block.")
				continue
			}
			s.Maintenance = l.decodeMaintenance(blk)
		case "column":
			c := Column{Name: blk.Labels[0]}
			if prev, dup := colNames[c.Name]; dup {
				l.errorf(&blk.DefRange, "Duplicate column", "A column %q was already declared at %s.", c.Name, prev)
				continue
			}
			colNames[c.Name] = blk.DefRange
			if l.decode(blk.Body, &c) {
				s.Columns = append(s.Columns, c)
			}
		case "destination":
			typ, dname := blk.Labels[0], blk.Labels[1]
			if !validName(dname) {
				l.errorf(&blk.LabelRanges[1], "Invalid destination name", "%q is not a valid name: use letters, digits, '_' and '-', starting with a letter.", dname)
			}
			if prev, dup := destNames[dname]; dup {
				l.errorf(&blk.DefRange, "Duplicate destination", "Sink %q already has a destination named %q, at %s. Destination names are unique within a sink, whatever their type.", name, dname, prev.DeclRange)
				continue
			}
			k := l.kinds.Lookup(typ)
			if k == nil || k.Destination == nil {
				l.errorf(&blk.LabelRanges[0], "Unknown destination type", "There is no destination type %q. Use one of: %s.", typ, l.kindTypes(isDestination))
				continue
			}
			d := &Destination{Type: typ, Name: dname, DeclRange: blk.DefRange}
			// Attributes every destination has are taken out before the
			// provider decodes the rest.
			var common struct {
				Backfill *bool    `hcl:"backfill,optional"`
				Table    *Table   `hcl:"table,block"`
				Remain   hcl.Body `hcl:",remain"`
			}
			if !l.decode(blk.Body, &common) {
				continue
			}
			d.NoBackfill = common.Backfill != nil && !*common.Backfill
			if common.Table != nil {
				d.Table = common.Table
				d.Table.DeclRange = tableRange(blk.Body)
				l.checkTable(d.Table, s, typ, dname)
				if tb := nestedBlock(blk.Body, "table"); tb != nil {
					l.checkCatalogPassword(tb)
					l.checkSecrets(tb, tableSecrets)
				}
			}
			l.checkSensitivePaths(blk.Body, k.Destination.Paths, fmt.Sprintf("destination %q %q", typ, dname))
			d.Config = l.decodeKind(&k.Destination.Body, blk, common.Remain)
			destNames[dname] = d
			s.Destinations = append(s.Destinations, d)
		}
	}
	if err := format.ValidateColumns(s.Columns); err != nil {
		l.errorf(&b.DefRange, "Invalid columns", "Sink %q: %v.", name, err)
	} else {
		// Types in one spelling: " decimal(10, 2)" and "decimal(10,2)" are
		// the same files, so the same layout hash and the same plan.
		for i := range s.Columns {
			t, _ := format.ParseType(s.Columns[i].Type)
			s.Columns[i].Type = t.String()
		}
	}
	if err := format.CheckNested(s.Columns, s.Format); err != nil {
		l.errorf(&b.DefRange, "Invalid columns", "Sink %q: %v.", name, err)
	}
	if s.ColumnsFrom != "" && len(s.Columns) > 0 {
		l.errorf(content.Attributes["columns"].Expr.Range().Ptr(), "Columns declared twice", "Sink %q takes its columns from its source's schema (columns = %q) and declares column blocks too: keep one of them.", name, s.ColumnsFrom)
	}
	if s.ColumnsFrom != "" {
		for _, d := range s.Destinations {
			if d.Table != nil {
				l.errorf(&d.DeclRange, "Table with columns from the schema", "Destination %q of sink %q keeps a table, whose schema is made from declared columns: declare the sink's columns with column blocks instead of columns = %q.", d.Name, name, s.ColumnsFrom)
			}
		}
	}
	if (s.Format == "parquet" || s.Format == "csv") && len(s.Columns) == 0 && s.ColumnsFrom == "" {
		l.errorf(&b.DefRange, "Columns required", "Sink %q writes %s, which needs a schema: declare its columns with column \"NAME\" { type = \"…\" } blocks, or take them from a schema registry with columns = \"from_schema\".", name, s.Format)
	}
	if a, ok := content.Attributes["partition_by"]; ok {
		for _, expr := range s.PartitionBy {
			if _, err := partition.Parse(expr); err != nil {
				l.errorf(a.Expr.Range().Ptr(), "Invalid partition_by", "%q: %v.", expr, err)
			}
		}
	}
	l.checkOutputNames(s, colNames, content.Attributes["partition_by"])
	if a, ok := content.Attributes["route_by"]; ok && s.RouteBy != "" {
		// With columns, the records' fields are declared: any other field
		// would be missing from records the columns describe, and every such
		// record would be invalid.
		if len(s.Columns) > 0 && !columnNamed(s.Columns, s.RouteBy) && !format.IsMeta(s.RouteBy) {
			l.errorf(a.Expr.Range().Ptr(), "Unknown route_by column", "%s", unknownRouteColumn(name, s.RouteBy, s.Columns))
		} else if err := format.ValidatePath(s.RouteBy); err != nil && !columnNamed(s.Columns, s.RouteBy) {
			l.errorf(a.Expr.Range().Ptr(), "Invalid route_by", "%q: %v.", s.RouteBy, err)
		}
	}
	if m := s.Maintenance; m != nil && m.ExpireRange != nil && !hasIcebergTable(s) {
		l.errorf(m.ExpireRange, "No Iceberg table to expire", "Sink %q sets expire_snapshots_after, and none of its destinations has an Iceberg table, whose snapshots it expires. Remove it, or declare a table block on a destination.", name)
	}
	if len(s.Destinations) == 0 {
		l.errorf(&b.DefRange, "Sink without destinations", "Sink %q has no destination block, so its records would go nowhere. Add one, e.g. destination \"local\" \"out\" { path = \"out\" }.", name)
	}
	l.cfg.Sinks = append(l.cfg.Sinks, s)
}

// hasIcebergTable reports whether a destination of s has an Iceberg table.
func hasIcebergTable(s *Sink) bool {
	for _, d := range s.Destinations {
		if d.Table != nil && d.Table.Format != "delta" {
			return true
		}
	}
	return false
}

// sourceRef resolves `source = source.TYPE.NAME` to the source's key.
func (l *loader) sourceRef(a *hcl.Attribute) string {
	trav, diags := hcl.AbsTraversalForExpr(a.Expr)
	if diags.HasErrors() || len(trav) != 3 || trav.RootName() != "source" {
		l.errorf(a.Expr.Range().Ptr(), "Invalid source reference", "source must be a reference of the form source.TYPE.NAME, e.g. source.generate.orders.")
		return ""
	}
	typ, ok1 := trav[1].(hcl.TraverseAttr)
	name, ok2 := trav[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		l.errorf(a.Expr.Range().Ptr(), "Invalid source reference", "source must be a reference of the form source.TYPE.NAME.")
		return ""
	}
	key := typ.Name + "." + name.Name
	// Sources may be declared after the sink, or in another file: checked once
	// all are known.
	l.pendingRefs = append(l.pendingRefs, sourceRefCheck{key: key, rng: a.Expr.Range()})
	return key
}

type sourceRefCheck struct {
	key string
	rng hcl.Range
}

func (l *loader) optString(c *hcl.BodyContent, name string, target *string, allowed []string) {
	a, ok := c.Attributes[name]
	if !ok {
		return
	}
	var v string
	if !l.evalInto(a, cty.String, &v) {
		return
	}
	if allowed != nil && !contains(allowed, v) {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+name, "%s must be one of %s, not %q.", name, quoteList(allowed), v)
		return
	}
	*target = v
}

func (l *loader) optInt(c *hcl.BodyContent, name string, target *int64, min int64) {
	a, ok := c.Attributes[name]
	if !ok {
		return
	}
	var v int64
	if !l.evalInto(a, cty.Number, &v) {
		return
	}
	if v < min {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+name, "%s must be at least %d, not %d.", name, min, v)
		return
	}
	*target = v
}

var maintenanceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "target_file_size"}, {Name: "compact_after"}, {Name: "expire_snapshots_after"}},
}

// DefaultCompactAfter is how long after their commit files are compacted
// when compact_after is not set.
const DefaultCompactAfter = time.Hour

func (l *loader) decodeMaintenance(blk *hcl.Block) *Maintenance {
	content, diags := blk.Body.Content(maintenanceSchema)
	l.diags = append(l.diags, diags...)
	if content == nil {
		return nil
	}
	m := &Maintenance{CompactAfter: DefaultCompactAfter}
	l.optSize(content, "target_file_size", &m.TargetFileSize)
	l.optAge(content, "compact_after", &m.CompactAfter)
	if a, ok := content.Attributes["expire_snapshots_after"]; ok {
		m.ExpireRange = a.Expr.Range().Ptr()
		if l.optAge(content, "expire_snapshots_after", &m.ExpireSnapshotsAfter) && m.ExpireSnapshotsAfter == 0 {
			l.errorf(a.Expr.Range().Ptr(), "Invalid expire_snapshots_after", "expire_snapshots_after must be longer than zero: a snapshot a reader has just started to read would be expired under it. Write \"7d\", say.")
		}
	}
	_, size := content.Attributes["target_file_size"]
	if !size && m.ExpireRange == nil {
		l.errorf(&blk.DefRange, "Empty maintenance block", "A maintenance block sets target_file_size (to compact), expire_snapshots_after (to expire the snapshots of the destinations' Iceberg tables), or both.")
	}
	return m
}

// optAge reads a duration attribute, as ParseAge takes it, and reports
// whether it was set and valid.
func (l *loader) optAge(c *hcl.BodyContent, name string, target *time.Duration) bool {
	a, ok := c.Attributes[name]
	if !ok {
		return false
	}
	var text string
	if !l.evalInto(a, cty.String, &text) {
		return false
	}
	d, err := ParseAge(text)
	if err != nil {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+name, "%s: %s.", name, err)
		return false
	}
	*target = d
	return true
}

// ParseAge reads a duration of zero or more: Go's ("90m", "1h30m") or whole
// days ("7d").
func ParseAge(text string) (time.Duration, error) {
	s := strings.TrimSpace(text)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseInt(days, 10, 64)
		if err != nil || n < 0 || n > 100*365 {
			return 0, fmt.Errorf("%q is not a number of days from 0 to 36500", text)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration: write \"30m\", \"1h\" or \"7d\"", text)
	}
	return d, nil
}

// optSize reads a size in bytes: a number, or a string such as "128MB"
// (see ParseSize).
func (l *loader) optSize(c *hcl.BodyContent, name string, target *int64) {
	a, ok := c.Attributes[name]
	if !ok {
		return
	}
	var text string
	if !l.evalInto(a, cty.String, &text) {
		return
	}
	n, err := ParseSize(text)
	if err != nil {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+name, "%s: %s.", name, err)
		return
	}
	*target = n
}

// evalInto evaluates an attribute, converts it to ty and stores it in target.
func (l *loader) evalInto(a *hcl.Attribute, ty cty.Type, target any) bool {
	v, diags := a.Expr.Value(l.plain)
	l.diags = append(l.diags, diags...)
	if diags.HasErrors() {
		return false
	}
	if v.IsNull() {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+a.Name, "%s must not be null.", a.Name)
		return false
	}
	v, err := convert.Convert(v, ty)
	if err == nil {
		err = gocty.FromCtyValue(v, target)
	}
	if err != nil {
		l.errorf(a.Expr.Range().Ptr(), "Invalid "+a.Name, "%s: %v.", a.Name, err)
		return false
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// checkSensitivePaths refuses values of sensitive variables in the
// attributes paths of body, the body of block. They name where the block
// writes: their values become file names, object keys and the locations plan,
// status and errors print, where output masking cannot hide them, and every
// reader of the data sees them.
func (l *loader) checkSensitivePaths(body hcl.Body, paths []string, block string) {
	l.eachValue(body, paths, func(n string, a *hcl.Attribute, v cty.Value) {
		if v.HasMarkDeep(SensitiveMark) {
			l.errorf(a.Expr.Range().Ptr(), "Sensitive value in a path",
				"The %s of %s comes from a sensitive variable. It would become part of file names or object keys, written in clear for every reader of the data and in the locations streamctl prints, where masking cannot hide it. Use a variable that is not sensitive here, or keep the secret out of the %s.", n, block, n)
		}
	})
}

// checkSharedDestinations refuses sources that do not exist and two sinks
// writing to one location: their batch numbers, temporaries and file names
// would collide.
func (l *loader) checkSharedDestinations() {
	for _, ref := range l.pendingRefs {
		if _, ok := l.cfg.Sources[ref.key]; !ok {
			rng := ref.rng
			l.errorf(&rng, "Reference to undeclared source", "There is no source %q. Declare it with source %q %q { … }.", ref.key, strings.SplitN(ref.key, ".", 2)[0], strings.SplitN(ref.key, ".", 2)[1])
		}
	}
	seen := map[string]string{}
	var placed []placedDestination
	for _, s := range l.cfg.Sinks {
		for _, d := range s.Destinations {
			loc := l.location(d)
			if loc == "" {
				continue
			}
			here := s.Name + "." + d.Name
			placed = append(placed, placedDestination{loc: strings.TrimSuffix(loc, "/"), name: here, rng: d.DeclRange})
			if prev, dup := seen[loc]; dup && !strings.HasPrefix(prev, s.Name+".") {
				rng := d.DeclRange
				l.errorf(&rng, "Destination shared by two sinks", "Destination %s writes to %s, like %s. Each sink needs its own location (another path or prefix): batch numbers and file names would collide.", here, loc, prev)
				continue
			} else if dup {
				rng := d.DeclRange
				l.errorf(&rng, "Destination listed twice", "Destination %s writes to %s, like %s.", here, loc, prev)
				continue
			}
			seen[loc] = here
		}
	}
	l.checkNestedDestinations(placed)
}

// placedDestination is a destination and where it writes.
type placedDestination struct {
	loc, name string
	rng       hcl.Range
}

// checkNestedDestinations refuses a destination inside another one's
// location: whoever reads the outer folder (a glob over it, Spark's partition
// discovery, DuckDB's hive_partitioning) would read the inner one's files as
// its own, every record of them once more.
func (l *loader) checkNestedDestinations(placed []placedDestination) {
	for _, inner := range placed {
		for _, outer := range placed {
			if strings.HasPrefix(inner.loc, outer.loc+"/") {
				rng := inner.rng
				l.errorf(&rng, "Destination inside another destination",
					"Destination %s writes to %s, inside %s (%s): readers of %s's files would read %s's as well, each of their records once more. Give it a location outside every other destination's.",
					inner.name, inner.loc, outer.name, outer.loc, outer.name, inner.name)
				break
			}
		}
	}
}

// location is where a destination writes, as a URL-like string, or "" when
// its block is invalid.
func (l *loader) location(d *Destination) string {
	k := l.kinds.Lookup(d.Type)
	if k == nil || k.Destination == nil || k.Destination.Location == nil || d.Config == nil {
		return ""
	}
	return k.Destination.Location(d.Config)
}

// unknownRouteColumn is the detail of a route_by that names no column: the
// columns, and the one meant when there is a likely one.
func unknownRouteColumn(sink, routeBy string, cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	msg := fmt.Sprintf("Sink %q routes by %q, which is none of its columns: %s.", sink, routeBy, strings.Join(names, ", "))
	for _, c := range cols {
		if c.From == routeBy {
			return msg + fmt.Sprintf(" Did you mean %q? It reads %s.", c.Name, c.From)
		}
	}
	// A likely one is at most 2 edits away (as Terraform suggests), or
	// starts like it: "customer" for "customer_id".
	best, bestDist := "", 0
	for _, n := range names {
		d := levenshtein.Distance(routeBy, n, nil)
		near := d <= 2 || strings.HasPrefix(strings.ToLower(n), strings.ToLower(routeBy)) || strings.HasPrefix(strings.ToLower(routeBy), strings.ToLower(n))
		if near && (best == "" || d < bestDist) {
			best, bestDist = n, d
		}
	}
	if best != "" {
		return msg + fmt.Sprintf(" Did you mean %q?", best)
	}
	return msg + fmt.Sprintf(" Declare a column %q, or route by one of the columns or by record metadata (%s, %s).", routeBy, format.MetaKey, format.MetaPartition)
}

func columnNamed(cols []Column, name string) bool {
	for _, c := range cols {
		if c.Name == name {
			return true
		}
	}
	return false
}

// expandShards replaces each sink declared with shards = N (N > 1) by its N
// shards, each a sink of its own to the planner, the engine and the state,
// named "<sink>/shard-<k>": '/' is in no declared name, so a shard's name
// never collides with a sink's. Runs after every check of declared sinks.
func (l *loader) expandShards() {
	for _, m := range l.cfg.Moved {
		for _, name := range []string{m.From, m.To} {
			if s := l.cfg.Sink(name); s != nil && s.Shards > 1 {
				rng := m.DeclRange
				l.errorf(&rng, "Moved block on a sharded sink", "Sink %q has shards = %d: a moved block renames one checkpoint, and a sharded sink has one per shard. Rename it with shards = 1 first, then set shards again.", name, s.Shards)
			}
		}
	}
	var out []*Sink
	for _, s := range l.cfg.Sinks {
		if s.Shards <= 1 {
			out = append(out, s)
			continue
		}
		for k := range s.Shards {
			u := *s
			u.Name = ShardName(s.Name, k)
			u.Shard = &Shard{Sink: s.Name, Index: k, Count: s.Shards}
			out = append(out, &u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	l.cfg.Sinks = out
}
