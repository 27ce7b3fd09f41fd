// Package scene is the 3D scene of a recording at one time, as plain data:
// the drawable topics' messages at or before the time (point clouds, laser
// scans, markers as rviz keeps them, paths, odometry trails, poses,
// occupancy grids, the transform tree's axes), transformed into a chosen
// fixed frame through the transform tree (model/tf), as world-space
// primitives (points, line segments, triangles, labels); a camera that
// orbits, pans and zooms about a target, with its projection; and a
// software renderer that rasterises a scene into an RGBA image with a
// depth buffer, reusing its buffers from frame to frame (no per-point
// allocation). Nothing here touches Fyne: ui/sceneview shows the image.
//
// Memory is bounded: a cloud is read every Stride-th point past
// MaxPoints, whatever its size, and a scene holds one message per topic.
package scene
