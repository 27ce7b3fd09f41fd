package remote

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// These tests read through real servers started on 127.0.0.1: nginx,
// versitygw and toxiproxy (see remotetest).

// readAll reads the whole file in random-sized pieces from random places,
// then sequentially, comparing with want.
func checkReads(t *testing.T, f *File, want []byte) {
	t.Helper()
	r := rand.New(rand.NewPCG(4, 2))
	for i := 0; i < 60; i++ {
		off := r.Int64N(int64(len(want)))
		p := make([]byte, r.IntN(500<<10))
		n, err := f.ReadAt(p, off)
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("ReadAt(%d at %d): %v", len(p), off, err)
		}
		if !bytes.Equal(p[:n], want[off:off+int64(n)]) {
			t.Fatalf("ReadAt(%d at %d): wrong bytes", len(p), off)
		}
	}
	got, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("a sequential read gave wrong bytes")
	}
}

func TestNginx(t *testing.T) {
	dir := t.TempDir()
	data := randomBytes(5<<20+333, 31)
	if err := os.WriteFile(filepath.Join(dir, "f.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := remotetest.Nginx(t, dir)
	c := testClient(Options{})
	f, err := c.Open(context.Background(), srv.URL+"f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.ETag() == "" {
		t.Error("nginx sent no ETag: the file cannot be pinned")
	}
	checkReads(t, f, data)
	if n := len(srv.Requests(t)); int64(n) != c.Stats().Requests {
		t.Errorf("nginx logged %d requests, the client counted %d", n, c.Stats().Requests)
	}

	t.Run("prefetch in multi-range requests", func(t *testing.T) {
		c := testClient(Options{})
		g, err := c.Open(context.Background(), srv.URL+"f.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		var rs []Range
		for off := int64(0); off < int64(len(data))-300<<10; off += 17_000 {
			rs = append(rs, Range{Off: off, Len: 100})
		}
		if err := g.Prefetch(rs); err != nil {
			t.Fatal(err)
		}
		before := c.Stats().Requests
		for _, r := range rs {
			p := make([]byte, r.Len)
			if _, err := g.ReadAt(p, r.Off); err != nil || !bytes.Equal(p, data[r.Off:r.Off+r.Len]) {
				t.Fatalf("at %d: %v", r.Off, err)
			}
		}
		if after := c.Stats().Requests; before > 2+int64(len(rs)+99)/100 || after != before {
			t.Errorf("%d ranges: %d requests to prefetch, %d more to read them; want nginx to answer %d per request", len(rs), before-2, after-before, 100)
		}
	})
	t.Run("missing", func(t *testing.T) {
		_, err := c.Open(context.Background(), srv.URL+"nothing.bin")
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})
	t.Run("folder", func(t *testing.T) {
		before := c.Stats().Requests
		_, err := c.List(context.Background(), srv.URL)
		if !errors.Is(err, ErrNoListing) {
			t.Fatalf("listing an HTTP folder: %v, want ErrNoListing", err)
		}
		if n := c.Stats().Requests - before; n != 0 {
			t.Errorf("listing an HTTP folder counted %d requests; it sends none", n)
		}
	})
	t.Run("changed", func(t *testing.T) {
		g, err := c.Open(context.Background(), srv.URL+"f.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		// Same size, other bytes, a later time: nginx's ETag changes.
		later := time.Now().Add(time.Minute)
		if err := os.WriteFile(filepath.Join(dir, "f.bin"), randomBytes(len(data), 32), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(filepath.Join(dir, "f.bin"), later, later)
		_, err = g.ReadAt(make([]byte, 1000), 2<<20)
		if !errors.Is(err, ErrChanged) {
			t.Fatalf("reading a file replaced on the server: %v, want ErrChanged", err)
		}
	})
}

func TestVersitygw(t *testing.T) {
	s3 := remotetest.Versity(t, "recordings")
	s3.Env(t, false)
	data := randomBytes(3<<20+17, 41)
	s3.Put(t, "recordings", "run42/x.bin", data)
	s3.Put(t, "recordings", "run42/metadata.yaml", []byte("rosbag2_bagfile_information:\n"))
	s3.Put(t, "recordings", "run42/sub/y.bin", []byte("y"))
	c := testClient(Options{Endpoint: s3.Endpoint})
	ctx := context.Background()
	f, err := c.Open(ctx, "s3://recordings/run42/x.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) {
		t.Fatalf("Size = %d, want %d", f.Size(), len(data))
	}
	checkReads(t, f, data)

	ents, err := c.List(ctx, "s3://recordings/run42/")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "metadata.yaml,x.bin,sub" {
		t.Errorf("List = %v, want metadata.yaml, x.bin and the folder sub", names)
	}
	// ListAll: every key at any depth, with the validators the object's
	// own answers carry.
	all, err := c.ListAll(ctx, "s3://recordings/run42/")
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, e := range all {
		names = append(names, e.Name)
		if st, err := c.Stat(ctx, e.URL); err != nil || e.ETag == "" || st.ETag != e.ETag || st.LastModified != e.LastModified || st.Size != e.Size {
			t.Errorf("ListAll's %s: %+v; Stat says %+v, %v", e.Name, e, st, err)
		}
	}
	if strings.Join(names, ",") != "metadata.yaml,sub/y.bin,x.bin" {
		t.Errorf("ListAll = %v, want metadata.yaml, sub/y.bin and x.bin", names)
	}
	if info, err := c.Stat(ctx, "s3://recordings/run42"); err != nil || !info.Dir {
		t.Errorf("Stat of a prefix without its /: %+v, %v; want a folder", info, err)
	}
	if _, err := c.Open(ctx, "s3://recordings/run42/none.bin"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a missing key: %v, want ErrNotFound", err)
	}

	t.Run("endpoint from AWS_ENDPOINT_URL", func(t *testing.T) {
		s3.Env(t, true)
		c := testClient(Options{})
		g, err := c.Open(ctx, "s3://recordings/run42/x.bin")
		if err != nil {
			t.Fatal(err)
		}
		g.Close()
	})
	t.Run("wrong secret", func(t *testing.T) {
		t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
		c := testClient(Options{Endpoint: s3.Endpoint})
		_, err := c.Open(ctx, "s3://recordings/run42/x.bin")
		if !errors.Is(err, ErrForbidden) {
			t.Fatalf("err = %v, want ErrForbidden", err)
		}
		if strings.Contains(err.Error(), "not-the-secret") || strings.Contains(err.Error(), s3.Secret) {
			t.Errorf("the error shows a secret: %v", err)
		}
	})
	t.Run("changed", func(t *testing.T) {
		g, err := c.Open(ctx, "s3://recordings/run42/x.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer g.Close()
		s3.Put(t, "recordings", "run42/x.bin", randomBytes(len(data), 42))
		if _, err := g.ReadAt(make([]byte, 100), 1<<20); !errors.Is(err, ErrChanged) {
			t.Fatalf("reading an object replaced on the server: %v, want ErrChanged", err)
		}
	})
}

func TestToxiproxyFaults(t *testing.T) {
	dir := t.TempDir()
	data := randomBytes(6<<20, 51)
	if err := os.WriteFile(filepath.Join(dir, "f.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := remotetest.Nginx(t, dir)
	x := remotetest.StartToxiproxy(t)
	p := x.Proxy(t, "nginx", srv.Addr)
	p.Latency(t, 50)
	url := "http://" + p.Addr + "/f.bin"

	t.Run("latency", func(t *testing.T) {
		c := testClient(Options{})
		f, err := c.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkReads(t, f, data)
	})
	t.Run("dropped connections", func(t *testing.T) {
		// Every connection is cut after 300 kB: a longer answer is
		// resumed on a new one.
		p.Toxic(t, "cut", "limit_data", "downstream", 1, map[string]any{"bytes": 300 << 10})
		defer p.RemoveToxic(t, "cut")
		c := testClient(Options{MaxAttempts: 20})
		f, err := c.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkReads(t, f, data)
		if c.Stats().Retries == 0 {
			t.Error("no retry counted though connections were cut")
		}
	})
	t.Run("reset", func(t *testing.T) {
		p.Toxic(t, "reset", "reset_peer", "downstream", 0.3, map[string]any{"timeout": 0})
		defer p.RemoveToxic(t, "reset")
		c := testClient(Options{MaxAttempts: 10})
		f, err := c.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkReads(t, f, data)
	})
	t.Run("503 now and then", func(t *testing.T) {
		fp := remotetest.NewFaults(t, "http://"+p.Addr)
		fp.Every503(3)
		c := testClient(Options{})
		f, err := c.Open(context.Background(), fp.URL+"f.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		checkReads(t, f, data)
		if c.Stats().Retries == 0 {
			t.Error("no retry counted for the 503s")
		}
	})
	t.Run("server ignores Range", func(t *testing.T) {
		fp := remotetest.NewFaults(t, srv.URL)
		fp.IgnoreRange(true)
		c := testClient(Options{})
		_, err := c.Open(context.Background(), fp.URL+"f.bin")
		if !errors.Is(err, ErrNoRanges) {
			t.Fatalf("err = %v, want ErrNoRanges", err)
		}
	})
}
