//go:build bagscope_front

package remote

import (
	"context"
	"errors"
	"time"
)

// S3Linked is false in the command-line front (built with the tag
// bagscope_front): it does not link the AWS SDK, and hands a command line
// that names an s3:// or gs:// URL to the full binary (see s3.go).
const S3Linked = false

// errNoS3 is what the front's s3Backend answers, should a URL reach it.
var errNoS3 = errors.New("this build of bagscope reads s3:// and gs:// URLs through the full binary, bagscope-gui (make build)")

// s3Backend is the front's stand-in for the AWS SDK backend.
type s3Backend struct {
	stall    time.Duration
	endpoint string
	region   string
	gcs      bool
}

func (b *s3Backend) get(context.Context, location, int64, int64, *version) (*answer, error) {
	return nil, errNoS3
}

func (b *s3Backend) list(context.Context, location) ([]Entry, error) { return nil, errNoS3 }

func (b *s3Backend) listAll(context.Context, location) ([]Entry, int, error) { return nil, 0, errNoS3 }
