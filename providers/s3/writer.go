package s3

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/streamctl/streamctl/internal/spill"
)

// writer is the ObjectWriter of Storage.Create. It is not safe for concurrent
// use, like any io.Writer; its part uploads run in the background.
type writer struct {
	s      *Storage
	ctx    context.Context // cancelled by Abort and at the end of Commit
	cancel context.CancelFunc
	key    string // the S3 key
	done   bool

	// The whole object: in memory while small, then in a temporary file.
	// Uploads read sections of it.
	buf  spill.Buffer
	sent int64 // bytes handed to part uploads

	// The multipart upload, once the object outgrew threshold.
	uploadID *string
	next     int32         // the number of the last part sent
	sem      chan struct{} // one token per part in flight
	wg       sync.WaitGroup

	mu    sync.Mutex // guards the fields below, written by the part uploads
	parts []types.CompletedPart
	err   error // the first failed part
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
	n, err := w.buf.Write(p)
	if err != nil {
		return n, w.fail(fmt.Errorf("put %s: %w", w.s.loc(w.key), err))
	}
	if w.uploadID == nil {
		if w.buf.Size() <= w.s.threshold {
			return n, nil
		}
		if err := w.startMultipart(); err != nil {
			return n, w.fail(err)
		}
	}
	for w.buf.Size()-w.sent >= w.s.partSize {
		if err := w.send(w.s.partSize); err != nil {
			return n, w.fail(err)
		}
	}
	return n, nil
}

// startMultipart creates the multipart upload; Write then sends the buffered
// bytes as its first parts.
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
	return nil
}

// send uploads the next n buffered bytes as the next part in the background,
// once fewer than two parts are in flight.
func (w *writer) send(n int64) error {
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
	body := w.buf.Section(w.sent, n)
	w.sent += n
	w.wg.Go(func() {
		defer func() { <-w.sem }()
		out, err := w.s.client.UploadPart(w.ctx, &s3.UploadPartInput{
			Bucket:        aws.String(w.s.bucket),
			Key:           aws.String(w.key),
			UploadId:      w.uploadID,
			PartNumber:    aws.Int32(num),
			Body:          body,
			ContentLength: aws.Int64(n),
		})
		w.mu.Lock()
		defer w.mu.Unlock()
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
	defer w.buf.Close()
	if err := w.failed(); err != nil {
		if w.uploadID != nil {
			w.wg.Wait()
			return w.abortAfter(err)
		}
		return err
	}
	if w.uploadID == nil {
		size := w.buf.Size()
		_, err := w.s.putObjectFrom(w.ctx, w.key, w.buf.Section(0, size), size, nil, nil)
		return w.s.wrap("put", w.key, err)
	}
	var err error
	if rest := w.buf.Size() - w.sent; rest > 0 {
		err = w.send(rest)
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
	w.wg.Wait() // the part uploads read the buffer
	w.buf.Close()
	if w.uploadID == nil {
		return nil
	}
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
