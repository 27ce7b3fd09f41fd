package db3

import (
	"context"
	"errors"
	"io"

	"github.com/bagscope/bagscope/bag"
)

type rescued struct{}
type pageMap struct{}

func (s *Store) loadRescue(reason error) error { return reason }
func (s *Store) rescueMessages(ids map[uint32]bool, all bool, f bag.MessageFilter) bag.MessageIter {
	return &sqlIter{}
}
func (s *Store) rescueRead(id int64) (*bag.Message, error) { return nil, errors.New("todo") }

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
