package scene

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image/color"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Mesh markers (MESH_RESOURCE): binary and ASCII STL and Wavefront OBJ
// files named by a file:// or package:// URI (package:// found through
// ROS_PACKAGE_PATH, then AMENT_PREFIX_PATH's share folders). A mesh that
// cannot be found or read is drawn as the marker's scaled box, outlined,
// labelled "mesh not found: URI". Bounds: MaxMeshBytes a file,
// MaxMeshTriangles a mesh, and meshCacheTriangles kept over all meshes
// read (the files are read once, not at every time move).
const (
	MaxMeshBytes       = 64 << 20
	MaxMeshTriangles   = 1 << 20
	meshCacheTriangles = 4 << 20
)

// mesh is a loaded mesh: its triangles' corners in its own frame.
type mesh struct {
	tris [][3]Vec
	size int64
	mod  int64
}

var meshCache struct {
	sync.Mutex
	m    map[string]*mesh
	tris int
}

// resolveMesh returns the file a mesh URI names.
func resolveMesh(uri string) (string, error) {
	switch {
	case strings.HasPrefix(uri, "file://"):
		u, err := url.Parse(uri)
		if err != nil {
			return "", err
		}
		return u.Path, nil
	case strings.HasPrefix(uri, "package://"):
		rest := strings.TrimPrefix(uri, "package://")
		pkg, rel, ok := strings.Cut(rest, "/")
		if !ok || pkg == "" || strings.Contains(rel, "..") {
			return "", errors.New("not a package://PACKAGE/PATH")
		}
		var tries []string
		for _, root := range filepath.SplitList(os.Getenv("ROS_PACKAGE_PATH")) {
			if root == "" {
				continue
			}
			if filepath.Base(root) == pkg {
				tries = append(tries, filepath.Join(root, rel))
			}
			tries = append(tries, filepath.Join(root, pkg, rel))
		}
		for _, prefix := range filepath.SplitList(os.Getenv("AMENT_PREFIX_PATH")) {
			if prefix != "" {
				tries = append(tries, filepath.Join(prefix, "share", pkg, rel))
			}
		}
		for _, p := range tries {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, nil
			}
		}
		return "", fmt.Errorf("package %s not found in ROS_PACKAGE_PATH or AMENT_PREFIX_PATH", pkg)
	}
	return "", errors.New("only file:// and package:// meshes are read")
}

// loadMesh reads the mesh a URI names, from the cache when the file has
// not changed.
func loadMesh(uri string) (*mesh, error) {
	path, err := resolveMesh(uri)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxMeshBytes {
		return nil, fmt.Errorf("%s is %d bytes, over the %d MiB a mesh may take", path, st.Size(), MaxMeshBytes>>20)
	}
	meshCache.Lock()
	if m := meshCache.m[path]; m != nil && m.size == st.Size() && m.mod == st.ModTime().UnixNano() {
		meshCache.Unlock()
		return m, nil
	}
	meshCache.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tris [][3]Vec
	switch strings.ToLower(filepath.Ext(path)) {
	case ".stl":
		tris, err = parseSTL(b)
	case ".obj":
		tris, err = parseOBJ(b)
	default:
		err = fmt.Errorf("%s: only STL and OBJ meshes are read", filepath.Base(path))
	}
	if err != nil {
		return nil, err
	}
	m := &mesh{tris: tris, size: st.Size(), mod: st.ModTime().UnixNano()}
	meshCache.Lock()
	defer meshCache.Unlock()
	if meshCache.m == nil || meshCache.tris+len(tris) > meshCacheTriangles {
		meshCache.m, meshCache.tris = map[string]*mesh{}, 0
	}
	if old := meshCache.m[path]; old != nil {
		meshCache.tris -= len(old.tris)
	}
	meshCache.m[path] = m
	meshCache.tris += len(tris)
	return m, nil
}

