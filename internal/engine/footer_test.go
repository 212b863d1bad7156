package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"
)

func TestParquetFooter(t *testing.T) {
	file := func(body, meta string) []byte {
		b := append([]byte("PAR1"+body), meta...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(meta)))
		return append(b, "PAR1"...)
	}
	whole := file("pages", "META")
	tests := []struct {
		name string
		tail []byte
		want []byte
	}{
		{"a whole file", whole, []byte("META")},
		{"the end of a file", whole[6:], []byte("META")},
		{"a tail shorter than its footer", whole[len(whole)-10:], nil},
		{"not Parquet", []byte("{\"id\":1}\n"), nil},
		{"too short", []byte("AR1"), nil},
		{"an empty footer", file("", ""), []byte{}},
	}
	for _, tt := range tests {
		if got := parquetFooter(tt.tail); !bytes.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("%s: footer %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestStagedFileKeepsTheFooter: a file written in pieces of all sizes, far
// longer than the tail kept, still yields its footer.
func TestStagedFileKeepsTheFooter(t *testing.T) {
	meta := bytes.Repeat([]byte("m"), 3000)
	data := append([]byte("PAR1"), bytes.Repeat([]byte("p"), 5*footerTail+123)...)
	data = append(data, meta...)
	data = binary.LittleEndian.AppendUint32(data, uint32(len(meta)))
	data = append(data, "PAR1"...)
	f := &stagedFile{keepTail: true, hash: sha256.New()}
	for i, n := 0, 1; i < len(data); n = n*7%40000 + 1 {
		end := min(i+n, len(data))
		if _, err := f.Write(data[i:end]); err != nil {
			t.Fatal(err)
		}
		i = end
		if len(f.tail) > 2*footerTail {
			t.Fatalf("the tail holds %d bytes", len(f.tail))
		}
	}
	if got := parquetFooter(f.tail); !bytes.Equal(got, meta) {
		t.Errorf("footer of %d bytes, want the %d written", len(got), len(meta))
	}
}
