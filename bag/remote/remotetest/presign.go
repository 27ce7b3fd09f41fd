package remotetest

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// emptyPayload is SigV4's hash for a GET (UNSIGNED-PAYLOAD in a query
// signature).
const emptyPayload = "UNSIGNED-PAYLOAD"

// Presign returns a presigned GET URL of s3://bucket/key on the server,
// signed with the server's key at signedAt and valid for expires: a
// signing time long past gives a URL the server itself refuses as
// expired, as a real presigned URL ends (no test waits for it).
func (s *S3Server) Presign(t testing.TB, bucket, key string, signedAt time.Time, expires time.Duration) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.Endpoint+"/"+bucket+"/"+key, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := req.URL.Query()
	q.Set("X-Amz-Expires", strconv.FormatInt(int64(expires/time.Second), 10))
	req.URL.RawQuery = q.Encode()
	creds := aws.Credentials{AccessKeyID: s.Access, SecretAccessKey: s.Secret}
	u, _, err := v4.NewSigner().PresignHTTP(context.Background(), creds, req, emptyPayload, "s3", s.Region, signedAt)
	if err != nil {
		t.Fatalf("presigning s3://%s/%s: %v", bucket, key, err)
	}
	return u
}
