package azblob

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"

	"github.com/streamctl/streamctl/providers"
)

// attemptsKey carries an operation's attempt counter through the SDK pipeline.
type attemptsKey struct{}

// withAttempts returns a context whose requests count their tries in n. The SDK
// retries inside one call and does not say how many tries it made.
func withAttempts(ctx context.Context) (context.Context, *atomic.Int32) {
	n := new(atomic.Int32)
	return context.WithValue(ctx, attemptsKey{}, n), n
}

// countAttempts is a per-try pipeline policy feeding withAttempts' counter.
type countAttempts struct{}

func (countAttempts) Do(req *policy.Request) (*http.Response, error) {
	if n, ok := req.Raw().Context().Value(attemptsKey{}).(*atomic.Int32); ok {
		n.Add(1)
	}
	return req.Next()
}

// opError is a failed operation on one blob or on the container. Its message
// names the operation, the location, the service's status and error code, the
// tries made and what to check; never a secret (the SDK's own messages are not
// used because a network error quotes the request URL, SAS included).
type opError struct {
	op       string // "get", "put-if-absent", …
	loc      string // azblob://account/container/blob
	status   int    // HTTP status; 0 for a network error
	code     string // the service's error code, e.g. "AuthenticationFailed"
	attempts int32
	detail   string // the cause in one line
	hint     string
	sentinel error // providers.ErrNotExist …, or nil
	cause    error // *azcore.ResponseError or the network error, without URL
}

func (e *opError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: ", e.op, e.loc)
	if e.sentinel != nil {
		b.WriteString(e.sentinel.Error())
		if e.status != 0 {
			fmt.Fprintf(&b, " (%d %s)", e.status, e.code)
		}
	} else {
		switch {
		case e.status != 0:
			fmt.Fprintf(&b, "%d %s", e.status, e.code)
		case e.code != "":
			b.WriteString(e.code)
		default:
			b.WriteString("network error")
		}
		switch {
		case e.attempts > 1:
			fmt.Fprintf(&b, " after %d attempts", e.attempts)
		case e.attempts == 1 && !retryable(e.status):
			b.WriteString(" (not retried)")
		}
		if e.detail != "" && !strings.Contains(e.detail, "\n") {
			b.WriteString(": ")
			b.WriteString(e.detail)
		}
	}
	if e.hint != "" {
		b.WriteString(": ")
		b.WriteString(e.hint)
	}
	// A long explanation (the credential chain's) goes last, on its own lines.
	if strings.Contains(e.detail, "\n") {
		b.WriteString("\n")
		b.WriteString(e.detail)
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

// retryStatus are the statuses the pipeline retries: throttling, timeouts and
// server errors.
var retryStatus = []int{
	http.StatusRequestTimeout,
	http.StatusTooManyRequests,
	http.StatusInternalServerError,
	http.StatusBadGateway,
	http.StatusServiceUnavailable,
	http.StatusGatewayTimeout,
}

func retryable(status int) bool {
	if status == 0 {
		return true
	}
	for _, s := range retryStatus {
		if s == status {
			return true
		}
	}
	return false
}

// fail turns an SDK error of operation op on blob name into an *opError; it
// returns context errors as they are, located.
func (s *Storage) fail(op, name string, err error, attempts *atomic.Int32) error {
	loc := s.location(name)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s %s: %w", op, loc, err)
	}
	e := &opError{op: op, loc: loc}
	if attempts != nil {
		e.attempts = attempts.Load()
	}
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		e.status, e.code, e.cause = re.StatusCode, re.ErrorCode, re
		if e.code == "" {
			e.code = http.StatusText(re.StatusCode)
		}
		e.detail = serviceMessage(re)
		s.classify(e)
		return e
	}
	// No Microsoft Entra token: the credential chain says why, credential by
	// credential; the request never left.
	var afe *azidentity.AuthenticationFailedError
	if s.auth == authEntra && (errors.As(err, &afe) || strings.HasPrefix(err.Error(), "DefaultAzureCredential")) {
		e.code, e.cause, e.detail = "no Microsoft Entra ID token", err, err.Error()
		e.hint = fmt.Sprintf("no secret is configured for account %q, so streamctl authenticates with Microsoft Entra ID: sign in (az login), run with a managed or workload identity, set AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET, or give sas_token, shared_key or connection_string", s.account)
		return e
	}
	// A transport error: *url.Error quotes the URL, SAS included; keep its cause.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	e.cause = err
	e.detail = err.Error()
	if e.attempts <= 1 {
		e.hint = "is the account URL right and the service reachable?"
	} else {
		e.hint = fmt.Sprintf("the service at %s did not answer (max_attempts = %d)", s.endpointHost(), s.attempts)
	}
	return e
}

// classify sets the sentinel and the hint of a service error.
func (s *Storage) classify(e *opError) {
	switch {
	case e.code == string(bloberror.ContainerNotFound):
		e.detail = ""
		e.hint = fmt.Sprintf("container %q does not exist in account %q: create it (streamctl does not create containers)", s.container, s.account)
	case e.status == http.StatusNotFound:
		e.sentinel = providers.ErrNotExist
	case e.status == http.StatusForbidden || e.status == http.StatusUnauthorized:
		e.detail = ""
		e.hint = s.authHint(e.code)
	case e.code == string(bloberror.LeaseIDMissing) || e.code == string(bloberror.LeaseIDMismatchWithBlobOperation):
		e.hint = "the blob is leased by another client (a state lock?)"
	}
}

func (s *Storage) authHint(code string) string {
	who := fmt.Sprintf("account %q, container %q", s.account, s.container)
	switch s.auth {
	case authSharedKey:
		return fmt.Sprintf("the service rejected the shared key for %s: check shared_key or %s", who, EnvKey)
	case authConnKey:
		return fmt.Sprintf("the service rejected the account key of the connection string for %s: check connection_string or %s", who, EnvConnectionString)
	case authSAS, authConnSAS:
		return fmt.Sprintf("the service rejected the SAS token for %s: check that it is for this account, has not expired and grants read, add, create, write, delete and list", who)
	default:
		if code == string(bloberror.AuthorizationPermissionMismatch) || code == string(bloberror.AuthorizationFailure) {
			return fmt.Sprintf("the Microsoft Entra identity may not do this on %s: grant it the Storage Blob Data Contributor role", who)
		}
		return fmt.Sprintf("the service rejected the Microsoft Entra token for %s: check the identity azidentity's default chain found (environment, workload identity, managed identity, Azure CLI)", who)
	}
}

// serviceMessage is the first line of the service's <Message>, which explains
// an error code (Azurite and Azure put details on further lines).
func serviceMessage(re *azcore.ResponseError) string {
	if re.RawResponse == nil {
		return ""
	}
	// Payload returns the body the SDK has already buffered.
	raw, err := runtime.Payload(re.RawResponse)
	if err != nil {
		return ""
	}
	body := string(raw)
	start := strings.Index(body, "<Message>")
	if start < 0 {
		return ""
	}
	body = body[start+len("<Message>"):]
	if end := strings.Index(body, "</Message>"); end >= 0 {
		body = body[:end]
	}
	line, _, _ := strings.Cut(body, "\n")
	return strings.TrimSpace(line)
}

// readError locates an error met while reading a blob's body.
func (s *Storage) readError(name string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("read %s: %w", s.location(name), err)
}
