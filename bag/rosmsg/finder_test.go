package rosmsg

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFinder(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A user's workspace: its own package beside standard ones.
	write("my_msgs/msg/Pose2.msg", "std_msgs/Header header\nPoint2 p\n")
	write("my_msgs/msg/Point2.msg", "float64 x\nfloat64 y\n")
	write("my_msgs/srv/Add.srv", "Point2 a\n---\nint64 sum\n")
	tests := []struct {
		name, typ  string
		finder     *Finder
		wantSource string
		wantTypes  []string // MSG: sections, in order
		wantErr    error
	}{
		{"user folder, with standard dependencies", "my_msgs/msg/Pose2", &Finder{Dirs: []string{dir}, NoSystem: true},
			filepath.Join(dir, "my_msgs", "msg", "Pose2.msg"), []string{"std_msgs/msg/Header", "my_msgs/msg/Point2", "builtin_interfaces/msg/Time"}, nil},
		{"embedded", "sensor_msgs/Imu", &Finder{NoSystem: true},
			"bagscope's standard definitions (ROS 2 jazzy)", []string{"std_msgs/msg/Header", "geometry_msgs/msg/Quaternion", "geometry_msgs/msg/Vector3", "builtin_interfaces/msg/Time"}, nil},
		{"service event", "my_msgs/srv/Add_Event", &Finder{Dirs: []string{dir}, NoSystem: true, NoEmbedded: true},
			filepath.Join(dir, "my_msgs", "srv", "Add.srv"), []string{"my_msgs/msg/Point2"}, nil},
		{"missing", "nope_msgs/msg/Nope", &Finder{NoSystem: true}, "", nil, ErrNoDefinition},
		{"missing dependency", "my_msgs/msg/Pose2", &Finder{Dirs: []string{dir}, NoSystem: true, NoEmbedded: true}, "", nil, ErrNoDefinition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, src, err := tt.finder.Find(tt.typ)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if src != tt.wantSource {
				t.Errorf("source = %q, want %q", src, tt.wantSource)
			}
			var got []string
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "MSG: ") {
					got = append(got, strings.TrimPrefix(line, "MSG: "))
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.wantTypes, ",") {
				t.Errorf("sections %v, want %v", got, tt.wantTypes)
			}
			if _, err := CompileSchema(SchemaROS2Msg, EncodingCDR, tt.typ, text); err != nil {
				t.Errorf("the found definition does not compile: %v", err)
			}
		})
	}
}

// TestEmbeddedDefinitionsCompile: every embedded standard type compiles
// with its dependencies found among the embedded ones.
func TestEmbeddedDefinitionsCompile(t *testing.T) {
	f := &Finder{NoSystem: true}
	n := 0
	err := filepath.WalkDir("ros2defs/msgs", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".msg") {
			return err
		}
		rel, _ := filepath.Rel("ros2defs/msgs", p)
		typ := strings.TrimSuffix(filepath.ToSlash(rel), ".msg")
		text, _, err := f.Find(typ)
		if err != nil {
			t.Errorf("%s: %v", typ, err)
			return nil
		}
		if _, err := CompileSchema(SchemaROS2Msg, EncodingCDR, typ, text); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
		n++
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("%d types compiled, walk error %v", n, err)
	}
}
