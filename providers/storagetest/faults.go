package storagetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// Network injects faults between a storage and its real server (a proxy on
// loopback): what a flaky network does to requests the server applied.
type Network interface {
	// DropNextAnswer lets the server apply the next request with the HTTP
	// method and resets the connection instead of answering.
	DropNextAnswer(method string) <-chan struct{}
	// CutNextBody sends half of the next GET's body, then resets the
	// connection.
	CutNextBody() <-chan struct{}
}

// RunFaults checks the parts of the Storage contract about a network that
// loses answers: a conditional write whose answer was lost has succeeded, a
// body cut off is resumed, a delete whose answer was lost is done.
// newStorage must return an empty storage that talks through net.
func RunFaults(t *testing.T, newStorage func(t *testing.T) providers.Storage, net Network) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s providers.Storage, net Network)
	}{
		{"PutIfAbsentLostAnswer", testPutIfAbsentLostAnswer},
		{"PutIfAbsentLostAnswerIsNotAnotherWriter", testLostAnswerIsNotAnotherWriter},
		{"PutIfMatchLostAnswer", testPutIfMatchLostAnswer},
		{"GetCutBody", testGetCutBody},
		{"DeleteLostAnswer", testDeleteLostAnswer},
		{"DeleteIfMatchLostAnswer", testDeleteIfMatchLostAnswer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStorage(t), net)
		})
	}
}

func fired(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Second):
		t.Fatalf("the fault %s never fired: the request did not go through the network under test", what)
	}
}

func testPutIfAbsentLostAnswer(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	ch := net.DropNextAnswer("PUT")
	v, err := s.PutIfAbsent(ctx, "lock", []byte("ours"))
	fired(t, ch, "drop the answer to PUT")
	if err != nil {
		t.Fatalf("PutIfAbsent whose answer was lost after the store applied it: %v (the retry met our own object: the write succeeded)", err)
	}
	if info := content(t, s, "lock", []byte("ours")); info.Version != v {
		t.Errorf("PutIfAbsent returned version %q, the object has %q", v, info.Version)
	}
}

func testLostAnswerIsNotAnotherWriter(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	put(t, s, "lock", []byte("theirs"))
	ch := net.DropNextAnswer("PUT")
	_, err := s.PutIfAbsent(ctx, "lock", []byte("ours"))
	fired(t, ch, "drop the answer to PUT")
	if !errors.Is(err, providers.ErrExist) {
		t.Fatalf("PutIfAbsent over another writer's object, answer lost: %v, want ErrExist", err)
	}
	content(t, s, "lock", []byte("theirs"))
}

func testPutIfMatchLostAnswer(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	v1, err := s.PutIfAbsent(ctx, "state", []byte("serial 1"))
	if err != nil {
		t.Fatal(err)
	}
	ch := net.DropNextAnswer("PUT")
	v2, err := s.PutIfMatch(ctx, "state", []byte("serial 2"), v1)
	fired(t, ch, "drop the answer to PUT")
	if err != nil {
		t.Fatalf("PutIfMatch whose answer was lost after the store applied it: %v (a false conflict)", err)
	}
	content(t, s, "state", []byte("serial 2"))
	if _, err := s.PutIfMatch(ctx, "state", []byte("serial 3"), v2); err != nil {
		t.Fatalf("PutIfMatch with the version the settled write returned: %v", err)
	}
}

func testGetCutBody(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	put(t, s, "big", data)
	ch := net.CutNextBody()
	got, _, err := providers.ReadAll(ctx, s, "big")
	fired(t, ch, "cut the body of GET")
	if err != nil {
		t.Fatalf("read a body cut off half way: %v (it resumes while the object is unchanged)", err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("read a body cut off half way: %d bytes, want %d, equal %v", len(got), len(data), bytes.Equal(got[:min(len(got), len(data))], data[:min(len(got), len(data))]))
	}
}

func testDeleteLostAnswer(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	put(t, s, "k", []byte("x"))
	ch := net.DropNextAnswer("DELETE")
	err := s.Delete(ctx, "k")
	fired(t, ch, "drop the answer to DELETE")
	if err != nil {
		t.Fatalf("Delete whose answer was lost: %v", err)
	}
	absent(t, s, "k")
}

func testDeleteIfMatchLostAnswer(t *testing.T, s providers.Storage, net Network) {
	ctx := context.Background()
	v, err := s.PutIfAbsent(ctx, "lock", []byte("ours"))
	if err != nil {
		t.Fatal(err)
	}
	ch := net.DropNextAnswer("DELETE")
	err = s.DeleteIfMatch(ctx, "lock", v)
	fired(t, ch, "drop the answer to DELETE")
	if err != nil {
		t.Fatalf("DeleteIfMatch whose answer was lost: %v (the retry found it gone: the delete succeeded)", err)
	}
	absent(t, s, "lock")
}
