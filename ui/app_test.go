package ui

import (
	"io"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args       []string
		ok         bool
		code       int
		sample     bool
		screenshot string
		files      []string
	}{
		{nil, true, 0, false, "", nil},
		{[]string{"a.bag", "b.bag"}, true, 0, false, "", []string{"a.bag", "b.bag"}},
		{[]string{"--sample"}, true, 0, true, "", nil},
		{[]string{"--screenshot", "out.png", "a.bag"}, true, 0, false, "out.png", []string{"a.bag"}},
		{[]string{"--screenshot", "out.png", "--sample"}, true, 0, true, "out.png", nil},
		{[]string{"--screenshot", "out.png"}, false, 2, false, "out.png", nil},
		{[]string{"--screenshot", "out.png", "a.bag", "b.bag"}, false, 2, false, "out.png", nil},
		{[]string{"--no-such-flag"}, false, 2, false, "", nil},
		{[]string{"-h"}, false, 0, false, "", nil},
	}
	for _, tt := range tests {
		o, code, ok := parseArgs(tt.args, io.Discard)
		if ok != tt.ok || code != tt.code {
			t.Errorf("%q: ok %v code %d, want %v %d", tt.args, ok, code, tt.ok, tt.code)
			continue
		}
		if ok && (o.sample != tt.sample || o.screenshot != tt.screenshot || !slices.Equal(o.files, tt.files)) {
			t.Errorf("%q: got %+v", tt.args, o)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		w, h float32
		ok   bool
	}{
		{"1024x640", 1024, 640, true},
		{"2560X1440", 2560, 1440, true},
		{"1024", 0, 0, false},
		{"x640", 0, 0, false},
		{"10x10", 0, 0, false},
		{"99999x640", 0, 0, false},
		{"axb", 0, 0, false},
	}
	for _, tt := range tests {
		o, code, ok := parseArgs([]string{"--size", tt.in, "a.bag"}, io.Discard)
		if ok != tt.ok {
			t.Errorf("--size %q: ok %v (code %d), want %v", tt.in, ok, code, tt.ok)
			continue
		}
		if ok && (o.size == nil || o.size.Width != tt.w || o.size.Height != tt.h) {
			t.Errorf("--size %q: got %v, want %vx%v", tt.in, o.size, tt.w, tt.h)
		}
	}
}
