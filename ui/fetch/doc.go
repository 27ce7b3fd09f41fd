// Package fetch is what the window shows of reading a remote recording
// (issue 25): a status line, live while the recording is open, with the
// bytes fetched and the requests made; and the confirmation a remote file
// without a summary or index asks for before it is read whole, which
// states its size.
package fetch
