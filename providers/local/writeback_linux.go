package local

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing [off, off+n) of f to disk
// without waiting for it, so that the disk works while the rest of the file
// is encoded and the fsync at commit finds little left to write. It is a hint:
// an error only means the fsync does all the work.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
