// Command bare is the start-up floor of the benchmarks: a Go binary that
// prints one line and exits, so that `bagscope info` can be timed against
// what any Go program costs to start on the same machine.
package main

import "os"

func main() { os.Stdout.WriteString("bare\n") }
