package main

import "github.com/bagscope/bagscope/ui"

// runGUI opens the recordings named in args, or the start page, in
// windows.
func runGUI(args []string) int { return ui.Run(args) }
