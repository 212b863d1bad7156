package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// writer is the ObjectWriter of Storage.Create. It is not safe for concurrent
// use, like any io.Writer; its part uploads run in the background.
type writer struct {
	s      *Storage
	ctx    context.Context // cancelled by Abort and at the end of Commit
	cancel context.CancelFunc
	key    string // the S3 key
	done   bool

	// The whole object while it is at most threshold bytes, in blocks of one
	// part's size, so that they become the first parts without a copy when it
	// outgrows the threshold.
	blocks [][]byte
	size   int64

	// The multipart upload, once the object outgrew threshold.
	uploadID *string
	part     []byte        // the part being filled
	next     int32         // the number of the last part sent
	sem      chan struct{} // one token per part in flight
	wg       sync.WaitGroup

	mu    sync.Mutex // guards the fields below, written by the part uploads
	parts []types.CompletedPart
	free  [][]byte // part buffers to reuse
	err   error    // the first failed part
}

func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// fail records err as the writer's failure, so that Commit refuses to publish
// an object that lost bytes, and returns it.
func (w *writer) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	return err
}

// Write buffers p, and once the object outgrows the threshold, sends every full
// part. It blocks while two parts are in flight.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("put %s: write to a finished object", w.s.loc(w.key))
	}
	if err := w.failed(); err != nil {
		return 0, err
	}
	n := len(p)
	if w.uploadID == nil {
		if w.size+int64(len(p)) <= w.s.threshold {
			w.buffer(p)
			return n, nil
		}
		if err := w.startMultipart(); err != nil {
			return 0, w.fail(err)
		}
	}
	for len(p) > 0 {
		if w.part == nil {
			w.part = w.partBuffer()
		}
		k := copy(w.part[len(w.part):cap(w.part)], p)
		w.part = w.part[:len(w.part)+k]
		p = p[k:]
		if int64(len(w.part)) == w.s.partSize {
			if err := w.send(w.part, true); err != nil {
				return n - len(p), w.fail(err)
			}
			w.part = nil
		}
	}
	return n, nil
}

// buffer appends p to the blocks. The first block grows by doubling, so that a
// small object takes little memory; the next ones are allocated whole.
func (w *writer) buffer(p []byte) {
	partSize := int(w.s.partSize)
	w.size += int64(len(p))
	for len(p) > 0 {
		i := len(w.blocks) - 1
		if i < 0 || len(w.blocks[i]) == partSize {
			w.blocks = append(w.blocks, nil)
			i++
		}
		b := w.blocks[i]
		k := min(len(p), partSize-len(b))
		if cap(b)-len(b) < k {
			c := partSize
			if i == 0 {
				c = min(partSize, max(2*cap(b), len(b)+k, 4<<10))
			}
			b = append(make([]byte, 0, c), b...)
		}
		w.blocks[i] = append(b, p[:k]...)
		p = p[k:]
	}
}

// startMultipart creates the multipart upload and sends the buffered blocks as
// its first parts.
func (w *writer) startMultipart() error {
	enc, kms := w.s.sse()
	out, err := w.s.client.CreateMultipartUpload(w.ctx, &s3.CreateMultipartUploadInput{
		Bucket:               aws.String(w.s.bucket),
		Key:                  aws.String(w.key),
		ServerSideEncryption: enc,
		SSEKMSKeyId:          kms,
		StorageClass:         types.StorageClass(w.s.cfg.StorageClass),
	})
	if err != nil {
		return w.s.wrap("put", w.key, err)
	}
	w.uploadID = out.UploadId
	blocks := w.blocks
	w.blocks, w.size = nil, 0
	for _, b := range blocks {
		if int64(len(b)) < w.s.partSize { // the last one
			if int64(cap(b)) < w.s.partSize {
				b = append(w.partBuffer(), b...)
			}
			w.part = b
			break
		}
		if err := w.send(b, true); err != nil {
			return err
		}
	}
	return nil
}

// partBuffer returns an empty buffer of one part's capacity, reused when one is free.
func (w *writer) partBuffer() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.free); n > 0 {
		b := w.free[n-1]
		w.free = w.free[:n-1]
		return b
	}
	return make([]byte, 0, w.s.partSize)
}

