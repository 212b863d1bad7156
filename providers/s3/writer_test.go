package s3

import (
	"bytes"
	"testing"
	"testing/iotest"
)

func TestBlockReader(t *testing.T) {
	var blocks [][]byte
	var all []byte
	for i, n := range []int{7, 7, 7, 3} {
		b := bytes.Repeat([]byte{byte('a' + i)}, n)
		blocks = append(blocks, b)
		all = append(all, b...)
	}
	if err := iotest.TestReader(newBlockReader(blocks, int64(len(all))), all); err != nil {
		t.Fatal(err)
	}
}
