package ui

import (
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestLoadingPanelUnits feeds the opening panel a run of progress as a
// big recording opens, on a clock the test moves: each stage counts in
// its unit, with the rate and time left once it has run for a while, and
// a stage whose total is not known yet says so without numbers.
func TestLoadingPanelUnits(t *testing.T) {
	uitest.NewApp(t)
	p := newLoadingPanel("big.mcap", func() {})
	clock := time.Unix(1_700_000_000, 0)
	p.now = func() time.Time { return clock }
	for _, step := range []struct {
		after       time.Duration
		done, total int64
		stage, want string
	}{
		{0, 0, 2, bag.StageOpen + " a_0.mcap", bag.StageOpen + " a_0.mcap: 0 of 2 files (0%)"},
		{0, 0, 400 << 20, model.StageIndex, model.StageIndex + ": 0 B of 400 MiB (0%)"},
		{2 * time.Second, 100 << 20, 400 << 20, model.StageIndex, model.StageIndex + ": 100 MiB of 400 MiB (25%), 50 MiB/s, about 6 s left"},
		{time.Second, 0, 0, model.StageChunks, model.StageChunks + "…"},
		{2500 * time.Millisecond, 90, 90, model.StageChunks, model.StageChunks + ": 90 of 90 chunks (100%), 36 chunks/s"},
		{0, 3000, 12000, model.StageMessages, model.StageMessages + ": 3,000 of 12,000 messages (25%)"},
	} {
		clock = clock.Add(step.after)
		p.set(step.done, step.total, step.stage)
		if got := p.stage.Text; got != step.want {
			t.Errorf("%s %d/%d: %q, want %q", step.stage, step.done, step.total, got, step.want)
		}
	}
}
