package s3

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"

	"github.com/streamctl/streamctl/providers"
)

// statusOf returns the HTTP status of a failed request, or 0 when none came back.
func statusOf(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// codeOf returns the S3 error code (NoSuchKey, AccessDenied, …), or "".
func codeOf(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// action is the IAM permission each operation needs, named in access-denied errors.
var action = map[string]string{
	"put":    "s3:PutObject",
	"get":    "s3:GetObject",
	"stat":   "s3:GetObject",
	"copy":   "s3:GetObject on the source and s3:PutObject on the destination",
	"delete": "s3:DeleteObject",
	"list":   "s3:ListBucket",
}

// credentialsProvider marks the errors of the AWS credential chain, so that
// wrapErr can tell "no credentials found" from a failed request.
type credentialsProvider struct{ aws.CredentialsProvider }

func (p credentialsProvider) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := p.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return c, &credentialsError{err}
	}
	return c, nil
}

type credentialsError struct{ err error }

func (e *credentialsError) Error() string { return e.err.Error() }
func (e *credentialsError) Unwrap() error { return e.err }

// wrapErr names the operation and the object in err and maps S3's not-found into
// providers.ErrNotExist. loc is where it happened, e.g. "s3://bucket/key".
func wrapErr(op, loc, bucket string, err error) error {
	if err == nil {
		return nil
	}
	code, status := codeOf(err), statusOf(err)
	var credErr *credentialsError
	switch {
	case errors.As(err, &credErr):
		return fmt.Errorf("%s %s: no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "+
			"AWS_PROFILE (run `aws sso login` for SSO profiles), or profile in the configuration: %w", op, loc, err)
	case code == "NoSuchBucket":
		// Not ErrNotExist: a missing bucket must stop the run, not read as
		// "the object is not there yet".
		return fmt.Errorf("%s %s: bucket %q does not exist: %w", op, loc, bucket, err)
	case code == "NoSuchKey" || code == "NotFound":
		// NotFound is a HEAD's 404, which has no body. Other 404 codes
		// (NoSuchUpload, or versitygw's XAdminUserNotFound) are not a missing object.
		return fmt.Errorf("%s %s: %w", op, loc, providers.ErrNotExist)
	case code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch" || code == "InvalidToken" ||
		code == "ExpiredToken" || code == "TokenRefreshRequired" ||
		code == "XAdminUserNotFound": // versitygw's unknown access key, with a 404
		return fmt.Errorf("%s %s: the server rejected the credentials (%s): check AWS_ACCESS_KEY_ID and "+
			"AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or profile, access_key and secret_key in the configuration: %w",
			op, loc, code, err)
	case code == "Forbidden" || (status == 403 && code != "AccessDenied"):
		// A HEAD response has no body, so S3 cannot say whether the key or the
		// permission is wrong.
		return fmt.Errorf("%s %s: access denied: check the credentials (AWS_ACCESS_KEY_ID, AWS_PROFILE, "+
			"or profile, access_key and secret_key in the configuration) and that they have %s: %w",
			op, loc, action[op], err)
	case code == "AccessDenied":
		return fmt.Errorf("%s %s: access denied: the credentials need %s (or the bucket policy, "+
			"or the KMS key policy, refuses it): %w", op, loc, action[op], err)
	}
	return fmt.Errorf("%s %s: %w", op, loc, err)
}
