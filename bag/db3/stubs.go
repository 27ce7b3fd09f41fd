package db3

import (
	"context"
	"errors"
	"io"

	"github.com/bagscope/bagscope/bag"
)

// CheckReader runs the doctor.
func CheckReader(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*bag.CheckReport, error) {
	return nil, errors.New("todo")
}

// Check runs the doctor.
func (s *Store) Check(ctx context.Context, progress func(done, total int64)) (*bag.CheckReport, error) {
	return nil, errors.New("todo")
}

// Records lists pages.
func (s *Store) Records(ctx context.Context, from int64, fn func(*bag.Record) bool) error {
	return errors.New("todo")
}

// BlockRecords lists cells.
func (s *Store) BlockRecords(block int64) ([]*bag.Record, []byte, error) {
	return nil, nil, errors.New("todo")
}

// ReadRange reads bytes.
func (s *Store) ReadRange(off int64, n int) ([]byte, error) { return nil, errors.New("todo") }
