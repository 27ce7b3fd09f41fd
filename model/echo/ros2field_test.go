package echo

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// charsIDL is a ros2idl schema with IDL chars: rclpy gives each as a str of
// one character (rosidl_generator_py's Py_BuildValue("C", ...)), where a
// .msg char, rosidl's alias of uint8, is a number.
const charsIDL = `module test_msgs {
  module msg {
    struct Chars {
      char c;
      char cs[3];
      sequence<char> seq;
      uint8 u;
    };
  };
};
`

// charsOracle prints, for each value v below 128, what `ros2 topic echo`
// prints for the message {c: v, cs: [v, 'A', "'"], seq: [v, '"'], u: v}
// as rclpy gives it (chars as str), and for --field c and --field cs: the
// YAML of message_to_yaml (PyYAML, ordered, allow_unicode, no width, block
// style), and print() of the field. One JSON list per value.
const charsOracle = `
import collections, json, sys, yaml
def rep(d, data):
    return yaml.nodes.MappingNode('tag:yaml.org,2002:map',
        [(d.represent_data(k), d.represent_data(v)) for k, v in data.items()])
yaml.add_representer(collections.OrderedDict, rep)
for v in range(128):
    c, cs, seq = chr(v), [chr(v), 'A', "'"], [chr(v), '"']
    m = collections.OrderedDict([('c', c), ('cs', cs), ('seq', seq), ('u', v)])
    text = yaml.dump(m, allow_unicode=True, width=sys.maxsize, default_flow_style=False)
    print(json.dumps([text, str(c) + '\n', str(cs) + '\n']))
`

// TestIDLCharAsRclpy compares a ros2idl message's chars, as cat writes
// them (the whole message and one field alone), with PyYAML and Python's
// print of the values rclpy gives, for every ASCII value.
func TestIDLCharAsRclpy(t *testing.T) {
	reftest.RequireRef(t)
	if err := exec.Command(reftest.Python, "-c", "import yaml").Run(); err != nil {
		t.Skipf("skipping: %s cannot import yaml (%v); install python3-yaml", reftest.Python, err)
	}
	out, err := exec.Command(reftest.Python, "-c", charsOracle).Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	plan, err := rosmsg.CompileSchema(rosmsg.SchemaROS2IDL, rosmsg.EncodingCDR, "test_msgs/msg/Chars", charsIDL)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	style := ROS2Style{Truncate: ROS2TruncateLength, IDLChar: true}
	for v := range 128 {
		var want [3]string
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("oracle line %d: %v", v, err)
		}
		data := []byte{0, 1, 0, 0, byte(v), byte(v), 'A', '\''}
		data = binary.LittleEndian.AppendUint32(data, 2)
		data = append(data, byte(v), '"', byte(v))
		n, err := plan.Decode(data)
		if err != nil {
			t.Fatalf("value %d: %v", v, err)
		}
		if got := ROS2MessageStyled(n, style); got != want[0] {
			t.Errorf("value %d: message\n got %q\nwant %q", v, got, want[0])
		}
		for i, name := range []string{"c", "cs"} {
			if got, ok := ROS2Field(n.Field(name), style); !ok || got != want[i+1] {
				t.Errorf("value %d: --field %s\n got %q\nwant %q", v, name, got, want[i+1])
			}
		}
		// The same bytes under a .msg char (uint8) stay numbers.
		if got := ROS2Message(n, ROS2TruncateLength); v == 'A' && got == want[0] {
			t.Errorf("a .msg char is printed as a character: %q", got)
		}
	}
}
