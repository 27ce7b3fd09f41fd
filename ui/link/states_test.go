package link

import (
	"slices"
	"testing"

	"github.com/bagscope/bagscope/model"
)

// TestStateLanesReplay: a listener registered after groups were set is
// told of them, in the order first set; a group set again replaces its
// lanes.
func TestStateLanesReplay(t *testing.T) {
	h := &Hub{}
	lane := func(name string) []model.StateLane { return []model.StateLane{{Name: name}} }
	var early []string
	h.OnStateLanes(func(g string, ls []model.StateLane) { early = append(early, g+":"+ls[0].Name) })
	h.SetStateLanes("Diagnostics", lane("a"))
	h.SetStateLanes("Actions", lane("b"))
	h.SetStateLanes("Diagnostics", lane("c"))
	if want := []string{"Diagnostics:a", "Actions:b", "Diagnostics:c"}; !slices.Equal(early, want) {
		t.Errorf("early listener told %v, want %v", early, want)
	}
	var late []string
	h.OnStateLanes(func(g string, ls []model.StateLane) { late = append(late, g+":"+ls[0].Name) })
	if want := []string{"Diagnostics:c", "Actions:b"}; !slices.Equal(late, want) {
		t.Errorf("late listener told %v, want %v", late, want)
	}
}
