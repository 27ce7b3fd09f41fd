// Package remote reads files where they live, over HTTP(S) range requests
// and S3 GetObject ranges, as an io.ReaderAt: a recording in object storage
// is opened in place, its index read in a few requests and its messages
// fetched only where they are read.
//
// A Client holds the connections, the S3 credentials (the standard AWS
// chain: environment, profile, SSO, instance role; an S3-compatible store
// through Options.Endpoint or AWS_ENDPOINT_URL) and the counters of what it
// fetched. Client.Open learns a file's size, version and last bytes in one
// suffix request (the mcap CLI's design: most recordings keep their index
// at the end), and gives a File whose reads go through a bounded cache of
// blocks: nearby missing blocks are fetched in one request, sequential
// reads are read ahead with several requests in flight, transient failures
// (5xx, resets, timeouts) are retried with backoff, and every request is
// pinned to the version first seen (ETag, Last-Modified), so a file that
// changes while open is an error, never a mix of two versions.
//
// Credentials and the signature and token parameters of presigned URLs
// never appear in an error or anything else this package produces: Redact
// and RedactText replace them with "…", and every error goes through them.
package remote
