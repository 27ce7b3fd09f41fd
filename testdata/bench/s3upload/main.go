// Command s3upload puts the files below local folders into an S3 bucket
// (made if missing), for the S3 catalogue benchmark
// (testdata/bench/s3catalog.sh):
//
//	s3upload ENDPOINT BUCKET PREFIX ROOT [SUBDIR...]
//
// Each file below ROOT (or below each SUBDIR of ROOT) is keyed by PREFIX
// and its path below ROOT. The credentials and region are the standard
// AWS variables'.
package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

func main() {
	if len(os.Args) < 5 {
		fmt.Fprintln(os.Stderr, "usage: s3upload ENDPOINT BUCKET PREFIX ROOT [SUBDIR...]")
		os.Exit(2)
	}
	endpoint, bucket, prefix := os.Args[1], os.Args[2], os.Args[3]
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		fail(err)
	}
	c := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.UsePathStyle = true
	})
	c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}) // an existing bucket is fine
	root := os.Args[4]
	dirs := []string{root}
	if len(os.Args) > 5 {
		dirs = dirs[:0]
		for _, d := range os.Args[5:] {
			dirs = append(dirs, filepath.Join(root, d))
		}
	}
	n, size := 0, int64(0)
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return err
			}
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(prefix + filepath.ToSlash(rel)),
				Body: f, ContentLength: aws.Int64(st.Size())}); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			n++
			size += st.Size()
			return nil
		})
		if err != nil {
			fail(err)
		}
	}
	fmt.Printf("uploaded %d files, %d bytes\n", n, size)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "s3upload:", err)
	os.Exit(1)
}
