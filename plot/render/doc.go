// Package render draws plot's series and XY paths into PNG and SVG images
// with gonum/plot, together with the data rectangle in pixels (so mouse
// positions map back to data). It is apart from package plot so that the
// command-line front, which never draws an image itself, does not link
// gonum/plot and its fonts: their package initialisers would run on every
// command (model/cli/render_hook.go).
//
// Render is a pure function of its arguments and safe to call from any
// goroutine.
package render
