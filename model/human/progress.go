package human

import (
	"fmt"
	"math"
	"time"
)

// Progress units: what a job's done and total count.
const (
	UnitBytes    = "bytes"
	UnitMessages = "messages"
	UnitChunks   = "chunks"
	UnitFiles    = "files"
)

// Progress says how far a job is, in its unit: "12.0 MiB of 379 MiB
// (3%), 45.2 MiB/s, about 8 s left", "1,200 of 90 chunks". A total of 0
// or less is not known yet: only what is done shows (or nothing). The
// rate and what is left show once the job has run for elapsed ≥ 0.5 s
// and done something, so the first guesses are not shown.
func Progress(done, total int64, unit string, elapsed time.Duration) string {
	amount := func(n int64) string {
		if unit == UnitBytes {
			return Size(n)
		}
		return Count(uint64(max(n, 0)))
	}
	var out string
	switch {
	case total > 0 && unit == UnitBytes:
		out = fmt.Sprintf("%s of %s (%d%%)", amount(done), amount(total), min(100, done*100/total))
	case total > 0:
		out = fmt.Sprintf("%s of %s %s (%d%%)", amount(done), amount(total), unit, min(100, done*100/total))
	case done > 0 && unit == UnitBytes:
		out = amount(done)
	case done > 0:
		out = amount(done) + " " + unit
	}
	if elapsed < 500*time.Millisecond || done <= 0 {
		return out
	}
	rate := float64(done) / elapsed.Seconds()
	if unit == UnitBytes {
		out += ", " + Size(int64(rate)) + "/s"
	} else {
		out += fmt.Sprintf(", %s %s/s", Count(uint64(math.Round(rate))), unit)
	}
	if total > done {
		left := time.Duration(float64(total-done) / rate * float64(time.Second))
		out += ", about " + Left(left) + " left"
	}
	return out
}

// Left is a time still to wait, rounded as a person says it: "3 s",
// "2 min 10 s", "1 h 5 min".
func Left(d time.Duration) string {
	s := int64(math.Ceil(d.Seconds()))
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", max(s, 1))
	case s < 3600:
		if s%60 == 0 || s >= 600 {
			return fmt.Sprintf("%d min", (s+30)/60)
		}
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %d min", s/3600, (s%3600+30)/60)
}
