package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// TestCatIDLChar: a char of a ros2idl schema is IDL's char, which rclpy
// gives as a str of one character, so cat prints it as `ros2 topic echo`
// does, a character, in the message and as --fields' one field; a .msg
// char (rosidl's uint8) stays a number. model/echo's TestIDLCharAsRclpy
// compares every ASCII value with PyYAML and Python's print.
func TestCatIDLChar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chars.mcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	w.WriteSchema(&mcap.Schema{ID: 1, Name: "test_msgs/msg/Chars", Encoding: "ros2idl",
		Data: []byte("module test_msgs { module msg { struct Chars { char c; char cs[2]; }; }; };\n")})
	w.WriteSchema(&mcap.Schema{ID: 2, Name: "test_msgs/msg/Chars", Encoding: "ros2msg", Data: []byte("char c\nchar[2] cs\n")})
	w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/idl", MessageEncoding: "cdr"})
	w.WriteChannel(&mcap.Channel{ID: 2, SchemaID: 2, Topic: "/msg", MessageEncoding: "cdr"})
	data := []byte{0, 1, 0, 0, 'A', 'b', '\''}
	w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: 1e18, Data: data})
	w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: 1e18 + 1, Data: data})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--topics", "/idl"}, "c: A\ncs:\n- b\n- ''''\n---\n"},
		{[]string{"--topics", "/idl", "--fields", "c"}, "A\n---\n"},
		{[]string{"--topics", "/idl", "--fields", "cs"}, "['b', \"'\"]\n---\n"},
		{[]string{"--topics", "/msg"}, "c: 65\ncs:\n- 98\n- 39\n---\n"},
		{[]string{"--topics", "/msg", "--fields", "cs"}, "[98 39]\n---\n"},
	} {
		got, stderr, code := run(append([]string{"cat", path}, tc.args...)...)
		if code != 0 || got != tc.want {
			t.Errorf("cat %v: exit %d %s\n got %q\nwant %q", tc.args, code, stderr, got, tc.want)
		}
	}
}
