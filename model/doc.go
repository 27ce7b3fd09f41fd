// Package model holds bagscope's open documents and their background jobs
// as plain data: what the UI shows, without knowing about widgets. Long
// work takes a context.Context and reports progress through a callback.
package model
