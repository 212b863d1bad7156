package gsio

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"testing"

	icebergio "github.com/apache/iceberg-go/io"

	"github.com/streamctl/streamctl/internal/testenv"
)

// TestFileIO: what iceberg-go asks of a file IO, against fake-gcs-server,
// through the registered gs scheme as the table code reaches it.
func TestFileIO(t *testing.T) {
	srv := testenv.GCS(t)
	srv.CreateBucket(t, "lake")
	ctx := context.Background()
	u, _ := url.Parse("gs://lake/orders")
	fio, err := icebergio.LoadFS(ctx, map[string]string{PropEndpoint: srv.Endpoint + "/storage/v1/", PropNoAuth: "true"}, u.String())
	if err != nil {
		t.Fatal(err)
	}
	w, ok := fio.(icebergio.WriteFileIO)
	if !ok {
		t.Fatalf("%T is not a WriteFileIO", fio)
	}
	data := bytes.Repeat([]byte("0123456789"), 100_000) // 1 MB
	fw, err := w.Create("gs://lake/orders/metadata/v1.metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.ReadFrom(bytes.NewReader(data[:500_000])); err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data[500_000:]); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}

	f, err := fio.Open("gs://lake/orders/metadata/v1.metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() != int64(len(data)) || st.Name() != "v1.metadata.json" {
		t.Fatalf("Stat: %v %v", st, err)
	}
	// A footer read: the last 8 bytes, then a range before them.
	tail := make([]byte, 8)
	if n, err := f.ReadAt(tail, int64(len(data)-8)); n != 8 || err != nil || !bytes.Equal(tail, data[len(data)-8:]) {
		t.Fatalf("ReadAt the tail: %d %v %q", n, err, tail)
	}
	over := make([]byte, 16)
	if n, err := f.ReadAt(over, int64(len(data)-8)); n != 8 || err != io.EOF {
		t.Fatalf("ReadAt past the end: %d %v, want 8 and io.EOF", n, err)
	}
	if _, err := f.Seek(123_456, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(rest, data[123_456:]) {
		t.Fatalf("read from 123456: %d bytes, %v", len(rest), err)
	}
	// An open file reads the generation it opened, never the bytes of
	// the object that replaced it: without bucket versioning that
	// generation is gone, and the read fails.
	if err := w.WriteFile("gs://lake/orders/metadata/v1.metadata.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if n, err := f.ReadAt(tail, 0); n != 0 || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadAt of the generation opened, after a replace: %d %v %q; want no bytes and fs.ErrNotExist", n, err, tail)
	}
	got, err := fio.(icebergio.ReadFileIO).ReadFile("gs://lake/orders/metadata/v1.metadata.json")
	if err != nil || string(got) != "new" {
		t.Fatalf("ReadFile: %q %v", got, err)
	}

	if err := fio.Remove("gs://lake/orders/metadata/v1.metadata.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := fio.Open("gs://lake/orders/metadata/v1.metadata.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a removed file: %v, want fs.ErrNotExist", err)
	}
	if _, err := fio.Open("gs://other/x"); err == nil {
		t.Fatal("Open of another bucket's object: no error")
	}
}
