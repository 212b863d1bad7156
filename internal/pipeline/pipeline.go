// Package pipeline is the record path of one batch: records in, encoded files out.
// It decodes, routes, partitions and encodes; it knows nothing of staging,
// promotion or manifests, which are the engine's. Output is byte-deterministic:
// the same records in the same order give the same files with the same names.
//
// Each record is decoded once (only when columns, partitioning or routing need
// its fields) and encoded once per output file, however many destinations
// share that file. Decoding runs on the caller's goroutine; encoding runs on
// a second goroutine unless Layout.Sequential is set, so the two overlap on
// two cores. Both orders give the same bytes: files are encoded strictly in
// record order.
package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
	"github.com/streamctl/streamctl/providers"
)

// Layout is how a sink turns records into files. Destinations of a sink share it.
type Layout struct {
	Format         string // "jsonl", "csv" or "parquet"
	MaxFileRecords int64  // 0: one file per partition folder per batch
	// MaxFileSize ends a file once it holds this many bytes (see
	// encoder.full); 0: no limit. Parquet files end between row groups.
	MaxFileSize int64

	// Destinations names all the sink's destinations in config order; the
	// indices passed to New and Output.Create refer to it. Required with
	// RouteBy, which routes over the names in sorted order.
	Destinations []string
	// Columns are the sink's column blocks in order. Without columns, JSONL
	// passes records through byte for byte; CSV and Parquet need columns.
	Columns []format.Column
	// Schema is the schema registry version the columns were derived from
	// or checked against (`"orders-value" version 2`), "" for none: the
	// state keeps it with the settings, so that plan checks only the
	// versions registered since.
	Schema string
	// Compression is Parquet's: "zstd" (default), "snappy", "gzip", "none".
	Compression string
	// PartitionBy are the partition_by expressions (see package partition).
	// A field names a column, or else a dotted JSON path. A column that is an
	// identity partition is not written into the files: its value is the
	// folder's, as Hive, Spark and DuckDB write and expect (Spark refuses a
	// column that is both in the files and a folder name). Transforms
	// (day(ts), …) name their folders differently and keep the column.
	PartitionBy []string
	// RouteBy names a column, or else a dotted JSON path: each record goes
	// to the one destination Route picks for the field's value.
	RouteBy string
	// RowGroupRecords is the most rows per Parquet row group; 0: the
	// format's default (a sink's layout comes with it, see config.Layout).
	// The memory budget of a batch (memoryBudget) may end one earlier.
	RowGroupRecords int64
	// OnInvalid is "fail" (default: Write returns an *InvalidRecordError) or
	// "reject" (the record is written under RejectedDir and counted).
	OnInvalid string
	// Shard is the shard of a sharded sink ("s3" for shard 3), which names
	// its files apart; "" for a sink not sharded.
	Shard string
	// Sequential encodes on the caller's goroutine instead of a second one.
	// The files are the same either way.
	Sequential bool

	budget   int64 // memory of the open files; 0: memoryBudget (tests lower it)
	maxOpen  int   // targets written to at once; 0: maxOpenFiles (tests lower it)
	runBytes int   // rows sorted in memory per run; 0: sortRunBytes (tests lower it)
}

// RejectedDir is the folder, under a destination's batch root, that holds
// rejected records (on_invalid = "reject"), in files named like data files
// with the extension RejectedExt, one JSON object per line:
//
//	{"partition":"0","offset":42,"reason":"column \"amount\": …","record":{…}}
//
// "record" is the record's JSON; when the record is not JSON, or not text
// every reader takes (see format.CheckText), it is a JSON string of the
// record, and when the record is not UTF-8 "record_base64" holds its bytes.
//
// The folder is among streamctl's own (_streamctl/, whose other folders are
// named after sinks, which start with a letter), so that readers that skip
// folders starting with '_' (Spark, Hive) skip it, and the extension is not
// a data file's, so that a glob such as **/*.jsonl, which DuckDB also
// matches under such folders, does not read rejects as data.
const RejectedDir = "_streamctl/_rejected"

// RejectedExt is the extension of the files under RejectedDir: JSONL, named
// so that no data glob matches it.
const RejectedExt = "ndjson"

// Output receives the files of a batch. Create is called from one goroutine
// at a time, in an order that depends only on the records, but not
// necessarily from the goroutine that calls Write. Each File is written and
// finished by one goroutine at a time; different Files may be written and
// finished concurrently (the last files of a batch are finished together).
type Output interface {
	// Create opens the file at relPath (a partition folder, then the file name) for
	// the destinations dests (indices into Layout.Destinations).
	Create(dests []int, relPath string) (File, error)
}

// File is one output file being written.
type File interface {
	Write(p []byte) (int, error)
	// Finish completes the file, which holds records records.
	Finish(records int64) error
	// Abort discards the file.
	Abort()
}

