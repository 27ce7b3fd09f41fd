// Package expr is bagscope's expression language over messages: one
// grammar for the find bar, the Log view's filter, `bagscope find` and
// `bagscope filter --where`.
//
// An expression is true or false for a message:
//
//	linear_acceleration.z > 9 && abs(angular_velocity.x) < 0.1
//	level >= WARN && msg ~ "timeout|lost"
//	any(position[*] > 1.5) || len(name) != 6
//	transforms[base_link].transform.translation.z < 0
//	/battery.percentage < 20 && @t > 30
//
// Terms are field paths with the selectors of rosmsg.Selection: [N], [*],
// ranges [A:B], [KEY] and [FIELD=VALUE] ([KEY] and [FIELD=VALUE] pick the
// first element that matches). A path may start with a topic
// ("/imu.linear_acceleration.x"); an expression names at most one topic. A
// time or duration field reads as seconds (also a ROS 2
// builtin_interfaces Time or Duration message), and ".secs"/".nsecs"
// (".sec"/".nanosec") read its parts. An identifier that is no field names
// a constant of the message definition (WARN of rosgraph_msgs/Log).
//
// Time terms: @log (the log, or receive, time), @publish (MCAP's publish
// time, rosbag2's send timestamp; the log time where the format stores
// none), @stamp (header.stamp, or a top-level stamp), @t (seconds since the
// recording's start), @clock (the sim time of /clock at the message, where
// the caller provides it), all in seconds; and @topic and @type (strings).
//
// Operators, loosest first: ||; &&; == != < <= > >= and ~ !~ (a regular
// expression, Go's RE2 syntax, which matches in linear time); + -; * / %;
// unary ! and -. Values are numbers (integers stay exact int64 until mixed
// with a float), strings, and booleans. Functions: abs(x), len(x) (a
// string's bytes, an array's elements, the elements a [*] path reads),
// norm(...) (the Euclidean norm of numbers, of an array, or of a message's
// number fields such as a Vector3), contains(s, t), startswith(s, t),
// endswith(s, t), and the aggregates any(cond), all(cond), count(cond),
// min(x), max(x), sum(x), mean(x) over the elements a [*] or range path
// reads. Paths that share their text up to a [*] walk the same element:
// any(transforms[*].child_frame_id == "arm" && transforms[*].transform
// .translation.z > 1). An aggregate walks the [*] paths used inside it,
// unless an aggregate around it uses them too: the outer one walks them
// and the inner one sees its element (any(markers[*].id == 3 &&
// all(markers[*].points[*].z > 0))). norm(vector) of a [*] path is one
// norm per element: max(norm(transforms[*].transform.translation)).
//
// A field that a message lacks (an index beyond its array, a key it does
// not hold, no /clock yet) has no value: a comparison with it is neither
// true nor false, ! keeps it so, && and || decide on what is known
// (SQL's three-valued logic), and the message does not match.
//
// Compile checks types and fields against one message definition and
// reports a mistake with its byte offset and, for an unknown field, the
// closest fields. A Program is immutable; evaluate it with a State per
// goroutine: Match does not allocate (but for a wstring's decoding), and
// bounds the work one message may cost.
package expr
