// Package ui is bagscope's Fyne user interface: the start page, the bag
// windows and their panels. It is the only package that touches widgets.
// Callbacks run on Fyne's UI goroutine; background work hands its results
// back with fyne.Do.
package ui
