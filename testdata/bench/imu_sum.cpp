// imu_sum: the C++ reference for "/imu.linear_acceleration.x". Reads only
// /imu (sensor_msgs/Imu) through rosbag::View and sums
// linear_acceleration.x, deserialising the field by hand from the message
// bytes: Header (seq, stamp, frame_id), orientation (4 float64),
// orientation_covariance (9), angular_velocity (3),
// angular_velocity_covariance (9), then linear_acceleration.x.
//
//   imu_sum FILE
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <ros/serialization.h>
#include <rosbag/bag.h>
#include <rosbag/view.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: imu_sum FILE\n");
    return 2;
  }
  rosbag::Bag bag;
  bag.open(argv[1], rosbag::bagmode::Read);
  rosbag::View view(bag, rosbag::TopicQuery("/imu"));
  std::vector<uint8_t> buf;
  uint64_t count = 0;
  double sum = 0;
  for (const rosbag::MessageInstance& m : view) {
    uint32_t n = m.size();
    if (buf.size() < n) buf.resize(n);
    ros::serialization::OStream out(buf.data(), n);
    m.write(out);
    uint32_t frame_len;
    if (n < 16) return 1;
    std::memcpy(&frame_len, &buf[12], 4);
    size_t off = 16 + size_t(frame_len) + (4 + 9 + 3 + 9) * 8;
    if (off + 8 > n) {
      std::fprintf(stderr, "message %llu too short\n", (unsigned long long)count);
      return 1;
    }
    double x;
    std::memcpy(&x, &buf[off], 8);
    sum += x;
    count++;
  }
  std::printf("%llu messages, sum of linear_acceleration.x %.17g\n", (unsigned long long)count, sum);
  return 0;
}
