package ui

import (
	"log"
	"net/http"
	_ "net/http/pprof" // the profiles behind BAGSCOPE_PPROF
	"os"
)

// BAGSCOPE_PPROF=addr (e.g. localhost:6060) serves Go's profiles
// (/debug/pprof/heap, /profile, …) while the window runs, to measure
// what playback keeps or churns in the real window (issue 14).
func init() {
	addr := os.Getenv("BAGSCOPE_PPROF")
	if addr == "" {
		return
	}
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			log.Printf("BAGSCOPE_PPROF: %v", err)
		}
	}()
}
