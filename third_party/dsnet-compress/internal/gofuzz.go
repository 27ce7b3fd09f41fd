// Copyright 2016, Joe Tsai. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE.md file.

//go:build gofuzz
// +build gofuzz

package internal

const (
	Debug  = true
	GoFuzz = true
)
