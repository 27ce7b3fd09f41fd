package cli

import "github.com/bagscope/bagscope/plot/render"

// The tests run the commands in this package's test binary, which draws
// images itself, as the full binary does.
func init() { WriteImage, WriteXYImage = render.Write, render.WriteXY }