// send uploads data as the next part in the background, once fewer than two
// parts are in flight. reuse says whether data is a part buffer to recycle.
func (w *writer) send(data []byte, reuse bool) error {
	if w.next == maxParts {
		return fmt.Errorf("put %s: the object exceeds %d parts of %d bytes: raise part_size", w.s.loc(w.key), maxParts, w.s.partSize)
	}
	select {
	case w.sem <- struct{}{}:
	case <-w.ctx.Done():
		return fmt.Errorf("put %s: %w", w.s.loc(w.key), w.ctx.Err())
	}
	if err := w.failed(); err != nil {
		<-w.sem
		return err
	}
	w.next++
	num := w.next
	w.wg.Go(func() {
		defer func() { <-w.sem }()
		out, err := w.s.client.UploadPart(w.ctx, &s3.UploadPartInput{
			Bucket:        aws.String(w.s.bucket),
			Key:           aws.String(w.key),
			UploadId:      w.uploadID,
			PartNumber:    aws.Int32(num),
			Body:          bytes.NewReader(data),
			ContentLength: aws.Int64(int64(len(data))),
		})
		w.mu.Lock()
		defer w.mu.Unlock()
		if reuse {
			w.free = append(w.free, data[:0])
		}
		if err != nil {
			if w.err == nil {
				w.err = wrapErr("put", fmt.Sprintf("%s (part %d)", w.s.loc(w.key), num), w.s.bucket, err)
			}
			return
		}
		w.parts = append(w.parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
	})
	return nil
}

// Commit sends the object with one PutObject, or sends the last part and
// completes the multipart upload. After a failed Commit the upload is aborted
// and the key holds what it held before.
func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("put %s: commit of a finished object", w.s.loc(w.key))
	}
	w.done = true
	defer w.cancel()
	if err := w.failed(); err != nil {
		if w.uploadID != nil {
			w.wg.Wait()
			return w.abortAfter(err)
		}
		return err
	}
	if w.uploadID == nil {
		_, err := w.s.putObjectFrom(w.ctx, w.key, newBlockReader(w.blocks, w.size), w.size, nil, nil)
		w.blocks = nil
		return w.s.wrap("put", w.key, err)
	}
	var err error
	if len(w.part) > 0 {
		err = w.send(w.part, false)
		w.part = nil
	}
	w.wg.Wait()
	if err == nil {
		err = w.failed()
	}
	if err != nil {
		return w.abortAfter(err)
	}
	slices.SortFunc(w.parts, func(a, b types.CompletedPart) int { return int(*a.PartNumber - *b.PartNumber) })
	_, err = w.s.client.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
		Bucket:          aws.String(w.s.bucket),
		Key:             aws.String(w.key),
		UploadId:        w.uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts},
	})
	if err != nil {
		return w.abortAfter(w.s.wrap("put", w.key, err))
	}
	return nil
}

// Abort discards the buffer, or stops the part uploads and aborts the multipart
// upload so that S3 keeps (and bills) no parts. It does nothing after Commit.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.cancel()
	w.blocks, w.part = nil, nil
	if w.uploadID == nil {
		return nil
	}
	w.wg.Wait()
	return w.abortUpload()
}

// abortAfter aborts the upload after err, and says so when the abort fails too.
func (w *writer) abortAfter(err error) error {
	if aerr := w.abortUpload(); aerr != nil {
		return fmt.Errorf("%w; %v", err, aerr)
	}
	return err
}

// abortUpload aborts the multipart upload even when the writer's context is
// cancelled: an interrupted run must not leave parts behind.
func (w *writer) abortUpload() error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), time.Minute)
	defer cancel()
	_, err := w.s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
		Bucket:   aws.String(w.s.bucket),
		Key:      aws.String(w.key),
		UploadId: w.uploadID,
	})
	if err != nil && codeOf(err) != "NoSuchUpload" {
		return fmt.Errorf("abort upload of %s (id %s): %w (its parts stay stored until aborted; "+
			"a bucket lifecycle rule AbortIncompleteMultipartUpload removes them)", w.s.loc(w.key), aws.ToString(w.uploadID), err)
	}
	return nil
}

// blockReader reads blocks as one seekable stream: the SDK seeks to compute
// checksums and to rewind the body for a retry.
type blockReader struct {
	blocks [][]byte
	off    int64
	size   int64
}

func newBlockReader(blocks [][]byte, size int64) io.ReadSeeker {
	if len(blocks) == 1 {
		return bytes.NewReader(blocks[0])
	}
	return &blockReader{blocks: blocks, size: size}
}

func (r *blockReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	n, pos := 0, r.off
	for _, b := range r.blocks {
		if pos >= int64(len(b)) {
			pos -= int64(len(b))
			continue
		}
		n += copy(p[n:], b[pos:])
		pos = 0
		if n == len(p) {
			break
		}
	}
	r.off += int64(n)
	return n, nil
}

func (r *blockReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.size
	default:
		return 0, errors.New("seek: invalid whence")
	}
	if offset < 0 {
		return 0, errors.New("seek: negative position")
	}
	r.off = offset
	return offset, nil
}