// parseSTL reads a binary STL (an 80-byte header, a count, 50 bytes a
// triangle) or an ASCII one ("solid", "vertex x y z" three a facet).
func parseSTL(b []byte) ([][3]Vec, error) {
	if len(b) >= 84 {
		n := binary.LittleEndian.Uint32(b[80:84])
		if uint64(len(b)) == 84+50*uint64(n) {
			if n > MaxMeshTriangles {
				return nil, fmt.Errorf("STL of %d triangles, over %d", n, MaxMeshTriangles)
			}
			tris := make([][3]Vec, n)
			for i := range tris {
				o := 84 + 50*i + 12 // after the normal
				for k := range 3 {
					for c := range 3 {
						tris[i][k][c] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[o+12*k+4*c:])))
					}
				}
			}
			return tris, nil
		}
	}
	if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("solid")) {
		return nil, errors.New("neither a binary STL (its size does not match its count) nor an ASCII one")
	}
	var tris [][3]Vec
	var cur [3]Vec
	k := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 || f[0] != "vertex" {
			continue
		}
		v, ok := parseVec(f[1:])
		if !ok {
			return nil, fmt.Errorf("STL vertex %q", sc.Text())
		}
		cur[k] = v
		if k++; k == 3 {
			if len(tris) >= MaxMeshTriangles {
				return nil, fmt.Errorf("STL of more than %d triangles", MaxMeshTriangles)
			}
			tris, k = append(tris, cur), 0
		}
	}
	return tris, sc.Err()
}

// parseOBJ reads a Wavefront OBJ's vertices ("v x y z") and faces ("f a
// b c ...", 1-based or negative, "a/t/n" forms), each face a fan of
// triangles.
func parseOBJ(b []byte) ([][3]Vec, error) {
	var vs []Vec
	var tris [][3]Vec
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "v":
			if len(f) < 4 {
				return nil, fmt.Errorf("OBJ vertex %q", sc.Text())
			}
			v, ok := parseVec(f[1:4])
			if !ok {
				return nil, fmt.Errorf("OBJ vertex %q", sc.Text())
			}
			if len(vs) >= 3*MaxMeshTriangles {
				return nil, fmt.Errorf("OBJ of more than %d vertices", 3*MaxMeshTriangles)
			}
			vs = append(vs, v)
		case "f":
			var idx []int
			for _, s := range f[1:] {
				s, _, _ = strings.Cut(s, "/")
				i, err := strconv.Atoi(s)
				if i < 0 {
					i = len(vs) + i + 1
				}
				if err != nil || i < 1 || i > len(vs) {
					return nil, fmt.Errorf("OBJ face %q", sc.Text())
				}
				idx = append(idx, i-1)
			}
			for k := 1; k+1 < len(idx); k++ {
				if len(tris) >= MaxMeshTriangles {
					return nil, fmt.Errorf("OBJ of more than %d triangles", MaxMeshTriangles)
				}
				tris = append(tris, [3]Vec{vs[idx[0]], vs[idx[k]], vs[idx[k+1]]})
			}
		}
	}
	return tris, sc.Err()
}

func parseVec(f []string) (Vec, bool) {
	var v Vec
	for i := range 3 {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Vec{}, false
		}
		v[i] = x
	}
	return v, true
}

// MeshGrey colours a mesh whose marker has no colour (all zero, as with
// mesh_use_embedded_materials, whose materials are not read).
var MeshGrey = color.NRGBA{180, 180, 180, 255}

// addMesh draws a mesh marker: its triangles scaled and posed, or, when
// the mesh cannot be read, its scaled box outlined and labelled.
func (s *Scene) addMesh(p Pose, scale Vec, c color.NRGBA, uri string) {
	if c == (color.NRGBA{}) {
		c = MeshGrey
	}
	m, err := loadMesh(uri)
	if err != nil {
		s.addBoxOutline(p, scale, c)
		s.Labels = append(s.Labels, Label{At: p.T, Text: "mesh not found: " + uri, Color: c})
		return
	}
	for _, t := range m.tris {
		var w [3]Vec
		for k := range 3 {
			w[k] = p.Apply(Vec{t[k][0] * scale[0], t[k][1] * scale[1], t[k][2] * scale[2]})
		}
		s.Tris = append(s.Tris, Tri{A: w[0], B: w[1], C: w[2], Color: c})
	}
}

// addBoxOutline draws the 12 edges of a box of size centred on p.
func (s *Scene) addBoxOutline(p Pose, size Vec, c color.NRGBA) {
	c.A = 255
	corner := func(k int) Vec {
		q := Vec{-size[0] / 2, -size[1] / 2, -size[2] / 2}
		for i := range 3 {
			if k>>i&1 == 1 {
				q[i] = size[i] / 2
			}
		}
		return p.Apply(q)
	}
	for k := range 8 {
		for i := range 3 {
			if k>>i&1 == 0 {
				s.Lines = append(s.Lines, Line{A: corner(k), B: corner(k | 1<<i), Color: c, Width: 1})
			}
		}
	}
}
