package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/model/human"
)

// Every command reads URLs as it reads paths: http(s)://… (presigned URLs
// included), s3://bucket/key and gs://bucket/key, opened in place through
// bag/remote. A file without its index or summary is read whole only with
// --allow-remote-scan; what was fetched is said by info (and its --json),
// and by the progress line of the commands that read everything.

// addRemoteFlags adds the remote-reading flags every command takes.
func addRemoteFlags(fs *pflag.FlagSet) {
	fs.Bool("allow-remote-scan", false, "read a remote file whole when it has no index or summary to open it by (a cut or unindexed recording, a FILE-mode .zstd): without it, such a file does not open and the error says its size")
	fs.String("endpoint-url", "", "the S3-compatible store s3:// URLs are read from (MinIO, Ceph, R2, SeaweedFS, …) as `URL`; default: $AWS_ENDPOINT_URL, else AWS")
}

// setupRemote makes the program's remote client from the flags (it holds
// the counters of what was fetched).
func (e *env) setupRemote(cmd *cobra.Command) error {
	endpoint, _ := cmd.Flags().GetString("endpoint-url")
	if endpoint != "" && !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return usagef("--endpoint-url %s: want the store's http:// or https:// URL", remote.Redact(endpoint))
	}
	e.allowScan, _ = cmd.Flags().GetBool("allow-remote-scan")
	remote.SetDefault(remote.NewClient(remote.Options{Endpoint: endpoint}))
	return nil
}

// openOptions are the options every command opens a recording with.
func (e *env) openOptions() bag.OpenOptions {
	return bag.OpenOptions{AllowRemoteScan: e.allowScan}
}

// fetched returns what the program fetched from remote storage so far;
// ok is false when it read nothing remote.
func fetched() (remote.Stats, bool) {
	st := remote.Default().Stats()
	return st, st.Requests > 0
}

// fetchedText says what was fetched: "312.5 kB in 3 requests".
func fetchedText(st remote.Stats) string {
	n := "requests"
	if st.Requests == 1 {
		n = "request"
	}
	s := fmt.Sprintf("%s in %d %s", human.Size(st.Bytes), st.Requests, n)
	if st.Retries > 0 {
		s += fmt.Sprintf(" (%d retried)", st.Retries)
	}
	return s
}

// fetchedJSON is what a command's --json says it fetched.
type fetchedJSON struct {
	Bytes    int64 `json:"bytes"`
	Requests int64 `json:"requests"`
	Retries  int64 `json:"retries"`
}

// fetchedObject returns the "fetched" member of a --json object, or nil
// when nothing remote was read.
func fetchedObject() *fetchedJSON {
	st, ok := fetched()
	if !ok {
		return nil
	}
	return &fetchedJSON{Bytes: st.Bytes, Requests: st.Requests, Retries: st.Retries}
}

// secretsOf lists the secrets of the URLs among args: the values of their
// signature, credential and token parameters and their passwords.
func secretsOf(args []string) [][]byte {
	var out [][]byte
	for _, a := range args {
		for _, s := range remote.Secrets(a) {
			out = append(out, []byte(s))
		}
	}
	return out
}

// secretWriter hides given secrets in what is written through it: the
// last guard that a presigned URL's signature named on the command line
// never reaches the output, whatever prints it.
type secretWriter struct {
	w       io.Writer
	secrets [][]byte
}

func (s secretWriter) Write(p []byte) (int, error) {
	q := p
	for _, sec := range s.secrets {
		if bytes.Contains(q, sec) {
			q = bytes.ReplaceAll(q, sec, []byte(remote.Hidden))
		}
	}
	if _, err := s.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