// Stats counts what a batch wrote.
type Stats struct {
	Records  int64 // records read
	Rejected int64 // records written under _rejected/ (each counted once)
	Files    int64 // files written, each counted once however many destinations share it
	// Destinations is indexed like Layout.Destinations (or, without it, by
	// the indices passed to New).
	Destinations []DestStats
}

// DestStats counts what one destination received.
type DestStats struct {
	Records  int64 // records in its data files
	Rejected int64 // records in its _rejected/ files
	Files    int64 // files, data and rejected
}

// InvalidRecordError is a record that does not fit the sink's schema,
// partitioning or routing, with on_invalid = "fail". The engine adds the
// sink's name.
type InvalidRecordError struct {
	Partition string // source partition
	Offset    int64
	Column    string // the column or field at fault; "" when the record is not JSON, or its text is at fault
	Reason    string // what is wrong with it
	Err       error  // *format.FieldError, *format.SyntaxError, *format.TextError or *partition.ValueError
}

func (e *InvalidRecordError) Error() string {
	return fmt.Sprintf("invalid record at partition %s offset %d: %v", e.Partition, e.Offset, e.Err)
}

func (e *InvalidRecordError) Unwrap() error { return e.Err }

// FileName is the deterministic name of file seq of batch. A shard of a
// sharded sink (shard "s3") prefixes its files' names with it: its batches
// are numbered on their own and share the destination's folders.
func FileName(shard string, batch int64, seq int, ext string) string {
	if shard != "" {
		return fmt.Sprintf("part-%s-%08d-%05d.%s", shard, batch, seq, ext)
	}
	return fmt.Sprintf("part-%08d-%05d.%s", batch, seq, ext)
}

