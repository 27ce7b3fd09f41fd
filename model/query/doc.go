// Package query asks a recording questions and hands the answers on: Find
// evaluates an expression (bag/rosmsg/expr) on every selected message, on
// the goroutines that read and decompress the chunks, with progress and
// cancel; ClockIndex maps log times to /clock's sim time; and Filter
// (filter.go) copies the messages a selection and an expression keep into
// a new recording. It holds no widgets: the window and the commands share
// it.
package query
