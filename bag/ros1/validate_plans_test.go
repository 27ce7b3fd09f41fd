package ros1

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestChunkPlansAreTheValidators checks that the plans a chunk's
// validation keeps by connection are the validator's own, for 40
// connections (past the 16 kept in place) asked for in a random order,
// the definitions differing per connection, one broken and one missing.
func TestChunkPlansAreTheValidators(t *testing.T) {
	conns := map[uint32]*Connection{}
	for i := uint32(0); i < 40; i++ {
		def := fmt.Sprintf("int32 a%d\nstring b%d\n", i, i)
		switch i {
		case 7:
			def = "no_such_type x\n" // broken: no plan
		case 23:
			def = "" // missing: no plan
		}
		conns[i*3+1] = &Connection{ID: i*3 + 1, Type: fmt.Sprintf("test/T%d", i), MessageDefinition: def}
	}
	v := newValidator(conns)
	var c chunkConns[*rosmsg.Plan]
	rng := rand.New(rand.NewSource(31))
	nils := 0
	for k := 0; k < 2000; k++ {
		id := uint32(rng.Intn(130)) // also IDs with no connection
		got, ok := c.find(id)
		if !ok {
			got = v.plan(id)
			c.keep(id, got)
		}
		want := v.plan(id)
		if got != want {
			t.Fatalf("connection %d: the chunk's plan %p, the validator's %p", id, got, want)
		}
		if got == nil {
			nils++
		}
	}
	if c.n != len(c.ids) || len(c.more) == 0 || nils == 0 || nils == 2000 {
		t.Fatalf("%d plans in place, %d in the map, %d of 2000 nil: the cases do not exercise both sides", c.n, len(c.more), nils)
	}
}

// TestChunkConnsAreTheMaps checks visitChunk's connection lookup against
// the map it keeps in place, for 40 connections (past the 16 kept in
// place) and IDs with none, asked for in a random order.
func TestChunkConnsAreTheMaps(t *testing.T) {
	byID := map[uint32]*bag.Connection{}
	for i := uint32(0); i < 40; i++ {
		byID[i*3+1] = &bag.Connection{ID: i*3 + 1, Topic: fmt.Sprintf("/t%d", i)}
	}
	var c chunkConns[*bag.Connection]
	rng := rand.New(rand.NewSource(31))
	nils := 0
	for k := 0; k < 2000; k++ {
		id := uint32(rng.Intn(130))
		got, ok := c.find(id)
		if !ok {
			got = byID[id]
			c.keep(id, got)
		}
		if want := byID[id]; got != want {
			t.Fatalf("connection %d: %p, the map's %p", id, got, want)
		} else if got == nil {
			nils++
		}
	}
	if c.n != len(c.ids) || len(c.more) == 0 || nils == 0 || nils == 2000 {
		t.Fatalf("%d kept in place, %d in the map, %d of 2000 nil: the cases do not exercise both sides", c.n, len(c.more), nils)
	}
}
