// read_all: the C++ reference for "every message's bytes". Opens a bag with
// Debian's rosbag_storage, reads every message's serialized bytes through
// rosbag::View into a reused buffer, and prints the count and total bytes.
// With --summary it only opens the bag and counts the messages from the
// index (the C++ side of the `info` workload).
//
//   read_all [--summary] FILE
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <ros/serialization.h>
#include <rosbag/bag.h>
#include <rosbag/view.h>

int main(int argc, char** argv) {
  bool summary = argc == 3 && std::string(argv[1]) == "--summary";
  if (argc != 2 && !summary) {
    std::fprintf(stderr, "usage: read_all [--summary] FILE\n");
    return 2;
  }
  rosbag::Bag bag;
  bag.open(argv[argc - 1], rosbag::bagmode::Read);
  rosbag::View view(bag);
  if (summary) {
    std::printf("%u messages, %.3f s\n", view.size(), (view.getEndTime() - view.getBeginTime()).toSec());
    return 0;
  }
  std::vector<uint8_t> buf;
  uint64_t count = 0, bytes = 0;
  for (const rosbag::MessageInstance& m : view) {
    uint32_t n = m.size();
    if (buf.size() < n) buf.resize(n);
    ros::serialization::OStream out(buf.data(), n);
    m.write(out);
    count++;
    bytes += n;
  }
  std::printf("%llu messages, %llu bytes\n", (unsigned long long)count, (unsigned long long)bytes);
  return 0;
}
