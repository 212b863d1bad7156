package s3

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/streamctl/streamctl/internal/upload"
	"github.com/streamctl/streamctl/providers"
)

// multipart is one multipart upload being written: the parts go out while the
// object is written (internal/upload), into the upload created before the
// first of them.
type multipart struct {
	s        *Storage
	key      string // the S3 key
	uploadID *string
	up       *upload.Writer
}

func (s *Storage) newMultipart(ctx context.Context, key string, threshold int64, hold <-chan struct{}) *multipart {
	m := &multipart{s: s, key: key}
	m.up = upload.New(ctx, upload.Options{
		PartSize:  s.partSize,
		Threshold: threshold,
		MaxParts:  maxParts,
		Begin:     m.begin,
		Part:      m.part,
		Hold:      hold,
		Name:      s.loc(key),
		Hint:      "part_size",
	})
	return m
}

// begin creates the multipart upload; the parts then follow.
func (m *multipart) begin(ctx context.Context) error {
	enc, kms := m.s.sse()
	out, err := m.s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket:               aws.String(m.s.bucket),
		Key:                  aws.String(m.key),
		ServerSideEncryption: enc,
		SSEKMSKeyId:          kms,
		StorageClass:         types.StorageClass(m.s.cfg.StorageClass),
	})
	if err != nil {
		return m.s.wrap("put", m.key, err)
	}
	m.uploadID = out.UploadId
	return nil
}

func (m *multipart) part(ctx context.Context, index int, body io.ReadSeeker, size int64) (string, error) {
	num := int32(index + 1)
	out, err := m.s.client.UploadPart(ctx, &s3.UploadPartInput{
		Bucket:        aws.String(m.s.bucket),
		Key:           aws.String(m.key),
		UploadId:      m.uploadID,
		PartNumber:    aws.Int32(num),
		Body:          body,
		ContentLength: aws.Int64(size),
	})
	if err != nil {
		return "", wrapErr("put", fmt.Sprintf("%s (part %d)", m.s.loc(m.key), num), m.s.bucket, err)
	}
	return aws.ToString(out.ETag), nil
}

// flush sends the last part and waits for all of them. An empty object is
// one empty part: an upload cannot complete without parts.
func (m *multipart) flush() ([]types.CompletedPart, error) {
	etags, err := m.up.Flush()
	if err != nil {
		return nil, err
	}
	if len(etags) == 0 {
		if err := m.begin(m.up.Context()); err != nil {
			return nil, err
		}
		etag, err := m.part(m.up.Context(), 0, strings.NewReader(""), 0)
		if err != nil {
			return nil, err
		}
		etags = []string{etag}
	}
	parts := make([]types.CompletedPart, len(etags))
	for i, etag := range etags {
		parts[i] = types.CompletedPart{ETag: aws.String(etag), PartNumber: aws.Int32(int32(i + 1))}
	}
	return parts, nil
}

// complete makes the upload the object at its key.
func (m *multipart) complete(ctx context.Context, parts []types.CompletedPart) error {
	_, err := m.s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket:          aws.String(m.s.bucket),
		Key:             aws.String(m.key),
		UploadId:        m.uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err == nil {
		return nil
	}
	// The retry of a completion whose answer was lost finds no upload: it is
	// done when the object is the one these parts make.
	if codeOf(err) == "NoSuchUpload" {
		if info, serr := m.s.Stat(ctx, m.s.relative(m.key)); serr == nil && info.Version == multipartETag(parts) {
			return nil
		}
	}
	return m.s.wrap("put", m.key, err)
}

// abort aborts the multipart upload even when the writer's context is
// cancelled: an interrupted run must not leave parts behind.
func (m *multipart) abort() error {
	if m.uploadID == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(m.up.Context()), time.Minute)
	defer cancel()
	return m.s.abortUpload(ctx, m.key, aws.ToString(m.uploadID))
}

// abortAfter aborts the upload after err, and says so when the abort fails too.
func (m *multipart) abortAfter(err error) error {
	if aerr := m.abort(); aerr != nil {
		return fmt.Errorf("%w; %v", err, aerr)
	}
	return err
}

func (s *Storage) abortUpload(ctx context.Context, key, uploadID string) error {
	_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
		Bucket:   aws.String(s.bucket),
		Key:      aws.String(key),
		UploadId: aws.String(uploadID),
	})
	if err != nil && codeOf(err) != "NoSuchUpload" {
		return fmt.Errorf("abort upload of %s (id %s): %w (its parts stay stored until aborted; "+
			"a bucket lifecycle rule AbortIncompleteMultipartUpload removes them)", s.loc(key), uploadID, err)
	}
	return nil
}

