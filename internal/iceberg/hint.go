package iceberg

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	icebergio "github.com/apache/iceberg-go/io"
)

// HintFile is the version hint, relative to the table's location, where
// engines that read a table by its location look for it (Iceberg's Hadoop
// tables: Spark's and Flink's HadoopCatalog, DuckDB's iceberg_scan,
// icebird): it holds the current metadata version N, and vN.metadata.json
// beside it is that version's metadata.
const HintFile = MetadataDir + "/version-hint.text"

// hintAttempts bounds how often publishHint follows commits that other
// writers make while it publishes.
const hintAttempts = 5

// publishHint makes the table's current metadata findable by location, as
// Hadoop tables name it: the catalog's current metadata file
// (NNNNN-uuid.metadata.json, the name the SQL and REST catalogs give it) is
// copied to <location>/metadata/vN.metadata.json, then version-hint.text is
// set to N. The copy comes first, so the hint never names a file that is
// not there; the catalog's file stays where it is, so the catalog and every
// metadata log keep pointing at files that exist. A table created by an
// earlier version, whose metadata is under _streamctl/iceberg/metadata,
// gets its copies and hint in <location>/metadata too.
//
// Writers that commit at once may write their hints out of order; each
// reloads the table after its hint and publishes again when the catalog
// moved, so the last writer to finish leaves the newest version. The hint
// is not part of the commit: a crash before it leaves an older hint, which
// the next Open or Append replaces.
func (t *Table) publishHint(ctx context.Context) error {
	for range hintAttempts {
		cur := t.tbl.MetadataLocation()
		if err := t.writeHint(ctx, cur); err != nil {
			return fmt.Errorf("iceberg: table %s: publish %s: %w; the table is committed; check that the table's location is writable, and the next apply with work for the sink writes the hint again", t.name(), HintFile, err)
		}
		if err := t.refresh(ctx); err != nil {
			return err
		}
		if t.tbl.MetadataLocation() == cur {
			return nil
		}
	}
	return nil
}

// hintName is the Hadoop name of the metadata file named base
// ("00012-uuid.metadata.json" -> "v12.metadata.json", keeping a
// compression's extension) and its version, or false for a name without a
// version (a catalog that names its files otherwise gets no hint).
func hintName(base string) (string, int, bool) {
	v := metadataVersion(base)
	if v < 0 {
		return "", 0, false
	}
	_, rest, _ := strings.Cut(base, "-")
	ext := rest[strings.Index(rest, "."):] // ".metadata.json", ".gz.metadata.json"…
	return "v" + strconv.Itoa(v) + ext, v, true
}

func (t *Table) writeHint(ctx context.Context, metadataURL string) error {
	name, version, ok := hintName(path.Base(metadataURL))
	if !ok {
		return nil
	}
	root := strings.TrimSuffix(t.cfg.Location, "/") + "/"
	copyURL := root + MetadataDir + "/" + name
	hintURL := root + HintFile
	if strings.HasPrefix(t.cfg.Location, "file://") {
		return writeLocalHint(localPath(metadataURL), localPath(copyURL), localPath(hintURL), version)
	}
	fs, err := t.tbl.FS(ctx)
	if err != nil {
		return err
	}
	wfs, ok := fs.(icebergio.WriteFileIO)
	if !ok {
		return fmt.Errorf("the table's file IO cannot write")
	}
	// An object store's put is atomic: a reader sees the old object or the
	// new one. The copy of version N is the same bytes on every write.
	if f, err := fs.Open(copyURL); err == nil {
		f.Close()
	} else {
		body, err := readAll(fs, metadataURL)
		if err != nil {
			return err
		}
		if err := wfs.WriteFile(copyURL, body); err != nil {
			return err
		}
	}
	return wfs.WriteFile(hintURL, []byte(strconv.Itoa(version)))
}

func readAll(fs icebergio.IO, url string) ([]byte, error) {
	f, err := fs.Open(url)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	body := make([]byte, st.Size())
	if _, err := f.ReadAt(body, 0); err != nil && st.Size() > 0 {
		return nil, err
	}
	return body, nil
}

// writeLocalHint writes the copy and the hint of a local table each to a
// temporary file renamed into place, as Hadoop's file system tables do: a
// reader never sees a half-written file.
func writeLocalHint(metadata, copyPath, hintPath string, version int) error {
	if err := os.MkdirAll(filepath.Dir(hintPath), 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(copyPath); err != nil {
		body, err := os.ReadFile(metadata)
		if err != nil {
			return err
		}
		if err := renameInto(copyPath, body); err != nil {
			return err
		}
	}
	return renameInto(hintPath, []byte(strconv.Itoa(version)))
}

func renameInto(dst string, body []byte) error {
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
