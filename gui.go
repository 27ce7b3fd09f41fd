package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/ui"
)

// runGUI opens the recordings named in args, or the start page, in
// windows. A display that cannot be reached, or a window toolkit that
// fails to start, is said in one line (exit 2), never as a Go panic.
func runGUI(args []string) (code int) {
	if err := probeDisplay(os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "bagscope: %v: run a headless command such as `bagscope info FILE`\n", err)
		return cli.ExitUsage
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "bagscope: the window could not start (%v): run a headless command such as `bagscope info FILE`\n", r)
			code = cli.ExitUsage
		}
	}()
	return ui.Run(args)
}

// probeDisplay checks that the display the environment names accepts a
// connection: the Wayland socket, else the X server's socket (a local
// DISPLAY such as ":0") or TCP port (a forwarded one, "localhost:10.0").
// A DISPLAY it cannot parse is let through, for the toolkit to try.
func probeDisplay(getenv func(string) string) error {
	var errs []error
	if w := getenv("WAYLAND_DISPLAY"); w != "" {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(getenv("XDG_RUNTIME_DIR"), w)
		}
		if err := dial("unix", p); err == nil {
			return nil
		} else {
			errs = append(errs, fmt.Errorf("WAYLAND_DISPLAY=%s: %w", w, err))
		}
	}
	d := getenv("DISPLAY")
	if d == "" {
		if len(errs) == 0 {
			return errors.New("no display (DISPLAY and WAYLAND_DISPLAY are unset)")
		}
		return fmt.Errorf("cannot open the display: %w", errors.Join(errs...))
	}
	i := strings.LastIndexByte(d, ':')
	if i < 0 {
		return nil
	}
	host, num := d[:i], d[i+1:]
	num, _, _ = strings.Cut(num, ".")
	n, err := strconv.Atoi(num)
	if err != nil || strings.Contains(host, "/") {
		return nil
	}
	if host == "" || host == "unix" {
		err = dial("unix", "/tmp/.X11-unix/X"+num)
		if err != nil && dial("unix", "@/tmp/.X11-unix/X"+num) == nil {
			err = nil
		}
	} else {
		err = dial("tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)))
	}
	if err != nil {
		errs = append(errs, fmt.Errorf("DISPLAY=%s: %w", d, err))
		return fmt.Errorf("cannot open the display: %w", errors.Join(errs...))
	}
	return nil
}

func dial(network, addr string) error {
	c, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			return op.Err
		}
		return err
	}
	return c.Close()
}
