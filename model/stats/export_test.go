package stats

// RosSec is rosSec for the external tests.
var RosSec = rosSec

// SetMaxBuffered sets how many intervals a Computer copies out to select
// their median from slices (0: none, every selection streams), until
// the returned func restores it.
func SetMaxBuffered(n int) (restore func()) {
	old := maxBuffered
	maxBuffered = n
	return func() { maxBuffered = old }
}