// multipartETag is the ETag S3 gives the object completed from parts: the MD5
// of the parts' MD5s, and their count. Parts encrypted with SSE-KMS have other
// ETags, and then a lost completion is not recognised: the batch is redone.
func multipartETag(parts []types.CompletedPart) string {
	h := md5.New()
	for _, p := range parts {
		sum, err := hex.DecodeString(strings.Trim(aws.ToString(p.ETag), `"`))
		if err != nil || len(sum) != md5.Size {
			return ""
		}
		h.Write(sum)
	}
	return `"` + hex.EncodeToString(h.Sum(nil)) + "-" + strconv.Itoa(len(parts)) + `"`
}

// writer is the ObjectWriter of Storage.Create: one PutObject for an object
// of at most multipart_threshold bytes, else a multipart upload that Commit
// completes.
type writer struct {
	m    *multipart
	done bool
}

func (w *writer) Write(p []byte) (int, error) { return w.m.up.Write(p) }

// Commit sends the object with one PutObject, or sends the last part and
// completes the multipart upload. After a failed Commit the upload is aborted
// and the key holds what it held before.
func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("put %s: commit of a finished object", w.m.s.loc(w.m.key))
	}
	w.done = true
	m := w.m
	defer m.up.Close()
	if err := m.up.Err(); err != nil {
		m.up.Abort()
		return m.abortAfter(err)
	}
	if body, size, ok := m.up.Small(); ok && size <= m.s.threshold {
		_, err := m.s.putObjectFrom(m.up.Context(), m.key, body, size, nil, nil)
		return m.s.wrap("put", m.key, err)
	}
	parts, err := m.flush()
	if err == nil {
		err = m.complete(m.up.Context(), parts)
	}
	if err != nil {
		return m.abortAfter(err)
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
	w.m.up.Abort()
	return w.m.abort()
}

// stagedWriter is the StagedWriter of Storage.Stage: always a multipart
// upload, which Finish leaves open and Publish completes.
type stagedWriter struct {
	m    *multipart
	done bool
}

func (w *stagedWriter) Write(p []byte) (int, error) { return w.m.up.Write(p) }

func (w *stagedWriter) Finish() (providers.Staged, error) {
	if w.done {
		return nil, fmt.Errorf("stage %s: finish of a finished object", w.m.s.loc(w.m.key))
	}
	w.done = true
	m := w.m
	if err := m.up.Err(); err != nil {
		m.up.Abort()
		return nil, m.abortAfter(err)
	}
	if d, ok := m.up.Defer(m.s.threshold, m.s.waiting); ok {
		// Kept in the buffer until Publish sends it with one PutObject.
		return &deferredPut{Deferred: d, m: m, started: time.Now()}, nil
	}
	defer m.up.Close()
	parts, err := m.flush()
	if err != nil {
		return nil, m.abortAfter(err)
	}
	return &staged{m: m, parts: parts, started: time.Now()}, nil
}

func (w *stagedWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.m.up.Abort()
	return w.m.abort()
}

type staged struct {
	m       *multipart
	parts   []types.CompletedPart
	started time.Time
}

func (u *staged) Upload() providers.StagedUpload {
	return providers.StagedUpload{Key: u.m.s.relative(u.m.key), ID: aws.ToString(u.m.uploadID), Started: u.started}
}

func (u *staged) Publish(ctx context.Context) error { return u.m.complete(ctx, u.parts) }

// Release does nothing: the parts are on the store, which Discard aborts.
func (u *staged) Release() {}

// deferredPut is an object of at most multipart_threshold bytes, staged in
// its buffer: Publish sends it with one PutObject, which replaces the key
// atomically and, retried after a lost answer, writes the same bytes again.
type deferredPut struct {
	*upload.Deferred
	m       *multipart
	started time.Time
}

func (u *deferredPut) Upload() providers.StagedUpload {
	return providers.StagedUpload{Key: u.m.s.relative(u.m.key), Started: u.started}
}

func (u *deferredPut) Publish(ctx context.Context) error {
	return u.Send(ctx, func(ctx context.Context, body io.ReadSeeker, size int64) error {
		_, err := u.m.s.putObjectFrom(ctx, u.m.key, body, size, nil, nil)
		return u.m.s.wrap("put", u.m.key, err)
	})
}
