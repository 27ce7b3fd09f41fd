// Package db3test makes damaged copies of healthy rosbag2 .db3 files and
// the metadata.yaml of a one-file bag folder, for the tests of bag/db3 and
// of the commands that read it, and counts the pages a query reads
// (PagesRead). It is imported by tests and benchmark tools only.
package db3test

import (
	"bytes"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
)

// PageSize is the page size of the files Damaged damages.
const PageSize = 4096

// Case is one way of damaging a file.
type Case struct {
	Name string
	// Damage returns the damaged bytes and the number of pages whose
	// content was replaced (rows whose last overflow page is among them
	// can come back wrong: nothing tells such a page from a good one).
	Damage func(healthy []byte) ([]byte, int)
}

// isBtreePage reports whether a page type byte is a b-tree page's.
func isBtreePage(t byte) bool { return t == 0x02 || t == 0x05 || t == 0x0a || t == 0x0d }

// Damaged lists damaged variants of healthy, a file of PageSize-byte
// pages: cut at many offsets, header zeroed, b-tree pages, random pages
// and page 1 overwritten with garbage, a run of pages zeroed, as a crash
// or a bad disk leaves them. The garbage is the same on every call.
func Damaged(healthy []byte) []Case {
	const ps = PageSize
	rnd := rand.New(rand.NewSource(1))
	garbage := func(b []byte, pages []int) []byte {
		b = bytes.Clone(b)
		for _, n := range pages {
			rnd.Read(b[(n-1)*ps : n*ps])
		}
		return b
	}
	var cases []Case
	for _, cut := range []int{100, 101, 4095, 4096, 4097, 8192, 20000, 100000, 500000, 1000000, 1500000, 2000000, 2999999, 3500000, len(healthy) - ps, len(healthy) - 1} {
		if cut < len(healthy) {
			cases = append(cases, Case{"cut at " + strconv.Itoa(cut), func(b []byte) ([]byte, int) { return b[:cut], 0 }})
		}
	}
	var btree []int // pages that are b-tree pages in the healthy file
	for n := 2; n*ps <= len(healthy); n++ {
		if isBtreePage(healthy[(n-1)*ps]) {
			btree = append(btree, n)
		}
	}
	if len(btree) > 8 {
		cases = append(cases, Case{"b-tree pages garbage", func(b []byte) ([]byte, int) {
			return garbage(b, []int{btree[5], btree[len(btree)/2], btree[len(btree)/2+1], btree[len(btree)-3]}), 0
		}})
	}
	cases = append(cases, Case{"header zeroed", func(b []byte) ([]byte, int) {
		b = bytes.Clone(b)
		clear(b[:100])
		return b, 0
	}})
	if len(healthy) >= 701*ps {
		cases = append(cases, Case{"random pages garbage", func(b []byte) ([]byte, int) {
			pages := []int{50, 300, 301, 302, 700}
			return garbage(b, pages), len(pages)
		}})
	}
	cases = append(cases, Case{"page 1 garbage", func(b []byte) ([]byte, int) { return garbage(b, []int{1}), 1 }})
	if len(healthy) >= 260*ps {
		cases = append(cases, Case{"zeroed pages", func(b []byte) ([]byte, int) {
			b = bytes.Clone(b)
			clear(b[200*ps : 260*ps])
			return b, 60
		}})
	}
	return cases
}

// Topic is a topic as metadata.yaml lists it.
type Topic struct {
	Name, Type string
	Messages   int
}

// FolderMetadata returns the metadata.yaml (version 8) rosbag2 writes for
// a bag folder whose one file, named file, holds the topics' messages
// from start to end (nanoseconds).
func FolderMetadata(file string, topics []Topic, start, end int64) string {
	var b strings.Builder
	total := 0
	for _, t := range topics {
		total += t.Messages
	}
	fmt.Fprintf(&b, "rosbag2_bagfile_information:\n  version: 8\n  storage_identifier: sqlite3\n")
	fmt.Fprintf(&b, "  duration:\n    nanoseconds: %d\n  starting_time:\n    nanoseconds_since_epoch: %d\n  message_count: %d\n", end-start, start, total)
	b.WriteString("  topics_with_message_count:\n")
	for _, t := range topics {
		fmt.Fprintf(&b, "    - topic_metadata:\n        name: %s\n        type: %s\n        serialization_format: cdr\n        offered_qos_profiles: \"\"\n        type_description_hash: \"\"\n      message_count: %d\n", t.Name, t.Type, t.Messages)
	}
	fmt.Fprintf(&b, "  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n    - %s\n", file)
	fmt.Fprintf(&b, "  files:\n    - path: %s\n      starting_time:\n        nanoseconds_since_epoch: %d\n      duration:\n        nanoseconds: %d\n      message_count: %d\n", file, start, end-start, total)
	b.WriteString("  custom_data: ~\n  ros_distro: rolling\n")
	return b.String()
}

// UnsoundLeaf returns a copy of healthy (a file of PageSize-byte pages)
// whose table leaf page in the middle of the file counts 3 fragmented
// bytes more than it holds: every row still reads, but the page's bytes
// no longer add up, so its rows are suspect. It returns the page's
// number, 0 when the file has no table leaf page.
func UnsoundLeaf(healthy []byte) ([]byte, int) {
	var leaves []int
	for n := 2; n*PageSize <= len(healthy); n++ {
		if healthy[(n-1)*PageSize] == 0x0d {
			leaves = append(leaves, n)
		}
	}
	if len(leaves) == 0 {
		return healthy, 0
	}
	n := leaves[len(leaves)/2]
	b := bytes.Clone(healthy)
	b[(n-1)*PageSize+7] += 3
	return b, n
}
