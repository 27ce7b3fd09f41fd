package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// The tables, each a folder of the catalogue.
const (
	RecordingsTable = "recordings"
	TopicsTable     = "topics"
)

// partition is the Hive partition a run of shard i of n writes.
func partition(i, n int) string { return fmt.Sprintf("shard=%d-of-%d", i, n) }

// Files returns the Parquet files of one table of the catalogue at dir.
func Files(dir, table string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, table, "shard=*", table+".parquet"))
}

// ReadRecordings reads every recording row of the catalogue at dir.
func ReadRecordings(dir string) ([]Recording, error) {
	return readTable[Recording](dir, RecordingsTable)
}

// ReadTopics reads every topic row of the catalogue at dir.
func ReadTopics(dir string) ([]Topic, error) { return readTable[Topic](dir, TopicsTable) }

func readTable[T any](dir, table string) ([]T, error) {
	files, err := Files(dir, table)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, f := range files {
		rows, err := parquet.ReadFile[T](f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, rows...)
	}
	return out, nil
}

// readPrevious reads what earlier runs wrote, by recording path: the rows
// a run may keep for recordings that did not change. A catalogue that
// cannot be read is started afresh (every recording is read again).
func readPrevious(dir string) (map[string]Recording, map[string][]Topic, error) {
	recs := map[string]Recording{}
	topics := map[string][]Topic{}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return recs, topics, nil
	}
	rs, err := ReadRecordings(dir)
	if err != nil {
		return recs, topics, nil
	}
	ts, err := ReadTopics(dir)
	if err != nil {
		return recs, topics, nil
	}
	for _, r := range rs {
		recs[r.Path] = r
	}
	for _, t := range ts {
		topics[t.Path] = append(topics[t.Path], t)
	}
	return recs, topics, nil
}

// write writes this shard's partition of both tables, each to a temporary
// file renamed into place, and removes the partitions of an earlier run
// cut into another number of shards (whose rows this run's shards now
// hold).
func write(dir string, shard, shards int, recs []Recording, topics []Topic) ([]string, error) {
	var paths []string
	for _, table := range []string{RecordingsTable, TopicsTable} {
		part := filepath.Join(dir, table, partition(shard, shards))
		if err := os.MkdirAll(part, 0o755); err != nil {
			return paths, err
		}
		path := filepath.Join(part, table+".parquet")
		tmp, err := os.CreateTemp(part, "."+table+"-*.parquet.tmp")
		if err != nil {
			return paths, err
		}
		if table == RecordingsTable {
			err = parquet.Write(tmp, recs)
		} else {
			err = parquet.Write(tmp, topics)
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return paths, err
		}
		paths = append(paths, path)
		// Partitions of another cut (shard=I-of-M, M != N) are stale.
		olds, _ := filepath.Glob(filepath.Join(dir, table, "shard=*"))
		for _, old := range olds {
			if !strings.HasSuffix(filepath.Base(old), fmt.Sprintf("-of-%d", shards)) {
				os.RemoveAll(old)
			}
		}
	}
	return paths, nil
}
