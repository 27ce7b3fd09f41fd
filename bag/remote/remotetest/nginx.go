package remotetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// HTTPServer is a server of a folder's files over HTTP.
type HTTPServer struct {
	// URL is the server's root, ending with "/".
	URL string
	// Addr is its host:port.
	Addr string
	// AccessLog is nginx's access log (one line per request).
	AccessLog string
}

// Nginx serves root over HTTP with nginx from Debian (package nginx-light
// or nginx), on 127.0.0.1 and a free port, until the test ends. Its
// configuration, pid and logs are in the test's temporary folder. Files
// are served with byte ranges, ETag and Last-Modified, as nginx serves
// static files.
func Nginx(t testing.TB, root string) *HTTPServer {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		for _, p := range []string{"/usr/sbin/nginx", "/sbin/nginx"} {
			if _, serr := os.Stat(p); serr == nil {
				bin, err = p, nil
				break
			}
		}
	}
	if err != nil {
		unavailable(t, "nginx is not installed (Debian package nginx-light, in the Makefile's APT_PKGS)")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	port := freePort(t)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	access := filepath.Join(dir, "access.log")
	conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 256; }
http {
	access_log %[2]s;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	default_type application/octet-stream;
	sendfile on;
	keepalive_requests 10000;
	server {
		listen %[3]s;
		root %[4]s;
		location / { autoindex off; }
	}
}
`, dir, access, addr, abs)
	confPath := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", confPath, "-e", filepath.Join(dir, "error.log"))
	start(t, "nginx", addr, cmd)
	return &HTTPServer{URL: "http://" + addr + "/", Addr: addr, AccessLog: access}
}

// Requests returns the lines of the access log so far.
func (s *HTTPServer) Requests(t testing.TB) []string {
	b, err := os.ReadFile(s.AccessLog)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