// FileBatch is the shard ("" for a sink not sharded) and batch whose file
// key (a path ending in a FileName) is.
func FileBatch(key string) (shard string, batch int64, ok bool) {
	base := path.Base(key)
	rest, ok := strings.CutPrefix(base, "part-")
	if !ok {
		return "", 0, false
	}
	if strings.HasPrefix(rest, "s") {
		tag, after, found := strings.Cut(rest, "-")
		if !found || len(tag) < 2 || strings.Trim(tag[1:], "0123456789") != "" {
			return "", 0, false
		}
		shard, rest = tag, after
	}
	digits, tail, ok := strings.Cut(rest, "-")
	if dot := strings.IndexByte(tail, '.'); !ok || len(digits) < 8 || dot < 5 || strings.Trim(tail[:dot], "0123456789") != "" {
		return "", 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n < 0 || fmt.Sprintf("%08d", n) != digits {
		return "", 0, false
	}
	return shard, n, true
}

// Writer encodes one batch. Write records in source order, then Close (or
// Abort). It is not safe for concurrent use.
type Writer struct {
	layout Layout
	batch  int64
	out    Output
	active []int  // as passed to New
	isOn   []bool // isOn[d]: destination d is active

	data   *format.Format // the data files' format
	reject *format.Format // pass-through JSONL for _rejected/
	ncols  int            // columns encoded (0: pass-through)

	x         *format.Extractor // nil when no field is needed
	nfields   int               // fields extracted: encoded columns first, then the others
	copyAt    []int             // the encoded fields whose values can hold bytes
	clearAt   []int             // the other fields whose values can
	vals      []format.Value    // the current record's fields, in its chunk slot
	spec      *partition.Spec   // nil without partition_by
	pin       []int             // spec field i reads vals[pin[i]]
	pvals     []format.Value
	folders   *folderCache // with one partition field: its recent values' targets
	plain     []int32      // without partition_by: the target of destination d at d+1 (-1: none yet)
	route     int          // index in vals of the route field; -1 without route_by
	routeKind format.Kind  // its kind
	routeType *format.Type // its type, for a decimal's scale
	routeCol  bool         // it is a declared column
	order     []int        // destination indices sorted by name
	keyBuf    []byte
	routeKey  []byte // the route value's canonical text
	text      []byte // a reject line

	targets  []*target
	maxOpen  int // targets past this many are sorted (see maxOpenFiles)
	byKey    map[string]int32
	cur      *chunk
	enc      *encoder
	async    *worker // nil when Sequential
	err      error   // sticky: the Writer is unusable after an error
	stats    Stats
	failFast bool
}

// target is one stream of files: a folder and the destinations that share it.
type target struct {
	dests  []int
	dir    string
	format *format.Format
	ext    string // of its files' names
	// sorted: the target came after the first maxOpen of the batch; its
	// rows go to the sorter and its files are written when the batch closes.
	sorted bool

	// Encoding side; touched only by the encoder.
	file     File
	enc      format.Encoder
	records  int64 // in the open file
	buffered int64 // what its encoder buffered after the last chunk
	seq      int
	gen      uint64 // the chunk that last appended to it
}

// New returns a Writer for batch, writing to the destinations active (indices
// into Layout.Destinations).
func New(layout Layout, batch int64, active []int, out Output) (*Writer, error) {
	w := &Writer{layout: layout, batch: batch, out: out, active: active, route: -1, byKey: map[string]int32{},
		maxOpen: cmp.Or(layout.maxOpen, maxOpenFiles)}
	switch layout.OnInvalid {
	case "", "fail":
		w.failFast = true
	case "reject":
	default:
		return nil, fmt.Errorf("on_invalid %q: want \"fail\" or \"reject\"", layout.OnInvalid)
	}
	if layout.MaxFileRecords < 0 {
		return nil, fmt.Errorf("max_file_records must be positive, got %d", layout.MaxFileRecords)
	}
	if layout.MaxFileSize < 0 {
		return nil, fmt.Errorf("max_file_size must be positive, got %d", layout.MaxFileSize)
	}

	n := len(layout.Destinations)
	for _, d := range active {
		if d < 0 || (len(layout.Destinations) > 0 && d >= len(layout.Destinations)) {
			return nil, fmt.Errorf("active destination %d is out of range (the sink has %d)", d, len(layout.Destinations))
		}
		n = max(n, d+1)
	}
	w.isOn = make([]bool, n)
	for _, d := range active {
		w.isOn[d] = true
	}
	w.stats.Destinations = make([]DestStats, n)
	w.plain = slices.Repeat([]int32{-1}, n+1)

	var spec *partition.Spec
	if len(layout.PartitionBy) > 0 {
		var err error
		if spec, err = partition.NewSpec(layout.PartitionBy); err != nil {
			return nil, err
		}
	}

	// Fields to extract: the encoded columns first (vals[:ncols] is a row),
	// then the columns only partitioned by, then helper fields that no
	// column declares.
	var fields []format.Field
	var encoded *format.Schema
	if len(layout.Columns) > 0 {
		all, err := format.NewSchema(layout.Columns)
		if err != nil {
			return nil, err
		}
		identity := map[string]bool{}
		if spec != nil {
			for _, pf := range spec.Fields() {
				if pf.Transform == partition.Identity {
					identity[pf.Source] = true
				}
			}
		}
		names := make([]string, len(layout.Columns))
		for i, c := range layout.Columns {
			names[i] = c.Name
		}
		var pfields []partition.Field
		if spec != nil {
			pfields = spec.Fields()
		}
		if conflicts := partition.NameConflicts(names, pfields); len(conflicts) > 0 {
			errs := make([]error, len(conflicts))
			for i, c := range conflicts {
				errs[i] = c
			}
			return nil, errors.Join(errs...)
		}
		encoded = &format.Schema{}
		var dropped []format.Field
		for i, f := range all.Fields() {
			if identity[f.Name] {
				dropped = append(dropped, f)
				continue
			}
			fields = append(fields, f)
			encoded.Columns = append(encoded.Columns, all.Columns[i])
			encoded.Kinds = append(encoded.Kinds, all.Kinds[i])
			encoded.Types = append(encoded.Types, all.Types[i])
		}
		if len(encoded.Columns) == 0 {
			return nil, errors.New("every column is an identity partition, which is not written into the files: nothing is left to write")
		}
		w.ncols = len(fields)
		fields = append(fields, dropped...)
	}
	f, err := format.NewFormat(encoded, format.Options{
		Format:          layout.Format,
		Compression:     layout.Compression,
		RowGroupRecords: layout.RowGroupRecords,
	})
	if err != nil {
		return nil, err
	}
	w.data = f
	if w.reject, err = format.NewFormat(nil, format.Options{Format: format.JSONL}); err != nil {
		return nil, err
	}

	// field returns the index in fields of what name reads: the column of
	// that name, or a helper field reading the JSON path (or metadata).
	field := func(name string) (int, format.Kind) {
		for i := range fields {
			if fields[i].Column && fields[i].Name == name {
				return i, fields[i].Kind
			}
		}
		for i := range fields {
			if !fields[i].Column && fields[i].Path == name {
				return i, fields[i].Kind
			}
		}
		k := format.KindAny
		if format.IsMeta(name) {
			k = format.DefaultMetaKind(name)
		}
		fields = append(fields, format.Field{Name: name, Path: name, Kind: k, Nullable: true})
		return len(fields) - 1, k
	}

	if spec != nil {
		src := make([]partition.Source, len(spec.Fields()))
		w.pin = make([]int, len(src))
		for i, pf := range spec.Fields() {
			w.pin[i], src[i].Kind = field(pf.Source)
			src[i].Column, src[i].Nullable = fields[w.pin[i]].Column, fields[w.pin[i]].Nullable
		}
		if err := spec.BindSources(src); err != nil {
			return nil, err
		}
		w.spec = spec
		w.pvals = make([]format.Value, len(src))
		if len(src) == 1 {
			w.folders = &folderCache{}
		}
	}
	if layout.RouteBy != "" {
		if len(layout.Destinations) == 0 {
			return nil, errors.New("route_by needs Layout.Destinations")
		}
		if !format.IsMeta(layout.RouteBy) {
			if err := format.ValidatePath(layout.RouteBy); err != nil {
				return nil, fmt.Errorf("route_by: %w", err)
			}
		}
		w.route, w.routeKind = field(layout.RouteBy)
		w.routeCol = fields[w.route].Column
		w.routeType = fields[w.route].Type
		w.order = sortedOrder(layout.Destinations)
	}
	if len(fields) > 0 {
		if w.x, err = format.NewExtractor(fields); err != nil {
			return nil, err
		}
		w.nfields = len(fields)
		for i, f := range fields {
			switch {
			case !f.Kind.HoldsBytes():
			case i < w.ncols:
				w.copyAt = append(w.copyAt, i)
			default:
				w.clearAt = append(w.clearAt, i)
			}
		}
	}

	w.enc = &encoder{w: w, destFiles: make([]int64, n), budget: cmp.Or(layout.budget, memoryBudget), runBytes: cmp.Or(layout.runBytes, sortRunBytes)}
	w.cur = newChunk()
	if !layout.Sequential {
		w.async = startWorker(w.enc)
	}
	return w, nil
}

// Write appends one record. It returns an *InvalidRecordError for a record
// that does not fit with on_invalid = "fail"; any error leaves the Writer
// unusable (Abort it).
func (w *Writer) Write(rec *providers.Record) error {
	if w.err != nil {
		return w.err
	}
	w.stats.Records++
	if len(w.active) == 0 {
		return nil
	}
	if rec.Invalid != nil {
		return w.invalid(rec, rec.Invalid)
	}
	dest := -1 // the one destination with route_by
	if w.x != nil {
		w.vals = w.cur.slot(w.nfields)
		if err := w.x.Extract(rec, w.vals); err != nil {
			return w.invalid(rec, err)
		}
	}
	if w.ncols == 0 {
		// Passed through byte for byte: readers parse all of it.
		if err := format.CheckText(rec.Value); err != nil {
			return w.invalid(rec, err)
		}
	}
	if w.route >= 0 {
		// Hashing the empty key would send every record that lacks the
		// field to one destination, silently.
		if v := &w.vals[w.route]; v.Null {
			return w.invalid(rec, w.unroutable(v))
		}
		if dest = w.destination(); !w.isOn[dest] {
			return nil
		}
	}
	t, err := w.dataTarget(dest)
	if err != nil {
		return w.invalid(rec, err)
	}
	if dest >= 0 {
		w.stats.Destinations[dest].Records++
	} else {
		for _, d := range w.active {
			w.stats.Destinations[d].Records++
		}
	}
	if w.ncols > 0 {
		w.cur.addSlot(t, w.nfields, w.copyAt, w.clearAt)
	} else {
		w.cur.addRaw(t, rec.Value)
	}
	if w.cur.full() {
		return w.dispatch()
	}
	return nil
}

// dataTarget returns the target of the current record's data, which goes
// to destination dest (-1: to every active one).
func (w *Writer) dataTarget(dest int) (int32, error) {
	if w.spec == nil {
		// One folder: the target is a function of dest alone, kept
		// rather than looked up by key for every record.
		if t := w.plain[dest+1]; t >= 0 {
			return t, nil
		}
	}
	var pv *format.Value
	if w.folders != nil {
		pv = &w.vals[w.pin[0]]
		if t, ok := w.folders.get(dest, pv); ok {
			return t, nil
		}
	}
	w.keyBuf = appendTargetKey(w.keyBuf[:0], false, dest)
	if w.spec != nil {
		for i, j := range w.pin {
			w.pvals[i] = w.vals[j]
		}
		var err error
		if w.keyBuf, err = w.spec.AppendPath(w.keyBuf, w.pvals); err != nil {
			return 0, err
		}
	}
	t, ok := w.byKey[string(w.keyBuf)]
	if !ok {
		t = w.addTarget(false, dest, string(w.keyBuf[keyHeader:]))
	}
	if pv != nil {
		w.folders.put(dest, pv, t)
	}
	if w.spec == nil {
		w.plain[dest+1] = t
	}
	return t, nil
}

// invalid handles a record that does not fit: an error with on_invalid =
// "fail", a line under RejectedDir with "reject".
func (w *Writer) invalid(rec *providers.Record, cause error) error {
	ie := &InvalidRecordError{Partition: rec.Partition, Offset: rec.Offset, Reason: cause.Error(), Err: cause}
	var fe *format.FieldError
	var ve *partition.ValueError
	switch {
	case errors.As(cause, &fe):
		ie.Column, ie.Reason = fe.Field, fe.Reason
	case errors.As(cause, &ve):
		ie.Column, ie.Reason = ve.Field, ve.Reason
	}
	if w.failFast {
		w.err = ie
		return ie
	}
	// A rejected record goes where the record would have gone when its
	// route value could be read (data stays on its side of a routed sink),
	// else to every active destination. Routed sinks keep one reject file
	// stream per destination, so that two streams never share a file name.
	w.text = appendRejectLine(w.text[:0], rec, cause.Error())
	w.stats.Rejected++
	if w.route < 0 {
		return w.addReject(-1)
	}
	var se *format.SyntaxError
	// A record whose JSON could not be read, by the source or here, has no
	// route value.
	if !errors.As(cause, &se) && rec.Invalid == nil && !w.vals[w.route].Null {
		dest := w.destination()
		if !w.isOn[dest] {
			return nil
		}
		return w.addReject(dest)
	}
	for _, d := range w.active {
		if err := w.addReject(d); err != nil {
			return err
		}
	}
	return nil
}

// unroutable is why the current record, whose route value v is null or
// missing, has no destination.
func (w *Writer) unroutable(v *format.Value) error {
	reason := "missing, and route_by needs it to choose the record's destination"
	if v.Token == format.TokNull {
		reason = "null, and route_by needs a value to choose the record's destination"
	}
	return &format.FieldError{Field: w.layout.RouteBy, Column: w.routeCol, Reason: reason}
}

// destination returns the destination the current record's route value
// sends it to (see Route).
func (w *Writer) destination() int {
	if w.routeKind == format.KindDecimal {
		w.routeKey = format.AppendDecimal(w.routeKey[:0], w.vals[w.route], w.routeType)
	} else {
		w.routeKey = format.AppendText(w.routeKey[:0], w.vals[w.route], w.routeKind)
	}
	return w.order[routeIndex(w.routeKey, len(w.order))]
}

// addReject queues the reject line in w.text for destination dest, or for
// every active destination when dest is -1.
func (w *Writer) addReject(dest int) error {
	w.keyBuf = appendTargetKey(w.keyBuf[:0], true, dest)
	t, ok := w.byKey[string(w.keyBuf)]
	if !ok {
		t = w.addTarget(true, dest, RejectedDir)
	}
	if dest >= 0 {
		w.stats.Destinations[dest].Rejected++
	} else {
		for _, d := range w.active {
			w.stats.Destinations[d].Rejected++
		}
	}
	w.cur.addRaw(t, w.text)
	if w.cur.full() {
		return w.dispatch()
	}
	return nil
}

// keyHeader is the length of a target key's prefix: kind, then destination.
const keyHeader = 3

// appendTargetKey starts the key of a target: whether it holds rejects, and
// its one destination (or 0xffff for all active ones); the folder follows.
func appendTargetKey(dst []byte, reject bool, dest int) []byte {
	kind := byte('d')
	if reject {
		kind = 'r'
	}
	d := uint16(0xffff)
	if dest >= 0 {
		d = uint16(dest)
	}
	return append(dst, kind, byte(d>>8), byte(d))
}

func (w *Writer) addTarget(reject bool, dest int, dir string) int32 {
	t := &target{dir: dir, format: w.data, ext: w.data.Ext(), dests: w.active, sorted: len(w.targets) >= w.maxOpen}
	if reject {
		t.format, t.ext = w.reject, RejectedExt
	}
	if dest >= 0 {
		t.dests = []int{dest}
	}
	id := int32(len(w.targets))
	w.targets = append(w.targets, t)
	w.byKey[string(w.keyBuf)] = id
	return id
}

// dispatch hands the current chunk to the encoder.
func (w *Writer) dispatch() error {
	// The encoder reads targets through the chunk: Write appends to
	// w.targets meanwhile, and what the chunk holds is never written again.
	w.cur.targets = w.targets
	if w.async == nil {
		err := w.enc.encode(w.cur)
		w.cur.reset()
		if err != nil {
			w.err = err
		}
		return err
	}
	next, err := w.async.submit(w.cur)
	w.cur = next
	if err != nil {
		w.err = err
	}
	return err
}

// Close finishes the open files and returns what was written.
func (w *Writer) Close() (Stats, error) {
	if w.err != nil {
		return w.stats, w.err
	}
	if len(w.cur.rows) > 0 {
		if err := w.dispatch(); err != nil {
			return w.stats, err
		}
	}
	if w.async != nil {
		if err := w.async.stop(); err != nil {
			w.err = err
			return w.stats, err
		}
		w.async.release()
		w.async = nil
	}
	if err := w.enc.finishAll(); err != nil {
		w.err = err
		return w.stats, err
	}
	w.cur.release()
	w.cur = nil
	w.err = errors.New("pipeline: Writer used after Close")
	return w.stats, nil
}

// Abort discards the open files.
func (w *Writer) Abort() {
	if w.async != nil {
		w.async.cancel.Store(true)
		w.async.stop()
		w.async = nil
	}
	for _, t := range w.targets {
		if t.file != nil {
			if t.enc != nil { // nil once closed, its file not yet finished
				t.enc.Abort()
			}
			t.file.Abort()
			t.file, t.enc = nil, nil
		}
	}
	if w.enc.sorter != nil {
		w.enc.sorter.close()
		w.enc.sorter = nil
	}
	// The chunks are not returned to the pool: after a failure an encoder
	// may still have pointed into them.
	if w.err == nil {
		w.err = errors.New("pipeline: Writer used after Abort")
	}
}

// finishConcurrency bounds the files finished at once at the end of a batch:
// their footers are CPU, their fsyncs mostly waiting on the disk.
const finishConcurrency = 8

// encoder turns chunks into files. It runs on the worker goroutine in
// pipelined mode; it owns the targets' encoding-side fields.
type encoder struct {
	w         *Writer
	gen       uint64
	touched   []*target
	buffered  int64 // by the open files, as of their last chunk
	budget    int64 // the most they may buffer
	runBytes  int
	sorter    *sorter // the rows of sorted targets; nil until one has a row
	files     int64
	destFiles []int64 // per destination, merged into Stats by finishAll
}

func (e *encoder) encode(c *chunk) error {
	e.gen++
	e.touched = e.touched[:0]
	w := e.w
	for i := range c.rows {
		r := &c.rows[i]
		t := c.targets[r.target]
		if t.sorted {
			if err := e.sortRow(r, c); err != nil {
				return err
			}
			continue
		}
		if err := e.rollIfFull(t); err != nil {
			return err
		}
		if t.file == nil {
			if err := e.open(t); err != nil {
				return err
			}
		}
		var vals []format.Value
		if r.vals >= 0 {
			vals = c.vals[r.vals : int(r.vals)+w.ncols : int(r.vals)+w.ncols]
		}
		if err := t.enc.Append(r.raw, vals); err != nil {
			return e.fileErr(t, err)
		}
		t.records++
		if t.gen != e.gen {
			t.gen = e.gen
			e.touched = append(e.touched, t)
		}
	}
	return e.bound(c.targets)
}

// sortRow hands a row of a sorted target to the sorter.
func (e *encoder) sortRow(r *row, c *chunk) error {
	if e.sorter == nil {
		e.sorter = newSorter(e.runBytes)
	}
	var vals []format.Value
	if r.vals >= 0 {
		n := e.w.ncols
		vals = c.vals[r.vals : int(r.vals)+n : int(r.vals)+n]
	}
	return e.sorter.add(r.target, r.raw, vals)
}

// memoryBudget bounds what the open files of a batch buffer together (for
// Parquet, the row groups' pages counted before compression, an upper bound,
// and the pages being filled). Each file holds at most one row group of
// Layout.RowGroupRecords rows; with many partition folders open, or wide
// records, that alone would grow with the batch. Past the budget, the files
// holding the most end their row group early. With the generate schema in 8
// country folders, a batch of 2,000,000 records gets row groups of 40,000 to
// 80,000 rows and the same peak RSS as a batch of 200,000 (about 65 MB for
// the whole apply). With hundreds of folders, row groups get small instead.
const memoryBudget = 32 << 20

// bound flushes the files holding the most until the open files buffer no
// more than the budget. It runs between chunks, at points that depend only
// on the records, and flushing depends only on the bytes buffered, so the
// files stay deterministic.
func (e *encoder) bound(targets []*target) error {
	for _, t := range e.touched {
		if t.enc != nil {
			n := t.enc.Buffered()
			e.buffered += n - t.buffered
			t.buffered = n
		}
	}
	for e.buffered > e.budget {
		var big *target
		for _, t := range targets {
			if t.enc != nil && (big == nil || t.buffered > big.buffered) {
				big = t
			}
		}
		if big == nil {
			break
		}
		if err := big.enc.Flush(); err != nil {
			return e.fileErr(big, err)
		}
		n := big.enc.Buffered()
		freed := n < big.buffered
		e.buffered += n - big.buffered
		big.buffered = n
		if !freed { // what is left cannot be written out before more records
			break
		}
	}
	return nil
}

// rollIfFull finishes t's open file, before a record is appended to it, when
// the file is full: it holds max_file_records records, or max_file_size
// bytes, or as many row groups as a Parquet file can. The file's size is
// the encoder's (format.Encoder.Size), which depends only on the records,
// so the cut does too. A text file ends at the first record that takes it
// to max_file_size or past it; a Parquet file ends between row groups, when
// its row groups written and its open one, at their compression ratio,
// reach it. Before its first row group a Parquet file cannot tell that
// ratio: the open row group is written out once its uncompressed bytes
// reach what is left, and the file measured again.
func (e *encoder) rollIfFull(t *target) error {
	if t.file == nil {
		return nil
	}
	l := &e.w.layout
	full := l.MaxFileRecords > 0 && t.records >= l.MaxFileRecords || t.enc.Full()
	if !full && l.MaxFileSize > 0 {
		size, guess := t.enc.Size()
		if size >= l.MaxFileSize && guess {
			if err := t.enc.Flush(); err != nil {
				return e.fileErr(t, err)
			}
			e.buffered -= t.buffered
			t.buffered = t.enc.Buffered()
			e.buffered += t.buffered
			size, _ = t.enc.Size()
		}
		full = size >= l.MaxFileSize
	}
	if !full {
		return nil
	}
	return e.finish(t)
}

func (e *encoder) open(t *target) error {
	rel := path.Join(t.dir, FileName(e.w.layout.Shard, e.w.batch, t.seq, t.ext))
	f, err := e.w.out.Create(t.dests, rel)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	t.seq++
	t.file = f
	t.enc = t.format.NewEncoder(f)
	t.records = 0
	return nil
}

func (e *encoder) fileErr(t *target, err error) error {
	return fmt.Errorf("write %s: %w", path.Join(t.dir, FileName(e.w.layout.Shard, e.w.batch, t.seq-1, t.ext)), err)
}

// finish completes t's open file.
func (e *encoder) finish(t *target) error {
	if err := t.enc.Close(); err != nil {
		return e.fileErr(t, err)
	}
	if err := t.file.Finish(t.records); err != nil {
		return e.fileErr(t, err)
	}
	t.file, t.enc = nil, nil
	e.buffered -= t.buffered
	t.buffered = 0
	e.files++
	for _, d := range t.dests {
		e.destFiles[d]++
	}
	return nil
}

// finishAll completes every open file, then writes the sorted targets, and
// counts the files into the stats.
func (e *encoder) finishAll() error {
	if err := e.finishOpen(); err != nil {
		return err
	}
	if err := e.writeSorted(); err != nil {
		return err
	}
	e.w.stats.Files = e.files
	for d, n := range e.destFiles {
		e.w.stats.Destinations[d].Files = n
	}
	return nil
}

// finishOpen completes every open file. The files are independent: the
// encoders' last pages and footers are written, and the files finished (a
// local file's fsync), several at once.
func (e *encoder) finishOpen() error {
	var open []*target
	for _, t := range e.w.targets {
		if t.file != nil {
			open = append(open, t)
		}
	}
	errs := make([]error, len(open))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(finishConcurrency, len(open)) {
		wg.Go(func() {
			defer crash.Report()
			for i := int(next.Add(1) - 1); i < len(open); i = int(next.Add(1) - 1) {
				t := open[i]
				if err := t.enc.Close(); err != nil {
					errs[i] = e.fileErr(t, err)
				} else if err := t.file.Finish(t.records); err != nil {
					errs[i] = e.fileErr(t, err)
				}
			}
		})
	}
	wg.Wait()
	for i, t := range open {
		if errs[i] != nil {
			continue // Abort discards it
		}
		t.file, t.enc = nil, nil
		e.files++
		for _, d := range t.dests {
			e.destFiles[d]++
		}
	}
	return errors.Join(errs...)
}

// writeSorted writes the sorted targets' files, target after target in the
// order the batch met them, each target's rows in record order: one file is
// written at a time, and the files done are finished (fsync, upload) by up
// to finishConcurrency goroutines meanwhile. A file's last row group is
// written out before it is handed over, so finishing holds no rows.
func (e *encoder) writeSorted() error {
	s := e.sorter
	if s == nil {
		return nil
	}
	defer func() {
		s.close()
		e.sorter = nil
	}()
	it, err := s.iter()
	if err != nil {
		return err
	}
	fin := startFinisher()
	err = e.drainSorted(it, fin)
	done, ferr := fin.stop()
	if errors.Is(err, errFinish) {
		err = nil // ferr says why
	}
	for _, t := range done {
		t.file, t.enc = nil, nil
		e.files++
		for _, d := range t.dests {
			e.destFiles[d]++
		}
	}
	return errors.Join(err, ferr)
}

func (e *encoder) drainSorted(it rowIter, fin *finisher) error {
	vals := make([]format.Value, e.w.ncols)
	var cur *target
	handOff := func() error {
		if err := cur.enc.Flush(); err != nil {
			return e.fileErr(cur, err)
		}
		e.buffered -= cur.buffered
		cur.buffered = 0
		return fin.add(cur, e)
	}
	for {
		id, p, ok, err := it.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		t := e.w.targets[id]
		if t != cur {
			if cur != nil {
				if err := handOff(); err != nil {
					return err
				}
			}
			cur = t
		}
		raw, isVals, err := decodeRow(p, vals)
		if err != nil {
			return err
		}
		rowVals := vals
		if !isVals {
			rowVals = nil
		}
		if err := e.rollIfFull(t); err != nil {
			return err
		}
		if t.file == nil {
			if err := e.open(t); err != nil {
				return err
			}
		}
		if err := t.enc.Append(raw, rowVals); err != nil {
			return e.fileErr(t, err)
		}
		t.records++
		// The one file being written keeps to the budget on its own.
		if t.enc.Buffered() > e.budget {
			if err := t.enc.Flush(); err != nil {
				return e.fileErr(t, err)
			}
		}
	}
	if cur != nil {
		return handOff()
	}
	return nil
}

// errFinish stops the sorted targets once a file failed to finish.
var errFinish = errors.New("a file failed to finish")

// finisher completes files on finishConcurrency goroutines. A file that
// fails is left open on its target, for Abort.
type finisher struct {
	jobs   chan finishJob
	wg     sync.WaitGroup
	failed atomic.Bool
	mu     sync.Mutex
	errs   []error
	done   []*target
}

type finishJob struct {
	t *target
	e *encoder
}

func startFinisher() *finisher {
	f := &finisher{jobs: make(chan finishJob)}
	for range finishConcurrency {
		f.wg.Go(func() {
			defer crash.Report()
			for j := range f.jobs {
				t := j.t
				err := t.enc.Close()
				if err == nil {
					// A closed encoder keeps its file's metadata: over
					// thousands of folders that is megabytes, kept until
					// the last file is written unless let go here.
					t.enc = nil
					err = t.file.Finish(t.records)
				}
				f.mu.Lock()
				if err != nil {
					f.errs = append(f.errs, j.e.fileErr(t, err))
					f.failed.Store(true)
				} else {
					f.done = append(f.done, t)
				}
				f.mu.Unlock()
			}
		})
	}
	return f
}

// add queues t's open file; it blocks while every goroutine is busy, so
// that no more than finishConcurrency files wait.
func (f *finisher) add(t *target, e *encoder) error {
	if f.failed.Load() {
		return errFinish
	}
	f.jobs <- finishJob{t, e}
	return nil
}

// stop waits for the queued files and returns those finished.
func (f *finisher) stop() ([]*target, error) {
	close(f.jobs)
	f.wg.Wait()
	return f.done, errors.Join(f.errs...)
}

// worker runs the encoder on its own goroutine. Chunks go to it in order and
// come back empty; three chunks circulate, so decoding can run one or two
// chunks ahead of encoding.
type worker struct {
	work   chan *chunk
	free   chan *chunk
	done   chan struct{}
	failed atomic.Bool // set by the worker when encoding failed
	cancel atomic.Bool // set by Abort: skip the queued chunks
	err    error       // written by the worker; read after done is closed
}

const chunksInFlight = 2

func startWorker(e *encoder) *worker {
	k := &worker{work: make(chan *chunk, chunksInFlight), free: make(chan *chunk, chunksInFlight+1), done: make(chan struct{})}
	for range chunksInFlight {
		k.free <- newChunk()
	}
	work := k.work // stop sets k.work to nil
	go func() {
		defer close(k.done)
		defer crash.Report()
		for c := range work {
			if k.err == nil && !k.cancel.Load() {
				if k.err = e.encode(c); k.err != nil {
					k.failed.Store(true)
				}
			}
			c.reset()
			k.free <- c
		}
	}()
	return k
}

// submit queues c and returns an empty chunk to fill next.
func (k *worker) submit(c *chunk) (*chunk, error) {
	if k.failed.Load() {
		return c, k.stop()
	}
	k.work <- c
	return <-k.free, nil
}

// release returns the worker's chunks to the pool, once it has stopped.
func (k *worker) release() {
	for len(k.free) > 0 {
		(<-k.free).release()
	}
}

// stop waits for the queued chunks to be encoded and returns the first error.
func (k *worker) stop() error {
	if k.work != nil {
		close(k.work)
		k.work = nil
	}
	<-k.done
	return k.err
}

// FileFormat is the format of the data files New writes for layout: its
// columns but its identity partitions, which the folders hold.
func FileFormat(layout Layout) (*format.Format, error) {
	layout.Sequential = true
	w, err := New(layout, 0, nil, nil)
	if err != nil {
		return nil, err
	}
	w.Abort()
	return w.data, nil
}
