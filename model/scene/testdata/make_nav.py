#!/usr/bin/python3
"""Writes navigation displays and markers with known geometry, by the reference writer: make_nav.py OUT.bag

1 s from 1700000000. world -> map on /tf_static: translation (10, 0, 0), yaw +90 deg, so a point (x, y, z)
of map is (10 - y, x, z) in world. Everything below is in map:
/path     nav_msgs/Path at 0.0 s: (0,0), (1,0), (1,1)
/pose     geometry_msgs/PoseStamped at 0.0 s: (2, 0, 0), no rotation (an arrow to (3, 0, 0))
/amcl     geometry_msgs/PoseWithCovarianceStamped at 0.0 s: (0, 2, 0), no rotation
/odom     nav_msgs/Odometry at 0.0, 0.1, ... 0.4 s: x = 0, 1, 2, 3, 4 (y 0)
/map      nav_msgs/OccupancyGrid at 0.0 s: resolution 0.5, 4 x 2 cells, origin (0, 0, 0),
          data [0, 100, -1, 50, 0, 0, 0, 100] (row y=0 first)
/markers  visualization_msgs/MarkerArray
          0.0 s: cube a/1 at (1,0,0) scale 1 red; sphere a/2 at (0,3,0); text t/0 "hello" at (0,0,2)
          0.2 s: DELETE a/2; arrow b/0 from (0,0,0) to (1,0,0)
          0.4 s: DELETEALL, then line strip c/0 through (0,0,0), (0,1,0), (0,2,0)
/marker   visualization_msgs/Marker
          0.0 s: cube m/1 at (0,0,0); 0.1 s: cube m/2 at (0,1,0); 0.2 s: cube m/1 again, at (5,0,0);
          0.2 s: sphere m/3 at (0,-1,0) with a lifetime of 0.1 s (gone after 0.3 s)
Deterministic.
"""
import math
import sys

import rosbag
import rospy
from geometry_msgs.msg import Point, PoseStamped, PoseWithCovarianceStamped, TransformStamped
from nav_msgs.msg import OccupancyGrid, Odometry, Path
from tf2_msgs.msg import TFMessage
from visualization_msgs.msg import Marker, MarkerArray

T0 = rospy.Time(1700000000, 0)
H = math.sqrt(0.5)


def at(s):
    return T0 + rospy.Duration.from_sec(s)


def ps(x, y, z=0.0):
    p = PoseStamped()
    p.header.frame_id = 'map'
    p.pose.position.x, p.pose.position.y, p.pose.position.z = x, y, z
    p.pose.orientation.w = 1
    return p


def marker(ns, mid, typ, xyz=(0, 0, 0), action=0, points=(), text=''):
    m = Marker()
    m.header.frame_id = 'map'
    m.ns, m.id, m.type, m.action = ns, mid, typ, action
    m.pose.position.x, m.pose.position.y, m.pose.position.z = xyz
    m.pose.orientation.w = 1
    m.scale.x = m.scale.y = m.scale.z = 1.0
    m.color.r, m.color.a = 1.0, 1.0
    m.points = [Point(*p) for p in points]
    m.text = text
    return m


def main(out):
    with rosbag.Bag(out, 'w') as b:
        t = TransformStamped()
        t.header.stamp, t.header.frame_id, t.child_frame_id = T0, 'world', 'map'
        t.transform.translation.x = 10
        t.transform.rotation.z, t.transform.rotation.w = H, H
        b.write('/tf_static', TFMessage(transforms=[t]), T0)
        path = Path()
        path.header.frame_id = 'map'
        path.poses = [ps(0, 0), ps(1, 0), ps(1, 1)]
        b.write('/path', path, T0)
        b.write('/pose', ps(2, 0), T0)
        amcl = PoseWithCovarianceStamped()
        amcl.header.frame_id = 'map'
        amcl.pose.pose = ps(0, 2).pose
        b.write('/amcl', amcl, T0)
        for i in range(5):
            o = Odometry()
            o.header.stamp, o.header.frame_id, o.child_frame_id = at(i * 0.1), 'map', 'base_link'
            o.pose.pose.position.x = i
            o.pose.pose.orientation.w = 1
            b.write('/odom', o, at(i * 0.1))
        g = OccupancyGrid()
        g.header.frame_id = 'map'
        g.info.resolution, g.info.width, g.info.height = 0.5, 4, 2
        g.info.origin.orientation.w = 1
        g.data = [0, 100, -1, 50, 0, 0, 0, 100]
        b.write('/map', g, T0)
        b.write('/markers', MarkerArray(markers=[
            marker('a', 1, Marker.CUBE, (1, 0, 0)), marker('a', 2, Marker.SPHERE, (0, 3, 0)),
            marker('t', 0, Marker.TEXT_VIEW_FACING, (0, 0, 2), text='hello')]), at(0))
        b.write('/markers', MarkerArray(markers=[
            marker('a', 2, Marker.SPHERE, action=Marker.DELETE),
            marker('b', 0, Marker.ARROW, points=[(0, 0, 0), (1, 0, 0)])]), at(0.2))
        b.write('/markers', MarkerArray(markers=[
            marker('', 0, 0, action=3),
            marker('c', 0, Marker.LINE_STRIP, points=[(0, 0, 0), (0, 1, 0), (0, 2, 0)])]), at(0.4))
        b.write('/marker', marker('m', 1, Marker.CUBE, (0, 0, 0)), at(0))
        b.write('/marker', marker('m', 2, Marker.CUBE, (0, 1, 0)), at(0.1))
        b.write('/marker', marker('m', 1, Marker.CUBE, (5, 0, 0)), at(0.2))
        short = marker('m', 3, Marker.SPHERE, (0, -1, 0))
        short.lifetime = rospy.Duration.from_sec(0.1)
        b.write('/marker', short, at(0.2))


if __name__ == '__main__':
    main(sys.argv[1])
