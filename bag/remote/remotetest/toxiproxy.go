package remotetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"testing"
)

// Toxi is a running toxiproxy server: TCP proxies whose traffic can be
// delayed, slowed, cut and reset.
type Toxi struct {
	api string
}

// StartToxiproxy runs toxiproxy on 127.0.0.1 until the test ends.
func StartToxiproxy(t testing.TB) *Toxi {
	t.Helper()
	bin := Toxiproxy(t)
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	start(t, "toxiproxy", addr, exec.Command(bin, "-host", "127.0.0.1", "-port", strconv.Itoa(port)))
	return &Toxi{api: "http://" + addr}
}

// Proxy is one TCP proxy of a Toxi.
type Proxy struct {
	x    *Toxi
	Name string
	// Addr is where the proxy listens (host:port).
	Addr string
}

// Proxy makes a proxy to upstream (host:port) on a free port.
func (x *Toxi) Proxy(t testing.TB, name, upstream string) *Proxy {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	x.call(t, "POST", "/proxies", map[string]any{"name": name, "listen": addr, "upstream": upstream, "enabled": true})
	return &Proxy{x: x, Name: name, Addr: addr}
}

// Toxic adds a toxic to the proxy's traffic: typ is toxiproxy's
// ("latency", "bandwidth", "reset_peer", "limit_data", "timeout",
// "slicer"), stream "downstream" (server to client) or "upstream",
// toxicity the share of connections it applies to (0-1).
func (p *Proxy) Toxic(t testing.TB, name, typ, stream string, toxicity float64, attrs map[string]any) {
	t.Helper()
	p.x.call(t, "POST", "/proxies/"+p.Name+"/toxics", map[string]any{"name": name, "type": typ, "stream": stream, "toxicity": toxicity, "attributes": attrs})
}

// RemoveToxic takes a toxic off.
func (p *Proxy) RemoveToxic(t testing.TB, name string) {
	t.Helper()
	p.x.call(t, "DELETE", "/proxies/"+p.Name+"/toxics/"+name, nil)
}

// Latency adds ms milliseconds to every answer: a round trip of ms.
func (p *Proxy) Latency(t testing.TB, ms int) {
	t.Helper()
	p.Toxic(t, "latency", "latency", "downstream", 1, map[string]any{"latency": ms, "jitter": 0})
}

func (x *Toxi) call(t testing.TB, method, path string, body any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, x.api+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("toxiproxy %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("toxiproxy %s %s: %s: %s", method, path, resp.Status, out)
	}
}
