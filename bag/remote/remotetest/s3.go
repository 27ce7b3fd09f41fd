package remotetest

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3Server is a running versitygw: an S3-compatible store over a folder.
type S3Server struct {
	// Endpoint is its URL (http://127.0.0.1:PORT), for --endpoint-url.
	Endpoint string
	// Addr is its host:port.
	Addr string
	// Access and Secret are its root user's keys.
	Access, Secret string
	// Region is the region it answers for.
	Region string
	client *s3.Client
}

// Versity starts versitygw on 127.0.0.1 with a POSIX backend in the test's
// temporary folder (metadata in a sidecar folder, so no extended
// attributes are needed) and makes the buckets named.
func Versity(t testing.TB, buckets ...string) *S3Server {
	t.Helper()
	bin := Versitygw(t)
	dir := t.TempDir()
	data, side := filepath.Join(dir, "data"), filepath.Join(dir, "sidecar")
	for _, d := range []string{data, side} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := freePort(t)
	s := &S3Server{Addr: fmt.Sprintf("127.0.0.1:%d", port), Access: "bagscopetest", Secret: "bagscope-test-secret-key", Region: "us-east-1"}
	s.Endpoint = "http://" + s.Addr
	cmd := exec.Command(bin, "--access", s.Access, "--secret", s.Secret, "--region", s.Region, "--port", s.Addr, "--quiet", "--keep-alive",
		"posix", "--sidecar", side, data)
	// versitygw reads its settings from the environment too: keep the
	// test's AWS variables away from it.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	start(t, "versitygw", s.Addr, cmd)
	s.client = s3.New(s3.Options{
		Region:       s.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(s.Access, s.Secret, ""),
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
	})
	for _, b := range buckets {
		if _, err := s.client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(b)}); err != nil {
			t.Fatalf("creating bucket %s: %v", b, err)
		}
	}
	return s
}

// Env points the standard AWS credential chain at the server for the rest
// of the test: its keys and region in the environment, no shared
// configuration files, no instance metadata service (nothing leaves the
// machine). AWS_ENDPOINT_URL is set only when withEndpoint is true.
func (s *S3Server) Env(t testing.TB, withEndpoint bool) {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", s.Access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s.Secret)
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_REGION", s.Region)
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	if withEndpoint {
		t.Setenv("AWS_ENDPOINT_URL", s.Endpoint)
	} else {
		t.Setenv("AWS_ENDPOINT_URL", "")
	}
}

// Put stores an object.
func (s *S3Server) Put(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	_, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data)})
	if err != nil {
		t.Fatalf("putting s3://%s/%s: %v", bucket, key, err)
	}
}

// Delete removes an object.
func (s *S3Server) Delete(t testing.TB, bucket, key string) {
	t.Helper()
	if _, err := s.client.DeleteObject(context.Background(), &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)}); err != nil {
		t.Fatalf("deleting s3://%s/%s: %v", bucket, key, err)
	}
}

// Upload stores every regular file below root as an object of bucket,
// keyed by prefix and its path below root.
func (s *S3Server) Upload(t testing.TB, bucket, prefix, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.Put(t, bucket, prefix+filepath.ToSlash(rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
