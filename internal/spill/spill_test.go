package spill

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

func TestBufferInMemoryThenOnDisk(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	var b Buffer
	defer b.Close()
	var all []byte
	write := func(n int) {
		p := bytes.Repeat([]byte{byte('a' + len(all)%26)}, n)
		if _, err := b.Write(p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p...)
	}
	write(1000)
	if b.f != nil {
		t.Fatal("a small buffer went to disk")
	}
	if err := iotest.TestReader(b.Section(100, 500), all[100:600]); err != nil {
		t.Fatalf("section in memory: %v", err)
	}
	mem := b.Section(0, 1000) // read after the spill below: still the same bytes
	for len(all) < 3*MemoryLimit {
		write(70_000)
	}
	if b.f == nil {
		t.Fatal("a buffer past MemoryLimit stayed in memory")
	}
	if b.Size() != int64(len(all)) {
		t.Fatalf("Size = %d, want %d", b.Size(), len(all))
	}
	for _, s := range [][2]int64{{0, int64(len(all))}, {MemoryLimit - 10, 20}, {int64(len(all)) - 5, 5}, {7, 0}} {
		if err := iotest.TestReader(b.Section(s[0], s[1]), all[s[0]:s[0]+s[1]]); err != nil {
			t.Errorf("section %v: %v", s, err)
		}
	}
	if got, _ := io.ReadAll(mem); !bytes.Equal(got, all[:1000]) {
		t.Error("a section taken before the spill changed")
	}
	// The file is unlinked at once: nothing shows in TMPDIR, even while open.
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("TMPDIR holds %v", entries)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestBufferUnwritableTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var b Buffer
	defer b.Close()
	_, err := b.Write(make([]byte, MemoryLimit+1))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("set TMPDIR")) {
		t.Fatalf("write past the memory limit with no TMPDIR: %v", err)
	}
}
