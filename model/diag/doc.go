// Package diag is the diagnostics of a recording: the statuses its
// diagnostic_msgs/DiagnosticArray topics (/diagnostics, /diagnostics_agg,
// any topic of that type, ROS 1 and ROS 2) report, as a table at one time
// (each status's latest report at or before it: name, hardware_id, level
// OK/WARN/ERROR/STALE, message and key/values) and as each status's level
// over time (intervals, drawn as timeline state lanes).
//
// A status is known by its topic and name. Times are receive times: a
// status holds from the message that reports it until the next report of
// the same status; the last report holds to the end of the recording,
// unless the status stopped reporting (no report for more than twice its
// longest interval): its level over time then ends one interval after its
// last report.
//
// Memory stays bounded by the statuses, not the messages: ReadHistory
// keeps per status its level changes and a few numbers; TableAt keeps the
// latest report of each status, reading only the messages from the
// earliest that can hold one of them (History.WindowStart) to the time.
package diag
