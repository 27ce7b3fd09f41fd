package mcap

import (
	"context"

	"github.com/bagscope/bagscope/bag"
)

// Check is the doctor.
func (x *Reader) Check(ctx context.Context, progress func(done, total int64)) (*bag.CheckReport, error) {
	return &bag.CheckReport{Indexed: x.info.Indexed}, nil
}
