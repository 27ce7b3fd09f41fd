package cli

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/bagscope/bagscope/model"
)

// removeTempsOnSignal makes SIGINT and SIGTERM remove the temporary files
// of writes in progress before the program exits (status 130 or 143), so a
// stopped fix or convert leaves nothing behind. Call the returned function
// when the write is done.
func removeTempsOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			model.RemovePendingTemps()
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
