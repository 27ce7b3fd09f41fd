// Package services is a recording's ROS 2 service calls and action goals,
// from what rosbag2 records of them since Jazzy (services) and Kilted
// (actions): each service's `…/_service_event` topic (a `pkg/srv/X_Event`
// message per event: service_msgs/ServiceEventInfo info with the event's
// type, stamp, client_gid and sequence_number, and request[] and
// response[], sequences of at most one), and each action's goal, result
// and cancel services (`…/_action/send_goal`, `…/_action/get_result`,
// `…/_action/cancel_goal`) with its `…/_action/feedback` and
// `…/_action/status` topics.
//
// A call is the events of one request: the client's REQUEST_SENT and
// RESPONSE_RECEIVED, the server's REQUEST_RECEIVED and RESPONSE_SENT,
// whichever were recorded, paired by (client_gid, sequence_number) within a
// service. Its latency is from the request (sent, else received) to the
// response (received, else sent), by the events' stamps. A call with a
// request and no response is missing its response.
//
// A goal is what the action's topics and services say of one goal_id:
// when it was sent and accepted, its feedback, its status transitions and
// its result, and its lifetime (from the first word of it to its terminal
// status or result, or to the end of the recording).
//
// Read reads the service and action messages once, in the background with
// progress and cancel, in bounded memory: it keeps at most MaxCalls calls
// and MaxGoals goals (the rest are counted), and a sample of each
// service's latencies.
package services
