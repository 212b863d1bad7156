package gcs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/api/googleapi"

	"github.com/streamctl/streamctl/providers"
)

// opError is a failed operation on one object or on the bucket. Its message
// names the operation, the location, the service's answer and what to check.
type opError struct {
	op       string // "get", "put-if-absent", …
	loc      string // gs://bucket/name
	status   int    // HTTP status; 0 for a network error
	detail   string // the cause in one line
	hint     string
	sentinel error // providers.ErrNotExist …, or nil
	cause    error
}

func (e *opError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.op, e.loc)
	switch {
	case e.sentinel != nil:
		b.WriteString(e.sentinel.Error())
		if e.status != 0 {
			fmt.Fprintf(&b, " (%d)", e.status)
		}
	case e.status != 0:
		fmt.Fprintf(&b, "%d %s", e.status, http.StatusText(e.status))
	default:
		b.WriteString("error")
	}
	if e.sentinel == nil && e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	if e.hint != "" {
		b.WriteString(": ")
		b.WriteString(e.hint)
	}
	return b.String()
}

func (e *opError) Unwrap() []error {
	var errs []error
	if e.sentinel != nil {
		errs = append(errs, e.sentinel)
	}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	return errs
}

// failAs is fail for an answer the contract names with a sentinel.
func (s *Storage) failAs(op, name string, err error, sentinel error) error {
	return &opError{op: op, loc: s.location(name), status: status(err), sentinel: sentinel, cause: err}
}

// fail turns a library error of operation op on object name into an
// *opError; it returns context errors as they are, located.
func (s *Storage) fail(op, name string, err error) error {
	loc := s.location(name)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s %s: %w", op, loc, err)
	}
	e := &opError{op: op, loc: loc, status: status(err), cause: err}
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		e.detail = ge.Message
	} else {
		e.detail = err.Error()
	}
	switch {
	case e.status == http.StatusNotFound && strings.Contains(strings.ToLower(e.detail), "bucket"):
		e.hint = fmt.Sprintf("bucket %q does not exist: create it (streamctl does not create buckets)", s.name)
	case e.status == http.StatusNotFound:
		e.sentinel, e.detail = providers.ErrNotExist, ""
	case e.status == http.StatusUnauthorized || e.status == http.StatusForbidden:
		e.hint = fmt.Sprintf("the service refused the credentials for bucket %q: check GOOGLE_APPLICATION_CREDENTIALS or credentials_json, and that the account may read, create and delete objects there (roles/storage.objectUser)", s.name)
	case e.status == 0:
		e.hint = "is the service reachable (endpoint, STORAGE_EMULATOR_HOST)?"
	}
	return e
}
